import type { AeoSettings } from '../commands/aeo/settings.js'
import type { SitePublisher } from '../commands/site-edits-publisher.js'
import type { WebhookPolicy } from '../commands/webhooks.js'
import type { PeopleSettings } from './people/settings.js'
import type { SsoSettings } from './sso/settings.js'
import type { ServiceKey } from '../commands/secrets/service-key.js'
import type { WordPressSettings } from '../commands/publishing/wordpress/settings.js'

/**
 * Operator settings the read API's handlers and platform need (built by ops/config.ts). A module of its own,
 * importing only settings types, so that anything may depend on it without reaching the registry or the
 * request pipeline (which themselves depend on settings).
 */
export interface ServiceSettings {
  readonly aeo: AeoSettings
  /** The service key and URL policy of webhooks; absent: webhook writes answer service_unavailable. */
  readonly webhooks?: WebhookPolicy
  readonly rateLimits: RateLimitSettings
  /** Where apply_site_edit and rollback_site_edit publish (ops wires the built-in publisher); absent: they answer 503. */
  readonly sitePublisher?: SitePublisher
  /** Sign-in pages and member RPCs: the service key (TOTP secrets), cookie policy, reset delivery; absent: they answer 503. */
  readonly people?: PeopleSettings
  /** Single sign-on: the service key, the identity-provider address policy, BASE_URL; absent: SSO RPCs answer 503 and the pages are not served. */
  readonly sso?: SsoSettings
  /** The service key that seals credentials the service stores for later use (Search Console keys and grants). */
  readonly serviceKey?: ServiceKey
  /** KEYWORD_METRICS_MAX_AGE_DAYS: keyword metrics older than this read as stale; absent: 30, the processors' default. */
  readonly keywordMetricsMaxAgeDays?: number
  /** How the service talks to clients' WordPress sites (the connection check); absent: WordPress RPCs answer 503. */
  readonly publishing?: WordPressSettings
}

/** Operator settings for rate limits (RATE_LIMIT_PER_MINUTE). */
export interface RateLimitSettings {
  /** Requests per minute for a key without a limit of its own, and for each client address without a key. */
  readonly defaultPerMinute: number
  /** The clock windows are cut from, in epoch milliseconds (tests pin it); the system clock by default. */
  readonly now?: () => number
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = { defaultPerMinute: 600 }
