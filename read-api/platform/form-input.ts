import type { FastifyInstance, FastifyRequest } from 'fastify'
import { findJsonProblem } from '../../domain/shared/json-limits.js'
import { ApiError } from '../errors.js'
import { describeJsonProblem } from './json-body.js'

/**
 * A field given more than once: 'first' keeps the first value (the sign-in pages), 'all' keeps every value as
 * an array, so the OAuth endpoints can refuse a repeated parameter (RFC 6749 section 3.1).
 */
export type RepeatedFields = 'first' | 'all'

export type Form = Record<string, string | string[]>

/** An application/x-www-form-urlencoded body as fields. Never throws. */
export function parseFormBody(text: string, repeated: RepeatedFields): Form {
  const form: Form = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = form[key]
    if (seen === undefined) form[key] = value
    else if (repeated === 'all') form[key] = Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return form
}

/** validation_failed naming the first field (or key) of the query string or the form that holds refused text. */
function refuseUnacceptableText(request: FastifyRequest): void {
  const inQuery = findJsonProblem(request.query)
  if (inQuery !== null) throw new ApiError('validation_failed', `in the query string, ${describeJsonProblem(inQuery)}`)
  const inBody = findJsonProblem(request.body)
  if (inBody !== null) throw new ApiError('validation_failed', describeJsonProblem(inBody))
}

/**
 * The input of a scope of browser pages or OAuth endpoints (the API itself takes JSON only, read-api/app.ts):
 * form bodies up to `bodyLimit` bytes, and the text rule of JSON bodies (domain/shared/values.ts) for every
 * form field and query parameter, keys included. A NUL would otherwise reach a handler, and PostgreSQL, as a
 * 500 (or be stored: a password of an accepted invite). The refusal is a 400 validation_failed before any
 * handler runs (after the rate limits, which count it); a scope with its own error shape (OAuth) maps it in
 * its error handler.
 */
export function acceptForms(scope: FastifyInstance, options: { readonly bodyLimit: number; readonly repeated: RepeatedFields }): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: options.bodyLimit },
    (_request, body, done) => {
      done(null, parseFormBody(typeof body === 'string' ? body : body.toString('utf8'), options.repeated))
    },
  )
  scope.addHook('preValidation', async (request) => refuseUnacceptableText(request))
}
