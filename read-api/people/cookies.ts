/** Just enough of RFC 6265 for the sign-in cookies: read the Cookie header, write one Set-Cookie. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    // The first one wins, as browsers send the most specific path first.
    if (!cookies.has(name)) cookies.set(name, value)
  }
  return cookies
}

export interface CookieOptions {
  readonly maxAgeSeconds?: number
  readonly secure: boolean
  /**
   * Lax unless said otherwise. None only for a cookie that must come back on a cross-site POST (the SAML
   * browser binding: the IdP posts to the ACS); browsers take None only with Secure, so it is Lax without.
   */
  readonly sameSite?: 'Lax' | 'None'
}

/** HttpOnly, Path=/ always; SameSite=Lax unless None is asked for over https; Secure when served over https. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const sameSite = options.sameSite === 'None' && options.secure ? 'None' : 'Lax'
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', `SameSite=${sameSite}`]
  if (options.secure) parts.push('Secure')
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`)
  return parts.join('; ')
}
