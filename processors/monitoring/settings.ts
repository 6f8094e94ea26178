import type { Resolver } from '../../commands/webhooks.js'
import { EMPTY_ALLOW_LIST, type AllowList } from '../../domain/webhooks/url-policy.js'

/**
 * How the site monitor may look at clients' sites (ops/config.ts reads them from the environment). Every
 * URL and every redirect hop is fetched through the same policy-checked connection as webhook deliveries
 * (commands/network/safe-lookup.ts): no private, loopback or link-local address unless SITE_ALLOWED_HOSTS
 * lists it.
 */
export interface MonitoringSettings {
  /** SITE_ALLOWED_HOSTS: destinations the address policy would refuse that a crawl may reach (the webhook syntax). */
  readonly allowList: AllowList
  /** How host names resolve (the system's DNS; tests map names to addresses). */
  readonly resolve?: Resolver
  /** SITE_CRAWL_MAX_PAGES: pages one scan fetches at most (sitemaps and links beyond it are left for the next). */
  readonly maxPages: number
  /** SITE_CRAWL_MAX_PAGE_BYTES: a page's body is read up to this many bytes, the rest dropped (and said). */
  readonly maxPageBytes: number
  /** SITE_CRAWL_TIMEOUT_MS: one fetch's deadline, headers and body together (a slow-loris server is cut off). */
  readonly timeoutMs: number
  /** SITE_CRAWL_HOST_CONCURRENCY: requests in flight to one host at once. */
  readonly hostConcurrency: number
  /** SITE_CRAWL_DELAY_MS: the least time between two requests to one host (robots.txt's Crawl-delay can raise it). */
  readonly delayMs: number
  /** SITE_CRAWL_USER_AGENT: the User-Agent sent, and the agent robots.txt rules are read for. */
  readonly userAgent: string
  /** SITE_SCAN_CONCURRENCY: scans this process runs at once. */
  readonly scanConcurrency: number
  /** SITE_SCAN_POLL_MS: how often the monitor looks for due scans (cadences) and queued ones. */
  readonly pollMs: number
  /** CHROMIUM_PATH: the headless Chromium render scans drive (playwright-core); null: render scans fail clearly. */
  readonly chromiumPath: string | null
  /** SITE_RENDER_MAX_PAGES: pages one render scan renders at most. */
  readonly renderMaxPages: number
}

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium'

export const DEFAULT_MONITORING_SETTINGS: MonitoringSettings = {
  allowList: EMPTY_ALLOW_LIST,
  maxPages: 500,
  maxPageBytes: 5 * 1024 * 1024,
  timeoutMs: 20_000,
  hostConcurrency: 2,
  delayMs: 250,
  userAgent: 'RankRelayBot/1.0 (site monitor)',
  scanConcurrency: 2,
  pollMs: 60_000,
  chromiumPath: DEFAULT_CHROMIUM_PATH,
  renderMaxPages: 20,
}
