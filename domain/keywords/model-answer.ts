import { extractJsonObject } from '../shared/model-json.js'
import { acceptableKeyword, MAX_GENERATED_LENGTH, MAX_WORDS, type KeywordCandidate } from './generate.js'

/**
 * Asking a language model for more keyword ideas and reading its answer. The model's keywords supplement
 * the built-in candidates (ranked between the main service × city phrases and the rest); each goes through
 * acceptableKeyword, so an answer can add keywords but never malformed ones.
 */
export const MODEL_KEYWORD_PRIORITY = 65

export function keywordRequest(input: {
  readonly services: readonly string[]
  readonly locations: readonly string[]
  readonly max: number
}): { system: string; prompt: string } {
  const system = [
    'You suggest search keywords a local business should track in Google.',
    'Answer with JSON only, no prose: {"keywords": [{"keyword": string, "service": string, "location": string}]}.',
    `Each keyword: lower case, at most ${MAX_WORDS} words and ${MAX_GENERATED_LENGTH} characters, a phrase people really type; ` +
      'service: one of the given services; location: one of the given locations or "".',
  ].join('\n')
  const prompt = JSON.stringify({ services: input.services, locations: input.locations, max_keywords: input.max })
  return { system, prompt }
}

/** The acceptable keywords of the answer (service and location kept only when they are the client's). */
export function readKeywordAnswer(text: string, facts: { services: readonly string[]; locations: readonly string[] }): KeywordCandidate[] {
  const answer = extractJsonObject(text)
  const entries = Array.isArray(answer?.keywords) ? (answer.keywords as unknown[]) : []
  const known = (value: unknown, list: readonly string[]) =>
    typeof value === 'string' ? (list.find((item) => item.toLowerCase() === value.trim().toLowerCase()) ?? '') : ''
  const out: KeywordCandidate[] = []
  for (const entry of entries) {
    const record =
      typeof entry === 'string'
        ? { keyword: entry }
        : entry !== null && typeof entry === 'object'
          ? (entry as Record<string, unknown>)
          : null
    if (!record || typeof record.keyword !== 'string') continue
    const keyword = record.keyword.trim().replace(/\s+/g, ' ').toLowerCase()
    if (!acceptableKeyword(keyword)) continue
    out.push({
      keyword,
      source: 'generated',
      service: known(record.service, facts.services),
      location: known(record.location, facts.locations),
      priority: MODEL_KEYWORD_PRIORITY,
    })
  }
  return out
}
