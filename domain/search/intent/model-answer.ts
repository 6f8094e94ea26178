import { extractJsonObject } from '../../shared/model-json.js'
import { MAX_SIGNAL_DETAIL, PAGE_INTENTS, type IntentSignalValue, type PageIntentValue } from './events.js'
import { cut, readPageText, storableText } from './page-text.js'
import type { IntentClassification, IntentRuleInput } from './rules.js'

/**
 * Asking a language model for a page's search intent and reading its answer. The model sees what the rules
 * see (the URL, title, headings, an excerpt of the text, the client's services and locations) and answers
 * with JSON; its reasons become the classification's signals. An answer without one of the five intents is
 * unreadable: the caller falls back to the rules and records why.
 */
export const EXCERPT_CHARS = 4000
export const MODEL_HEADINGS = 15
export const MODEL_REASONS = 5
/** Ample for the small JSON object asked for. */
export const INTENT_MAX_TOKENS = 400
/** A model that gives no confidence is taken at this. */
export const DEFAULT_MODEL_CONFIDENCE = 0.7

const DEFINITIONS = [
  'informational: the searcher wants to know or learn something (guides, how-tos, explanations, news).',
  'commercial: the searcher is comparing options before choosing (service pages, reviews, prices, "best …").',
  'transactional: the searcher wants to act now (buy, book, order, request a quote, sign up).',
  'navigational: the searcher wants this business or one of its pages by name (home, about, contact, login).',
  'local: the searcher wants a provider or place in a given area (city pages, "near me", service areas, directions).',
]

export function intentRequest(input: IntentRuleInput): { system: string; prompt: string; maxTokens: number } {
  const page = readPageText(input.content)
  const system = [
    'You classify the search intent a web page of a business serves: what someone searching Google wants when this page is the right result.',
    'Choose exactly one of:',
    ...DEFINITIONS,
    `Answer with JSON only, no prose: {"intent": one of ${PAGE_INTENTS.map((i) => `"${i}"`).join(', ')}, "confidence": a number from 0 to 1, "reasons": [at most ${MODEL_REASONS} short strings]}.`,
  ].join('\n')
  const prompt = JSON.stringify({
    url: input.url,
    title: input.title,
    headings: page.headings.slice(0, MODEL_HEADINGS),
    text_excerpt: cut(page.text, EXCERPT_CHARS),
    business: {
      name: input.client.name,
      services: input.client.services,
      locations: input.client.locations.map((l) => l.name),
    },
  })
  return { system, prompt, maxTokens: INTENT_MAX_TOKENS }
}

const isIntent = (value: unknown): value is PageIntentValue =>
  typeof value === 'string' && (PAGE_INTENTS as readonly string[]).includes(value)

/** The classification in a model's answer, or null when it names none of the five intents. */
export function readIntentAnswer(text: string): IntentClassification | null {
  const answer = extractJsonObject(text)
  const named = typeof answer?.intent === 'string' ? answer.intent.trim().toLowerCase() : null
  if (!isIntent(named)) return null
  const given = typeof answer?.confidence === 'number' && Number.isFinite(answer.confidence) ? answer.confidence : DEFAULT_MODEL_CONFIDENCE
  const confidence = Math.round(Math.min(1, Math.max(0, given)) * 100) / 100
  const reasons = Array.isArray(answer?.reasons) ? answer.reasons : []
  const signals: IntentSignalValue[] = reasons
    .filter((reason): reason is string => typeof reason === 'string')
    .map((reason) => storableText(reason, MAX_SIGNAL_DETAIL))
    .filter((reason) => reason !== '')
    .slice(0, MODEL_REASONS)
    .map((reason) => ({ intent: named, source: 'model', detail: reason, weight: 1 }))
  return { intent: named, confidence, signals }
}
