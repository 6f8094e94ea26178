import { systemResolver } from '../../commands/webhooks.js'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { crawl, type CrawlOptions, type CrawlResult } from '../../processors/monitoring/scans/crawler/crawl.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'

/** The crawl engine tests' settings: the test site on 127.0.0.1 allowed, no politeness delay, small bounds. */
export const settings = (overrides: Partial<CrawlOptions['settings']> = {}): CrawlOptions['settings'] => ({
  ...DEFAULT_MONITORING_SETTINGS,
  allowList: parseAllowList('127.0.0.1')!,
  resolve: systemResolver,
  delayMs: 0,
  timeoutMs: 3000,
  maxPages: 100,
  ...overrides,
})

/** Every result of one crawl, in order. */
export async function collect(options: CrawlOptions): Promise<CrawlResult[]> {
  const results: CrawlResult[] = []
  for await (const result of crawl(options)) results.push(result)
  return results
}

/** The results about one URL (sitemap reads left out). */
export const byUrl = (results: CrawlResult[], url: string) => results.filter((r) => r.kind !== 'sitemap' && r.url === url)
