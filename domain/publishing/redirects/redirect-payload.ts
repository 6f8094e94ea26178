import { z } from 'zod'
import { pageUrlKey } from '../../pages/url.js'
import { Id } from '../../shared/values.js'

/** The site edit operation of a redirect (execute_tier_a stages it; create_site_edit may too). */
export const REDIRECT_OPERATION = 'redirect'

export const REDIRECT_STATUS_CODES = [301, 302, 307, 308] as const
export type RedirectStatusCode = (typeof REDIRECT_STATUS_CODES)[number]

const ABSOLUTE = /^https?:\/\/[^/?#\s]+/i
const isRedirectUrl = (url: string) => ABSOLUTE.test(url) || (url.startsWith('/') && !url.startsWith('//'))

const RedirectUrl = z.string().trim().min(1).max(2000).refine(isRedirectUrl, 'expected an absolute http(s) URL or a path starting with /')

/**
 * A redirect edit's payload (JSON text): requests for `from_url` on the client's site are answered with
 * `status_code` and a Location of `to_url`. The rules (README.md beside this file):
 * - `from_url` is on the client's site: a path (`/old-page`) or an absolute URL of the site's host (`www.`
 *   ignored);
 * - `to_url` is a path of the site or any absolute http(s) URL (a redirect may leave the site);
 * - the two differ once made comparable (a path and the same page's absolute URL are the same page);
 * - `action_item_id`: the action item it carries out; `to_page_id`: the client's page it points to, when known.
 */
export const RedirectPayload = z.strictObject({
  action_item_id: Id.optional(),
  from_url: RedirectUrl,
  to_url: RedirectUrl,
  status_code: z.union(REDIRECT_STATUS_CODES.map((code) => z.literal(code)) as [z.ZodLiteral<301>, ...z.ZodLiteral<RedirectStatusCode>[]]),
  to_page_id: Id.optional(),
})
export type RedirectPayload = z.infer<typeof RedirectPayload>

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host.toLowerCase().replace(/^www\./, '')
  } catch {
    return null
  }
}

/** The URL as a key within the site: a path for the site's own URLs, the whole URL (pageUrlKey) for others. */
function siteKey(url: string, siteHost: string | null): string {
  if (!ABSOLUTE.test(url)) return pageUrlKey(url)
  const parsed = new URL(url)
  if (siteHost !== null && hostOf(url) === siteHost) return pageUrlKey(`${parsed.pathname}${parsed.search}`) || '/'
  return pageUrlKey(url)
}

/**
 * Why the payload text is not a redirect of the client whose site is `siteUrl`, or null when it is one. Pure:
 * create_site_edit and execute_tier_a ask it before staging, the built-in publisher before publishing.
 */
export function redirectPayloadProblem(text: string, siteUrl: string): string | null {
  const parsed = parseRedirectPayload(text)
  if ('problem' in parsed) return parsed.problem
  const { from_url: from, to_url: to } = parsed.payload
  const siteHost = hostOf(siteUrl)
  if (ABSOLUTE.test(from) && hostOf(from) !== siteHost) {
    return `from_url ${from} is not on the client's site (${siteHost ?? siteUrl}): a redirect is answered by the client's own site`
  }
  if (siteKey(from, siteHost) === siteKey(to, siteHost)) return 'from_url and to_url are the same page: the redirect would loop'
  return null
}

/** The payload parsed, or why it is not a redirect payload (not JSON, a field missing or wrong). */
export function parseRedirectPayload(text: string): { payload: RedirectPayload } | { problem: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { problem: 'the payload is not JSON' }
  }
  const result = RedirectPayload.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]
    return { problem: `payload.${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`.replace('payload.:', 'payload:') }
  }
  return { payload: result.data }
}
