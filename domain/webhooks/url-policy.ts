import ipaddr from 'ipaddr.js'
import { DomainError } from '../shared/errors.js'
import { embeddedIPv4 } from './embedded-ipv4.js'

/**
 * Where a webhook may point (spec Events, rule 5): https only (http for localhost), and never at an address
 * in a private, loopback, link-local, CGNAT, multicast, unspecified, reserved or otherwise non-public range —
 * whether the URL names it literally (in any IPv4 form: decimal, octal, hex, shortened; or IPv4-mapped,
 * NAT64, 6to4 IPv6) or a name resolves to it. Pure: the caller resolves names and asks `refusalOfAddress`
 * for every address, at registration and again when it connects (DNS can change in between).
 *
 * `WEBHOOK_ALLOWED_HOSTS` lets an operator allow specific destinations (a host name, an address, or a
 * CIDR), for development and tests (127.0.0.1) or an internal receiver they trust; http is then allowed too.
 */
export interface AllowList {
  readonly hosts: readonly string[]
  readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][]
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: [], ranges: [] }

/** Parses WEBHOOK_ALLOWED_HOSTS (comma-separated hosts, addresses or CIDRs); null when an entry is malformed. */
export function parseAllowList(text: string): AllowList | null {
  const hosts: string[] = []
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = []
  for (const raw of text
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '')) {
    if (raw.includes('/')) {
      try {
        ranges.push(ipaddr.parseCIDR(raw))
      } catch {
        return null
      }
    } else if (ipaddr.isValid(raw.replace(/^\[|\]$/g, ''))) {
      const address = ipaddr.parse(raw.replace(/^\[|\]$/g, ''))
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128])
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(raw)) {
      hosts.push(raw)
    } else {
      return null
    }
  }
  return { hosts, ranges }
}

function allowedAddress(address: ipaddr.IPv4 | ipaddr.IPv6, allow: AllowList): boolean {
  return allow.ranges.some(([range, bits]) => {
    if (range.kind() === address.kind()) return address.match(range, bits)
    // 127.0.0.1 allowed also allows ::ffff:127.0.0.1 (a form a socket delivers to the same address).
    const embedded = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : null
    return embedded?.transparent && embedded.ipv4.match(range, bits)
  })
}

/**
 * Why connecting to this address is refused, or null when it is allowed: only globally routable unicast
 * addresses are, plus the allow-list. An IPv6 address that carries an IPv4 address (mapped, compatible,
 * NAT64, 6to4: embedded-ipv4.ts) is judged as that IPv4 address first. This is the one rule for URLs at
 * registration and for every address at connect time (commands/network/safe-lookup.ts).
 * Never throws (an unparsable address is refused).
 */
export function refusalOfAddress(text: string, allow: AllowList): string | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6
  try {
    address = ipaddr.parse(text.replace(/^\[|\]$/g, ''))
  } catch {
    return `${text} is not an IP address`
  }
  if (allowedAddress(address, allow)) return null
  const embedded = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : null
  if (embedded !== null) {
    const ipv4Range = embedded.ipv4.range()
    if (ipv4Range !== 'unicast') return `${text} carries IPv4 ${embedded.ipv4}: ${embedded.ipv4} is in a ${ipv4Range} range`
    if (embedded.transparent) return null
  }
  const range = address.range()
  return range === 'unicast' ? null : `${text} is in a ${range} range`
}

/** Names that are local by definition (RFC 6761, RFC 8375, cloud metadata), refused without asking DNS. */
const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'home.arpa',
  'in-addr.arpa',
  'ip6.arpa',
]

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

export interface CheckedUrl {
  /** The URL as the service will call it (normalized by the WHATWG parser). */
  readonly url: string
  /** The host without brackets, lower case, without a trailing dot. */
  readonly host: string
  /** The host is an IP address (no DNS involved), in canonical form. */
  readonly literal: boolean
}

const refuse = (detail: string) => new DomainError('webhook_url_refused', 'The webhook URL is not allowed', detail)

/**
 * Parses and checks a webhook URL without DNS. Throws webhook_url_refused naming the reason. A literal
 * address is judged here once and for all; a name must still be resolved and each address judged.
 */
export function checkWebhookUrl(text: string, allow: AllowList): CheckedUrl {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw refuse('not an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`scheme ${url.protocol.replace(/:$/, '')}: use https`)
  // Credentials in the URL would be shown in every listing and sent to wherever the URL points.
  if (url.username !== '' || url.password !== '')
    throw refuse('user:password@ in the URL is not allowed; authenticate with the signature instead')
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (host === '') throw refuse('no host')
  const literal = ipaddr.isValid(host) && (host.includes(':') || /^[0-9.]+$/.test(host))
  const allowedName = !literal && allow.hosts.includes(host)
  if (literal) {
    const reason = refusalOfAddress(host, allow)
    if (reason !== null) throw refuse(reason)
  } else if (!allowedName) {
    if (isLocalhostName(host)) throw refuse(`${host} is a loopback name`)
    if (!host.includes('.')) throw refuse(`${host} is a single-label (local) name`)
    const suffix = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`))
    if (suffix) throw refuse(`.${suffix} names are local`)
  }
  const allowed = allowedName || (literal && allowedAddress(ipaddr.parse(host), allow))
  // http only for localhost (which reaches here only when allowed) or a destination the operator allowed.
  if (url.protocol === 'http:' && !allowed) throw refuse('http is only allowed for localhost: use https')
  if (url.port === '0') throw refuse('port 0')
  url.hash = ''
  return { url: url.toString(), host, literal }
}

/** Whether a host name is on the allow-list by name (its addresses are then not judged). */
export const hostAllowedByName = (host: string, allow: AllowList) => allow.hosts.includes(host.replace(/\.$/, '').toLowerCase())
