import { createHmac } from 'node:crypto'

/**
 * The signature scheme (spec Events): `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, so any
 * standard HMAC implementation verifies it (developers.md shows Python and Node.js).
 */
export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex')
  return `t=${unixSeconds},v1=${v1}`
}
