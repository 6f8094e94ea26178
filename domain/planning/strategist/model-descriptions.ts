import type { Candidate } from './candidates.js'

/**
 * Descriptions written by the language model: one request per client-month listing every chosen item, the
 * answer a JSON object of one description per item key. The answer is checked here (pure); anything short
 * of a usable description for every item is refused as a whole, and the job falls back to the templates.
 */
export const DESCRIPTION_SYSTEM = [
  'You plan the monthly SEO work of a small business website.',
  'For each listed action item write one description a person can act on: what to do, on which page, and why, in one to three sentences.',
  'Answer with JSON only, no code fences: {"items": [{"key": "<the item key>", "description": "<text>"}]}, one entry per listed key.',
].join(' ')

export function descriptionPrompt(clientName: string, month: string, items: readonly Candidate[]): string {
  const lines = items.map((c) =>
    JSON.stringify({ key: c.source_key, action_type: c.action_type, page_url: c.page_url, subject: c.subject, finding: c.finding }),
  )
  return `Client: ${clientName}\nMonth: ${month}\nAction items (one JSON object per line):\n${lines.join('\n')}`
}

export const MAX_MODEL_DESCRIPTION = 1000

export type ParsedDescriptions = { ok: true; byKey: Map<string, string> } | { ok: false; reason: string }

/** The model's descriptions by item key, or why the answer cannot be used. */
export function parseDescriptions(answer: string, items: readonly Candidate[]): ParsedDescriptions {
  const trimmed = answer
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim()
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    return { ok: false, reason: 'the answer is not JSON' }
  }
  const list = (parsed as { items?: unknown } | null)?.items
  if (!Array.isArray(list)) return { ok: false, reason: 'the answer has no items array' }
  const byKey = new Map<string, string>()
  for (const entry of list) {
    const key = (entry as { key?: unknown })?.key
    const description = (entry as { description?: unknown })?.description
    if (typeof key !== 'string' || typeof description !== 'string') continue
    const text = description.trim()
    if (text !== '' && text.length <= MAX_MODEL_DESCRIPTION) byKey.set(key, text)
  }
  const missing = items.filter((c) => !byKey.has(c.source_key))
  if (missing.length > 0)
    return { ok: false, reason: `no usable description for ${missing.length} of ${items.length} items (first: ${missing[0]!.source_key})` }
  return { ok: true, byKey }
}
