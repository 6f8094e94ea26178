import { z } from 'zod'

/** The integer ids the API shows (PostgreSQL sequences, one per kind). */
export const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)

/** `YYYY-MM`. */
export const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month as YYYY-MM')

/** Trimmed, non-empty, bounded text for names and labels. */
export const Name = z.string().trim().min(1, 'must not be empty').max(200)

/** The exhaustiveness guard: a command or event case left unhandled fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`)
}
