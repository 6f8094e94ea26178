import type { CrawlOptions, CrawlResult } from './types.js'

export type { CrawlFailureCode, CrawlOptions, CrawlResult, CrawlValidators } from './types.js'

/**
 * Crawls one client's site (the engine: fetches and extracts, records nothing; the scan processor records
 * what it yields). An async generator so the consumer controls memory: nothing is fetched ahead of what the
 * consumer pulls beyond the fetches in flight.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<CrawlResult> {
  // The engine lands in the next commit; this first one fixes the types the scan processor codes against.
  yield* []
  void options
}
