import ipaddr from 'ipaddr.js'

/**
 * The IPv4 address an IPv6 address carries, in every form that embeds one, or null. The URL policy judges
 * an IPv6 address by the IPv4 address inside it first, because a socket (or a relay) may deliver to that
 * IPv4 address: `https://[::127.0.0.1]/` reaches the WHATWG parser as `[::7f00:1]`, which ipaddr.js calls
 * plain unicast (it has no range for ::/96), so without this rule it passed as a public address.
 *
 * - `transparent` forms are the IPv4 address for a socket (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96):
 *   they are judged as that IPv4 address and nothing else.
 * - the other forms (IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) lead to the IPv4
 *   address through a translator: the IPv4 address is judged, and the IPv6 range is judged too.
 *
 * :: and ::1 are not IPv4-compatible addresses (RFC 4291 2.5.5.1): they are IPv6's unspecified and loopback.
 * Pure; never throws.
 */
export interface EmbeddedIPv4 {
  readonly ipv4: ipaddr.IPv4
  readonly transparent: boolean
}

const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

export function embeddedIPv4(address: ipaddr.IPv6): EmbeddedIPv4 | null {
  const p = address.parts
  const zeros = (from: number, to: number) => p.slice(from, to).every((word) => word === 0)
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible), except :: and ::1.
  if (zeros(0, 5) && p[5] === 0xffff) return { ipv4: fromWords(p[6]!, p[7]!), transparent: true }
  if (zeros(0, 6) && !(p[6] === 0 && (p[7] === 0 || p[7] === 1))) return { ipv4: fromWords(p[6]!, p[7]!), transparent: true }
  // ::ffff:0:a.b.c.d (RFC 6145 translated) and 64:ff9b::a.b.c.d (RFC 6052 well-known NAT64 prefix).
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return { ipv4: fromWords(p[6]!, p[7]!), transparent: false }
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return { ipv4: fromWords(p[6]!, p[7]!), transparent: false }
  // 2002:AABB:CCDD::/48 (6to4, RFC 3056): the IPv4 address is bits 16 to 48.
  if (p[0] === 0x2002) return { ipv4: fromWords(p[1]!, p[2]!), transparent: false }
  return null
}
