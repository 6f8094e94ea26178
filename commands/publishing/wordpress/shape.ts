import type { z } from 'zod'
import { WordPressError } from './errors.js'
import type { ExchangeResult } from './request.js'

/** An answer parsed through its wire shape (types.ts); anything else is `invalid_response`, naming the first mismatch. */
export function shaped<S extends z.ZodType>(schema: S, answer: ExchangeResult): z.output<S> {
  return shapedValue(schema, answer.json, answer)
}

export function shapedValue<S extends z.ZodType>(schema: S, value: unknown, answer: ExchangeResult): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw wrongShape(answer, `${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? 'unexpected'}`)
}

export const wrongShape = (answer: ExchangeResult, detail: string) =>
  new WordPressError('invalid_response', `${new URL(answer.url).pathname}: not what the REST API sends (${detail})`, answer.status)

/** A REST call of one client (client.ts builds it: root, credentials, bounds). */
/** The options of one REST call: query parameters, a JSON body, whether repeating it is harmless (default: GET only). */
export interface CallOptions {
  readonly query?: Record<string, string | number | undefined>
  readonly body?: unknown
  readonly idempotent?: boolean
}

export type Call = (method: 'GET' | 'POST' | 'DELETE', route: string, options?: CallOptions) => Promise<ExchangeResult>
