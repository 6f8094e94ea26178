import type { DocsContext } from './context.js'

/** RFC 9116 recommends Expires less than a year ahead; computed per request so the file never goes stale. */
export const SECURITY_TXT_VALID_DAYS = 180

/** GET /.well-known/security.txt (RFC 9116). */
export function securityTxt(ctx: DocsContext): string {
  const expires = new Date(ctx.now.getTime() + SECURITY_TXT_VALID_DAYS * 86_400_000)
  expires.setUTCMilliseconds(0)
  return [
    `Contact: ${ctx.securityContact}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    'Preferred-Languages: en',
    `Canonical: ${ctx.baseUrl}/.well-known/security.txt`,
    `Policy: ${ctx.baseUrl}/developers.md#security`,
    '',
  ].join('\n')
}
