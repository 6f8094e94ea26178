import type { FastifyReply, FastifyRequest } from 'fastify'
import { sha256 } from '../../commands/people.js'
import { RoleSchema, type Role } from '../../domain/people/roles.js'
import type { ReadDb } from '../../projections/tables.js'
import { parseCookies, serializeCookie } from './cookies.js'
import { secureCookies, type PeopleSettings } from './settings.js'

/**
 * The interface other pages (the OAuth consent page next) use to know who is signed in, and to send a person
 * to /login and back.
 *
 * A session is an opaque random token in an HttpOnly, SameSite=Lax cookie (Secure, with the `__Host-` prefix,
 * when BASE_URL is https). Only its sha256 is stored: UserSignedIn records it in the user's stream and the
 * people projector keeps `user_sessions`; UserSignedOut, OrgMemberRemoved and PasswordResetUsed end it. It
 * lasts 12 hours from sign-in (fixed, so a request never writes).
 */
export interface SignedInMember {
  readonly userId: number
  readonly orgId: number
  readonly role: Role
  readonly email: string
}

export interface SessionDeps {
  readonly read: ReadDb
  readonly clock: () => Date
  readonly people: PeopleSettings | undefined
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by buildApp: what signedInMember needs (read models, clock, cookie policy). */
    peopleSessions: SessionDeps
  }
}

export const sessionCookieName = (settings: PeopleSettings | undefined) =>
  settings && secureCookies(settings) ? '__Host-rr_session' : 'rr_session'

/** The session token the request carries, if any (not checked). */
export function sessionTokenOf(request: FastifyRequest): string | null {
  const token = parseCookies(request.headers.cookie).get(sessionCookieName(request.server.peopleSessions.people))
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null
}

/**
 * The member signed in on this request, or null: no cookie, an unknown, ended or expired session, or a member
 * removed since. Never throws for a bad cookie. Reads the read models (sign-in waits until they show a new
 * session before it redirects).
 */
export async function signedInMember(request: FastifyRequest): Promise<SignedInMember | null> {
  const deps = request.server.peopleSessions
  const token = sessionTokenOf(request)
  if (token === null) return null
  const row = await deps.read
    .selectFrom('user_sessions as s')
    .innerJoin('org_members as m', 'm.user_id', 's.user_id')
    .select(['m.user_id', 'm.org_id', 'm.role', 'm.email'])
    .where('s.session_hash', '=', sha256(token))
    .where('s.ended_at', 'is', null)
    .where('s.expires_at', '>', deps.clock())
    .where('m.status', '=', 'active')
    .executeTakeFirst()
  if (!row) return null
  return { userId: row.user_id, orgId: row.org_id, role: RoleSchema.parse(row.role), email: row.email }
}

export function setSessionCookie(reply: FastifyReply, settings: PeopleSettings, token: string | null, maxAgeSeconds: number): void {
  reply.header(
    'Set-Cookie',
    serializeCookie(sessionCookieName(settings), token ?? '', {
      secure: secureCookies(settings),
      maxAgeSeconds: token === null ? 0 : maxAgeSeconds,
    }),
  )
}

/**
 * A `return_to` that is safe to redirect to after sign-in: a relative path on this origin only. Anything
 * else (an absolute URL, `//host`, a backslash trick, control characters) is refused with null, and the
 * caller falls back to the account page.
 *
 * What is judged is the normalised path this returns, not the raw value: URL parsing resolves dot segments
 * (`.`, `..`, `%2e%2e`), so `/..//evil.example/x` becomes `//evil.example/x`, which a browser follows as a
 * scheme-relative URL to another origin. The raw checks stay as a first, cheap refusal.
 *
 * Up to RETURN_TO_MAX_LENGTH characters: an OAuth authorize URL (a state and a redirect URI of up to 2,000
 * each, a PKCE challenge, scopes) fits, and so does its percent-encoded copy in `/login?return_to=…` within
 * the 16 KiB request line Node accepts.
 */
export const RETURN_TO_MAX_LENGTH = 4096

/** A path a browser resolves against this origin: one leading '/', never '//' (scheme-relative) or a backslash (read as '/'). */
const isSameOriginPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.includes('\\')

export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_TO_MAX_LENGTH) return null
  if (!isSameOriginPath(value)) return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a cookie value with control characters is refused.
  if (/[\u0000-\u001f\u007f]/.test(value)) return null
  let parsed: URL
  try {
    parsed = new URL(value, 'http://same-origin.invalid')
  } catch {
    return null
  }
  if (parsed.origin !== 'http://same-origin.invalid') return null
  const normalised = `${parsed.pathname}${parsed.search}${parsed.hash}`
  return isSameOriginPath(normalised) ? normalised : null
}

/** Where to send a person who must sign in first: `/login?return_to=<this path>`. */
export function loginUrl(returnTo: string): string {
  const safe = safeReturnTo(returnTo)
  return safe === null ? '/login' : `/login?return_to=${encodeURIComponent(safe)}`
}

/** For a page that needs a member: the member, or null after answering with a 303 to /login (and back). */
export async function requireSignedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInMember | null> {
  const member = await signedInMember(request)
  if (member) return member
  await reply.code(303).header('Location', loginUrl(request.url)).send()
  return null
}
