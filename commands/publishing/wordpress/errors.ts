import type { PushFailureCategory } from '../../../domain/publishing/push-failures/categories.js'

/**
 * Every failure of a WordPress request, classified into the push failure categories
 * (domain/publishing/push-failures/categories.ts). `status` is the site's HTTP status, null when none came
 * (timeout, network, policy); `code` is WordPress's own error code when it sent one (`incorrect_password`,
 * `rest_post_invalid_id`, ...). The message is for an operator: never the password or the Authorization
 * header (the client scrubs them from anything a site echoes back).
 */
export class WordPressError extends Error {
  readonly category: PushFailureCategory
  readonly status: number | null
  readonly code: string | null

  constructor(category: PushFailureCategory, message: string, status: number | null = null, code: string | null = null) {
    super(message)
    this.name = 'WordPressError'
    this.category = category
    this.status = status
    this.code = code
  }
}

/** The category of an HTTP error status (a 2xx/3xx never reaches here). */
export function categoryOfStatus(status: number): PushFailureCategory {
  if (status === 401 || status === 403) return 'auth'
  if (status === 404 || status === 410) return 'not_found'
  if (status === 409 || status === 412) return 'conflict'
  if (status >= 500) return 'server_error'
  return 'rejected'
}

/** WordPress's error body: `{ code, message, data: { status } }` (WP_Error through rest_convert_error_to_response). */
export interface WordPressErrorBody {
  readonly code: string | null
  readonly message: string | null
}

export function errorBodyOf(json: unknown): WordPressErrorBody {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { code: null, message: null }
  const { code, message } = json as { code?: unknown; message?: unknown }
  return {
    code: typeof code === 'string' ? code.slice(0, 100) : null,
    message: typeof message === 'string' ? stripTags(message).slice(0, 500) : null,
  }
}

const HINTS: Readonly<Record<string, string>> = {
  incorrect_password: 'the application password is wrong or was revoked: create a new one under Users → Profile',
  invalid_username: 'no such user on the site',
  rest_not_logged_in:
    'the site did not see the credentials: its server may drop the Authorization header (a known Apache/CGI setting), or application passwords are off',
  application_passwords_disabled: 'application passwords are turned off on the site (a security plugin or WP_ENVIRONMENT_TYPE)',
  rest_cannot_edit: 'the user may not edit this content: use an Editor or Administrator',
  rest_cannot_create: 'the user may not create this content: use an Editor or Administrator',
  rest_no_route: 'the site has no such REST route (a plugin the request needs is inactive, or the REST API is restricted)',
}

/** The error of a non-2xx answer: the category from the status, WordPress's code and message when sent. */
export function httpError(status: number, body: WordPressErrorBody, what: string, html: boolean): WordPressError {
  const category = categoryOfStatus(status)
  const parts = [`${what} answered HTTP ${status}`]
  if (body.code) parts.push(body.code)
  if (body.message) parts.push(body.message)
  else if (html) parts.push('an HTML page, not the REST API')
  const hint = body.code ? HINTS[body.code] : undefined
  const message = parts.join(': ') + (hint ? ` (${hint})` : '')
  return new WordPressError(category, message, status, body.code)
}

const stripTags = (text: string) => text.replace(/<[^>]*>/g, '').trim()
