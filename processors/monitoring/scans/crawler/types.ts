import type { Resolver } from '../../../../commands/webhooks.js'
import type { PageState } from '../../../../domain/monitoring/page-state.js'
import type { MonitoringSettings } from '../../settings.js'

/** What a crawl is asked to do (processors/monitoring/scans runs one per crawl scan). */
export interface CrawlOptions {
  /** The client's website URL: depth 0, and the site (same host, www-insensitive) the crawl stays on. */
  readonly startUrl: string
  /** The client's known active page URLs, fetched even when nothing links to them any more (so a removed page is seen gone). */
  readonly seeds: readonly string[]
  /** deps.monitoring (the bounds, the allow-list, the resolver). */
  readonly settings: MonitoringSettings & { readonly resolve: Resolver }
  /** URLs this scan already recorded (a resumed scan): not fetched again; their links (from the state) still followed. */
  readonly done?: ReadonlyMap<string, PageState | null>
  /** The last snapshot's validators per URL: sent as If-None-Match / If-Modified-Since; a 304 yields `not_modified`. */
  readonly validators?: ReadonlyMap<string, CrawlValidators>
  /** Aborting it stops the crawl between pages and aborts the fetches in flight. */
  readonly signal?: AbortSignal
}

export interface CrawlValidators {
  readonly etag: string | null
  readonly lastModified: string | null
  /** Optional: the last snapshot's internal links, followed when the page answers 304 (its body, and so its links, are not sent again). */
  readonly internalLinks?: readonly string[]
}

/**
 * One thing the crawl saw, in the order it saw them. `depth` is the number of clicks from the start URL along
 * the links the crawl followed; -1 for a page it reached only through a sitemap or the seeds (an orphan, or a
 * page linked only from such a page). `inSitemap`: the URL was listed in a sitemap read by this crawl.
 */
export type CrawlResult =
  /** A fetched page, whatever its HTTP status (404 and 5xx included); `state.redirects` holds each hop. */
  | {
      readonly kind: 'page'
      readonly url: string
      readonly inSitemap: boolean
      readonly depth: number
      readonly state: PageState
      readonly validators: CrawlValidators
    }
  /** The server answered 304 to a conditional request: the page is as it was. */
  | { readonly kind: 'not_modified'; readonly url: string; readonly inSitemap: boolean; readonly depth: number }
  /** Not fetched (robots: disallowed by robots.txt, or robots.txt answered 5xx; cap: beyond maxPages) or not a page (not_html: a 2xx that is not HTML). */
  | { readonly kind: 'skipped'; readonly url: string; readonly inSitemap: boolean; readonly reason: 'robots' | 'cap' | 'not_html' }
  /**
   * Could not be fetched: address_refused (the URL policy refused the address: no request was sent),
   * timeout, too_many_redirects, bad_redirect (a Location that is not http/https or not a URL),
   * connection_failed (DNS, refused or reset connection, TLS).
   */
  | {
      readonly kind: 'failed'
      readonly url: string
      readonly inSitemap: boolean
      readonly code: CrawlFailureCode
      readonly message: string
    }
  /** A sitemap read: the same-site URLs it listed (kept), whether it was cut at the cap, and why it could not be read. */
  | { readonly kind: 'sitemap'; readonly url: string; readonly urls: number; readonly truncated: boolean; readonly error: string | null }

export type CrawlFailureCode = 'address_refused' | 'timeout' | 'too_many_redirects' | 'bad_redirect' | 'connection_failed'
