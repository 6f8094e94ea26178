import { z } from 'zod'

/**
 * White-label branding an organization's reports carry: a display name, a logo URL and an accent color.
 * Validated strictly because the values end up inside HTML and CSS: the accent is exactly `#rrggbb`
 * (lower-cased), the logo an absolute https URL without credentials.
 */
export const AccentColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'expected a color as #rrggbb')
  .transform((value) => value.toLowerCase())

export const LogoUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'https:' && url.hostname.includes('.') && url.username === '' && url.password === ''
    } catch {
      return false
    }
  }, 'expected an absolute https URL such as https://example.com/logo.png')

/** The branding as stored; null means "not set" (reports then use the organization's name and defaults). */
export interface Branding {
  readonly name: string | null
  readonly logo_url: string | null
  readonly accent_color: string | null
}

export const NO_BRANDING: Branding = { name: null, logo_url: null, accent_color: null }

/** The accent a report uses when the organization set none. */
export const DEFAULT_ACCENT = '#2563eb'

/**
 * The accent a rendered report uses: the stored one, checked again as `#rrggbb` (it ends up in CSS), else the
 * default. One rule for every report page (AI Visibility, compare).
 */
export const reportAccent = (value: string | null): string =>
  value !== null && /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : DEFAULT_ACCENT
