import { DomainError } from '../../shared/errors.js'
import type { SurveyAnswer } from './events.js'
import { LIST_ITEM_MAX_LENGTH, LIST_MAX_ITEMS, NUMBER_MAX, TEXT_MAX_LENGTH, type SurveyQuestion } from './questions.js'

/*
 * An answer checked against its question and put in its stored form: texts trimmed with their spacing
 * collapsed, list items de-duplicated case-insensitively (first spelling kept), chosen options de-duplicated.
 * A refusal names the answer (`answers.<question id>`) and why, so the caller knows what to fix.
 */

const refuse = (question: SurveyQuestion, reason: string): never => {
  throw new DomainError('survey_answer_invalid', 'A survey answer does not fit its question', `answers.${question.id}: ${reason}`)
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim()

function text(question: SurveyQuestion, raw: unknown): string {
  if (typeof raw !== 'string') return refuse(question, 'expected a text')
  const value = clean(raw)
  if (value === '') return refuse(question, 'must not be empty')
  if (value.length > TEXT_MAX_LENGTH) return refuse(question, `at most ${TEXT_MAX_LENGTH} characters`)
  return value
}

function list(question: SurveyQuestion, raw: unknown): string[] {
  // One text is a list of one: "Austin, TX" for a single service area reads as a person would mean it.
  const items = typeof raw === 'string' ? [raw] : raw
  if (!Array.isArray(items) || items.some((i) => typeof i !== 'string')) return refuse(question, 'expected a list of texts')
  const seen = new Set<string>()
  const values: string[] = []
  for (const item of items as string[]) {
    const value = clean(item)
    if (value === '' || seen.has(value.toLowerCase())) continue
    if (value.length > LIST_ITEM_MAX_LENGTH) return refuse(question, `each item at most ${LIST_ITEM_MAX_LENGTH} characters`)
    seen.add(value.toLowerCase())
    values.push(value)
  }
  if (values.length === 0) return refuse(question, 'needs at least one item')
  if (values.length > LIST_MAX_ITEMS) return refuse(question, `at most ${LIST_MAX_ITEMS} items`)
  return values
}

function option(question: SurveyQuestion, raw: unknown): string {
  const options = question.options ?? []
  if (typeof raw !== 'string' || !options.includes(raw)) return refuse(question, `expected one of ${options.join(', ')}`)
  return raw
}

function options(question: SurveyQuestion, raw: unknown): string[] {
  const items = typeof raw === 'string' ? [raw] : raw
  if (!Array.isArray(items) || items.length === 0) return refuse(question, `expected one or more of ${(question.options ?? []).join(', ')}`)
  return [...new Set(items.map((item) => option(question, item)))]
}

function number(question: SurveyQuestion, raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > NUMBER_MAX) {
    return refuse(question, `expected a whole number from 0 to ${NUMBER_MAX}`)
  }
  return raw
}

/** The answer in its stored form, or survey_answer_invalid naming the question and the reason. */
export function checkedAnswer(question: SurveyQuestion, raw: unknown): SurveyAnswer {
  switch (question.kind) {
    case 'text':
      return text(question, raw)
    case 'list':
      return list(question, raw)
    case 'choice':
      return option(question, raw)
    case 'multi_choice':
      return options(question, raw)
    case 'number':
      return number(question, raw)
  }
}

/** Whether two stored answers are the same (an answer given again records nothing). */
export function sameAnswer(a: SurveyAnswer | undefined, b: SurveyAnswer): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => item === b[i])
  return a === b
}
