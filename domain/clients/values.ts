import { z } from 'zod'

export const CLIENT_STATUSES = ['active', 'paused', 'deleted', 'staging'] as const
export type ClientStatus = (typeof CLIENT_STATUSES)[number]
export const ClientStatus = z
  .enum(CLIENT_STATUSES)
  .describe('active (tracked and billed), paused, staging (being set up, not yet live) or deleted (restorable by setting it active)')

export const MAX_SLUG_LENGTH = 100

/** Lower-case letters, digits and single hyphens; empty means "no slug". */
export const Slug = z
  .string()
  .trim()
  .max(MAX_SLUG_LENGTH)
  .regex(/^([a-z0-9]+(-[a-z0-9]+)*)?$/, 'a slug is lower-case letters, digits and single hyphens')
  .describe('A URL slug: lower-case letters, digits and single hyphens, at most 100 characters (e.g. acme-plumbing); empty: none')

/** An absolute http(s) URL, normalized without a trailing slash on the bare origin. */
export const WebsiteUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value)
      const labels = url.hostname.split('.')
      return (url.protocol === 'http:' || url.protocol === 'https:') && labels.length >= 2 && labels.every((l) => l.length > 0)
    } catch {
      return false
    }
  }, 'expected an absolute http(s) URL such as https://example.com')
  // One form per site: "https://example.com/" and "https://example.com" are the same website.
  .transform((value) => {
    const url = new URL(value)
    return url.pathname === '/' && !url.search && !url.hash ? `${url.protocol}//${url.host}` : value
  })
  .describe('The website, an absolute http(s) URL such as https://acmeplumbing.com (at most 2000 characters)')

/** Setting keys are identifiers; values are text (settings such as `attention_flag` are free text). */
export const SettingKey = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9_.-]+$/, 'letters, digits, _ . -')
  .describe('A setting key: 1 to 100 letters, digits, _ . or - (e.g. attention_flag)')
export const SettingValue = z.string().max(10_000).describe('A setting value: text, at most 10,000 characters')

/**
 * A client's settings as one object of key to text (add_client's `settings`). Not `z.record`: zod builds a
 * record's output by assignment, and assigning `__proto__` sets the prototype instead of a key, so that one
 * key vanished silently while set_client_setting stored it. The object is read as a Map (whose keys are
 * only keys), validated key by key with the same SettingKey and SettingValue as set_client_setting, and
 * turned back into an object by Object.fromEntries, which defines own keys. `__proto__`, `constructor` and
 * `prototype` are therefore ordinary keys on both paths. Documented as the record it is.
 */
const SettingsRecord = z.record(SettingKey, SettingValue)
const { $schema: _dialect, ...settingsJsonSchema } = z.toJSONSchema(SettingsRecord, { io: 'input' })
export const Settings = z
  .preprocess(
    (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? new Map(Object.entries(value)) : value),
    z.map(SettingKey, SettingValue, { error: 'expected an object of setting key to text value' }),
  )
  .transform((settings): Record<string, string> => Object.fromEntries(settings))
  .meta(settingsJsonSchema)

/** Case- and whitespace-insensitive identity of a service or location name within one client. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ')
}

/** "Austin, TX" from its parts when no display name is given. */
export function locationDisplayName(parts: { name?: string | undefined; city?: string; state?: string; country?: string }): string {
  if (parts.name?.trim()) return parts.name.trim()
  return [parts.city, parts.state, parts.country]
    .map((p) => (p ?? '').trim())
    .filter((p) => p.length > 0)
    .join(', ')
}

/** "Austin, TX" or "Austin, TX, US" into its parts; a name without commas is a city. */
export function parseLocationName(name: string): { name: string; city: string; state: string; country: string } {
  const [city = '', state = '', country = ''] = name.split(',').map((part) => part.trim())
  return { name: name.trim(), city, state, country }
}

export interface StatusTimes {
  /** When the client stopped being active; null while active. */
  readonly deactivatedAt: string | null
  /** When it was deleted; null unless deleted. */
  readonly deletedAt: string | null
}

/** The one rule for a client's status timestamps, used by the projection and by point-in-time reads. */
export function nextStatusTimes(current: StatusTimes, from: ClientStatus | null, to: ClientStatus, at: string): StatusTimes {
  return {
    deactivatedAt: to === 'active' ? null : from === 'active' || from === null ? at : (current.deactivatedAt ?? at),
    deletedAt: to === 'deleted' ? at : null,
  }
}
