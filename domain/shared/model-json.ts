/**
 * The JSON object in a language model's answer: the whole text, or the first ```json fenced block, or the
 * span from the first "{" to the last "}" (models wrap JSON in prose or fences despite being asked not
 * to). Null when none parses: the caller falls back to its built-in writer.
 */
export function extractJsonObject(text: string): Record<string, unknown> | null {
  const attempts = [text.trim()]
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)
  if (fenced?.[1]) attempts.push(fenced[1].trim())
  const first = text.indexOf('{')
  const last = text.lastIndexOf('}')
  if (first >= 0 && last > first) attempts.push(text.slice(first, last + 1))
  for (const attempt of attempts) {
    try {
      const value: unknown = JSON.parse(attempt)
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
    } catch {
      // the next form
    }
  }
  return null
}
