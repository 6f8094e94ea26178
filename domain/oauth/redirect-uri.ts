/**
 * Redirect URIs of public clients (spec: "https or loopback redirect URIs"; RFC 6749 section 3.1.2, RFC 8252
 * sections 7.3 and 8.3, OAuth 2.1 section 2.3.1). Pure: WHATWG URL parsing only.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export type RedirectUriProblem = 'not_absolute' | 'fragment' | 'credentials' | 'scheme' | 'too_long'

export interface RedirectUriVerdict {
  readonly ok: boolean
  readonly problem?: RedirectUriProblem
  readonly reason?: string
}

function parse(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)

/**
 * Whether a client may register this redirect URI: an absolute https URL, or http on a loopback host (a
 * native app's local listener). Never a fragment (the code must not leak into one), never user:password@,
 * never another scheme (no custom schemes, no javascript:, no data:).
 */
export function checkRedirectUri(text: string): RedirectUriVerdict {
  if (text.length > 2000) return { ok: false, problem: 'too_long', reason: 'longer than 2000 characters' }
  const url = parse(text)
  if (!url || !url.host) return { ok: false, problem: 'not_absolute', reason: 'not an absolute URL' }
  if (text.includes('#')) return { ok: false, problem: 'fragment', reason: 'a redirect URI must not have a fragment' }
  if (url.username || url.password) return { ok: false, problem: 'credentials', reason: 'a redirect URI must not carry credentials' }
  if (url.protocol === 'https:') return { ok: true }
  if (isLoopbackHttp(url)) return { ok: true }
  return {
    ok: false,
    problem: 'scheme',
    reason: url.protocol === 'http:' ? 'http is allowed only on a loopback host (127.0.0.1, [::1], localhost)' : `the scheme ${url.protocol} is not allowed (https, or http on loopback)`,
  }
}

/**
 * Whether a redirect_uri presented at /oauth/authorize (or /oauth/token) is one the client registered. Exact
 * string comparison, with the one exception RFC 8252 section 7.3 makes for native apps: on an http loopback
 * URI the port may differ (the app listens on whatever port it got). Scheme, host, path and query still
 * match exactly, so a trailing slash, another path or another host is refused.
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true
  if (presented.includes('#')) return false
  const asked = parse(presented)
  if (!asked || !isLoopbackHttp(asked) || asked.username || asked.password) return false
  const withoutPort = (url: URL) => {
    const copy = new URL(url.href)
    copy.port = ''
    return copy.href
  }
  return registered.some((text) => {
    const known = parse(text)
    // The presented URI must be written as the registered one is apart from the port: compare the raw
    // strings with the port removed too, so that URL normalization cannot make two different strings equal.
    return known !== null && isLoopbackHttp(known) && withoutPort(known) === withoutPort(asked) && stripPort(text) === stripPort(presented)
  })
}

/** The URI text with an explicit `:port` after the authority removed. */
function stripPort(text: string): string {
  return text.replace(/^(http:\/\/(?:\[[^\]]*\]|[^/:?#]*))(?::\d*)?/i, '$1')
}
