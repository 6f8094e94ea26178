import net from 'node:net'
import ipaddr from 'ipaddr.js'
import { hostAllowedByName, refusalOfAddress, type AllowList } from '../../../domain/webhooks/url-policy.js'
import { WordPressError } from './errors.js'

/**
 * Where the client may send a request: the site's base URL and every redirect hop pass this before any
 * connection. http(s) only, no `user:password@` (it would travel to wherever the URL points, and show in
 * listings); https unless the operator allowed the host explicitly (SITE_ALLOWED_HOSTS names it, or its
 * literal address is in an allowed range): an application password sent over plain http is readable by
 * anyone on the path, so plain http is only for sites the operator vouches for (a local development site,
 * tests). A literal address is judged here (it never reaches the lookup); a name is judged at connect time by
 * the policy-checked lookup (commands/network/safe-lookup.ts), address by address.
 */
export function checkSiteUrl(text: string, allow: AllowList): URL {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    // Not repeated: an unparsable address may still carry a password someone pasted into it.
    throw blocked('not an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw blocked(`scheme ${url.protocol.replace(/:$/, '')}: use https`)
  if (url.username !== '' || url.password !== '')
    throw blocked('user:password@ in the address is not allowed: give the username and application password separately')
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (host === '') throw blocked('no host')
  if (url.port === '0') throw blocked('port 0')
  const literal = net.isIP(host) !== 0
  if (literal) {
    const reason = refusalOfAddress(host, allow)
    if (reason !== null) throw blocked(`${reason} (SITE_ALLOWED_HOSTS can allow it)`)
  }
  if (url.protocol === 'http:' && !explicitlyAllowed(host, literal, allow))
    throw blocked(`http is only allowed for a host SITE_ALLOWED_HOSTS lists: use https for ${host}`)
  return url
}

/** The REST API's root for a base URL: `<base>/wp-json/` (pretty permalinks; WordPress's default since 4.4 installs). */
export function restRootOf(baseUrl: string, allow: AllowList): URL {
  const url = checkSiteUrl(baseUrl, allow)
  url.search = ''
  url.hash = ''
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/wp-json/`
  return url
}

function explicitlyAllowed(host: string, literal: boolean, allow: AllowList): boolean {
  if (!literal) return hostAllowedByName(host, allow)
  const address = ipaddr.parse(host)
  return allow.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))
}

const blocked = (detail: string) => new WordPressError('blocked', `refused by the address policy: ${detail}`)
