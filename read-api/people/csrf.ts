import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sha256 } from '../../commands/people.js'
import { parseCookies, serializeCookie } from './cookies.js'
import { sessionTokenOf } from './session.js'
import { secureCookies, type PeopleSettings } from './settings.js'

/**
 * CSRF protection for every form: a signed double-submit token bound to the session. The browser holds a
 * random `rr_csrf` cookie (HttpOnly, SameSite=Lax); each form carries `csrf` = HMAC-SHA256(key, cookie |
 * session digest), the key derived from the service key. A POST is refused unless the field matches what the
 * request's own cookies give: a page of another site can neither read the cookie nor compute the MAC, and a
 * token from before sign-in (or of another session) does not fit after it.
 */
export const CSRF_FIELD = 'csrf'
const cookieName = (settings: PeopleSettings) => (secureCookies(settings) ? '__Host-rr_csrf' : 'rr_csrf')

const macKey = (settings: PeopleSettings) => createHmac('sha256', settings.serviceKey.key).update('rankrelay csrf v1').digest()

function expectedToken(settings: PeopleSettings, cookie: string, request: FastifyRequest): string {
  const session = sessionTokenOf(request)
  return createHmac('sha256', macKey(settings))
    .update(`${cookie}|${session === null ? '' : sha256(session)}`)
    .digest('base64url')
}

/** The token for a form on this response; sets the cookie when the browser has none yet. */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, settings: PeopleSettings): string {
  let cookie = parseCookies(request.headers.cookie).get(cookieName(settings))
  if (!cookie || !/^[A-Za-z0-9_-]{32,64}$/.test(cookie)) {
    cookie = randomBytes(32).toString('base64url')
    reply.header('Set-Cookie', serializeCookie(cookieName(settings), cookie, { secure: secureCookies(settings) }))
  }
  return expectedToken(settings, cookie, request)
}

/** True when the POSTed form carries the token its cookies call for. */
export function csrfValid(request: FastifyRequest, settings: PeopleSettings, form: Record<string, unknown>): boolean {
  const cookie = parseCookies(request.headers.cookie).get(cookieName(settings))
  const given = form[CSRF_FIELD]
  if (!cookie || typeof given !== 'string') return false
  const expected = Buffer.from(expectedToken(settings, cookie, request))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
