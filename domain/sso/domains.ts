import { z } from 'zod'

/**
 * Email domains as a provider lists them: lower case, no leading `@` or trailing dot, at least one dot.
 * An email matches a listed domain exactly (sub-domains are listed on their own: `eu.acme.com` is not
 * `acme.com`, so an owner never admits more than they typed).
 */
export const normalizeDomain = (text: string) => text.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '')

export const EmailDomainSchema = z
  .string()
  .transform(normalizeDomain)
  .pipe(
    z
      .string()
      .min(3)
      .max(253)
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, 'expected a domain such as acme.com'),
  )

/** The domain part of an (already normalized) email; null when there is none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at <= 0 || at === email.length - 1) return null
  return normalizeDomain(email.slice(at + 1))
}
