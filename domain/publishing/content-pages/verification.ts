import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/** verify_json's cap: a verification is a handful of checks, not a page. */
export const VERIFY_JSON_MAX_BYTES = 64 * 1024

/**
 * The verification a content page carries (verify_json): a JSON object, typically
 * `{"url": "https://…/page/", "checked_at": "2026-11-20T10:00:00Z", "checks": [{"name": "http_200", "passed": true}]}`.
 * `checks`, when present, is a list of named checks that passed or not, each with an optional detail; any
 * other key is kept as given (an agent may record what it measured).
 */
export const Verification = z
  .object({
    url: z.string().max(2000).optional(),
    checked_at: z.string().max(64).optional(),
    checks: z
      .array(z.object({ name: z.string().min(1).max(200), passed: z.boolean(), detail: z.string().max(2000).optional() }).passthrough())
      .max(200)
      .optional(),
  })
  .passthrough()
export type Verification = z.infer<typeof Verification>

function invalid(detail: string): never {
  throw new DomainError('content_page_verify_json_invalid', 'verify_json is not a valid verification', detail)
}

/** The verification verify_json holds (null for ''), or content_page_verify_json_invalid saying why not. */
export function parseVerification(text: string): Verification | null {
  if (text === '') return null
  if (new TextEncoder().encode(text).length > VERIFY_JSON_MAX_BYTES) invalid(`verify_json is over ${VERIFY_JSON_MAX_BYTES} bytes`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    invalid(`verify_json does not parse as JSON: ${(error as Error).message}`)
  }
  const parsed = Verification.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    invalid(`verify_json${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`)
  }
  return parsed.data
}
