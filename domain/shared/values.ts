import { z } from 'zod'

/** The integer ids the API shows (PostgreSQL sequences, one per kind). */
export const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)

/** `YYYY-MM`. */
export const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month as YYYY-MM')
  .describe('A calendar month as YYYY-MM (UTC)')

/** Trimmed, non-empty, bounded text for names and labels. */
export const Name = z.string().trim().min(1, 'must not be empty').max(200)

/** U+0000, or a UTF-16 surrogate without its partner (a high one not followed by a low one, or a low one alone). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character PostgreSQL cannot store.
const UNACCEPTABLE_CHAR = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * The one rule for every text the API takes (parameters at any depth, object keys, /api/v1/db filters): why
 * the text is refused, or null when it is fine. U+0000 cannot be stored in PostgreSQL's text or jsonb, and an
 * unpaired surrogate is not Unicode (it has no UTF-8 form and jsonb refuses its escape); either would
 * otherwise fail deep inside a write as a 500 instead of as the caller's 400.
 */
export function unacceptableTextReason(text: string): string | null {
  const match = UNACCEPTABLE_CHAR.exec(text)
  if (match === null) return null
  return match[0] === '\u0000'
    ? `contains U+0000 (NUL) at character ${match.index}, which text cannot hold`
    : `contains an unpaired UTF-16 surrogate at character ${match.index}, which is not Unicode text`
}

/** The exhaustiveness guard: a command or event case left unhandled fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`)
}
