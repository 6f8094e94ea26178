import { EMPTY_ALLOW_LIST, type AllowList } from '../../../domain/webhooks/url-policy.js'
import { systemResolver, type Resolver } from '../../webhooks.js'

/**
 * How the service may talk to clients' WordPress sites (ops/config.ts reads them from the environment). The
 * allow list is the site monitor's (SITE_ALLOWED_HOSTS): one operator decision about which private addresses
 * "a client's site" may have, whether it is crawled or written to.
 */
export interface WordPressSettings {
  /** SITE_ALLOWED_HOSTS: addresses the policy would refuse that a site may have; a host on it may also use http. */
  readonly allowList: AllowList
  /** How host names resolve (the system's DNS; tests map names to addresses). */
  readonly resolve: Resolver
  /** WORDPRESS_TIMEOUT_MS: one attempt's deadline, headers and body together. */
  readonly timeoutMs: number
  /** WORDPRESS_MAX_RESPONSE_BYTES: an answer longer than this is refused (invalid_response) and not read further. */
  readonly maxResponseBytes: number
  /** WORDPRESS_MAX_ATTEMPTS: attempts of one request when the site fails transiently (5xx, timeout, network). */
  readonly maxAttempts: number
  /** The User-Agent sent with every request. */
  readonly userAgent: string
  /** The first retry waits about this long (doubling, with jitter); default 500 ms. Tests make it small. */
  readonly backoffBaseMs?: number
  /** Requests in flight to one site at once, across every client in this process; default 2. */
  readonly maxInFlightPerSite?: number
}

export const DEFAULT_WORDPRESS_TIMEOUT_MS = 15_000
export const DEFAULT_WORDPRESS_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
export const DEFAULT_WORDPRESS_MAX_ATTEMPTS = 3
export const DEFAULT_WORDPRESS_BACKOFF_BASE_MS = 500
export const DEFAULT_WORDPRESS_MAX_IN_FLIGHT_PER_SITE = 2

export const DEFAULT_WORDPRESS_SETTINGS: WordPressSettings = {
  allowList: EMPTY_ALLOW_LIST,
  resolve: systemResolver,
  timeoutMs: DEFAULT_WORDPRESS_TIMEOUT_MS,
  maxResponseBytes: DEFAULT_WORDPRESS_MAX_RESPONSE_BYTES,
  maxAttempts: DEFAULT_WORDPRESS_MAX_ATTEMPTS,
  userAgent: 'RankRelay/1.0 (WordPress publisher)',
}

/** The credentials of one site: an application password (Users → Profile → Application Passwords), never the login password. */
export interface WordPressCredentials {
  /** The site's address as a visitor types it, e.g. https://example.com or https://example.com/blog. */
  readonly baseUrl: string
  readonly username: string
  /** As WordPress shows it ("abcd efgh ijkl mnop qrst uvwx"); the spaces are dropped when sent. */
  readonly applicationPassword: string
}
