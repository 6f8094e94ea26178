/**
 * Redirect URIs of public clients (spec: "https or loopback redirect URIs"; RFC 6749 section 3.1.2, RFC 8252
 * sections 7.3 and 8.3, OAuth 2.1 section 2.3.1). Pure: WHATWG URL parsing only.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export type RedirectUriProblem =
  | 'not_absolute'
  | 'fragment'
  | 'credentials'
  | 'scheme'
  | 'too_long'
  | 'whitespace'
  | 'control'
  | 'backslash'
  | 'dot_segment'
  | 'not_canonical'

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

// C0 controls, DEL and C1 controls: URL parsing strips some (TAB, CR, LF) silently, so the stored text and
// what a browser is sent to would differ.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a redirect URI must not carry.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** A `.` or `..` path segment, also percent-encoded (`%2e`), which WHATWG URL parsing resolves away. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i

/** The path of an absolute URL's text as written: after the authority, before the query or fragment. */
const rawPath = (text: string) => text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/, 1)[0]!

/**
 * Whether a client may register this redirect URI: an absolute https URL, or http on a loopback host (a
 * native app's local listener). Never a fragment (the code must not leak into one), never user:password@,
 * never another scheme (no custom schemes, no javascript:, no data:).
 *
 * And only in the one form it will be compared in: redirect URIs are matched as exact strings, while
 * browsers and other parsers read surrounding whitespace, control characters, backslashes (a '/' to WHATWG)
 * and dot segments their own way. So the text must be exactly what URL parsing gives back (`href`): no
 * upper-case host, default port, missing '/' path or unencoded character either. Each refusal names why.
 */
export function checkRedirectUri(text: string): RedirectUriVerdict {
  if (text.length > 2000) return { ok: false, problem: 'too_long', reason: 'longer than 2000 characters' }
  if (text !== text.trim()) return { ok: false, problem: 'whitespace', reason: 'a redirect URI must not begin or end with whitespace' }
  if (CONTROL.test(text))
    return { ok: false, problem: 'control', reason: 'a redirect URI must not contain control characters (CR, LF, TAB, …)' }
  if (text.includes('\\')) return { ok: false, problem: 'backslash', reason: 'a redirect URI must not contain a backslash' }
  const url = parse(text)
  if (!url?.host) return { ok: false, problem: 'not_absolute', reason: 'not an absolute URL' }
  if (text.includes('#')) return { ok: false, problem: 'fragment', reason: 'a redirect URI must not have a fragment' }
  if (url.username || url.password) return { ok: false, problem: 'credentials', reason: 'a redirect URI must not carry credentials' }
  if (
    rawPath(text)
      .split('/')
      .some((segment) => DOT_SEGMENT.test(segment))
  ) {
    return { ok: false, problem: 'dot_segment', reason: 'a redirect URI must not contain . or .. path segments' }
  }
  if (url.href !== text) {
    return { ok: false, problem: 'not_canonical', reason: `a redirect URI must be written as URL parsing gives it back: ${url.href}` }
  }
  if (url.protocol === 'https:') return { ok: true }
  if (isLoopbackHttp(url)) return { ok: true }
  return {
    ok: false,
    problem: 'scheme',
    reason:
      url.protocol === 'http:'
        ? 'http is allowed only on a loopback host (127.0.0.1, [::1], localhost)'
        : `the scheme ${url.protocol} is not allowed (https, or http on loopback)`,
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
