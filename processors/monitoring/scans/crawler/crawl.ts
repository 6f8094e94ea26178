import type { PageState } from '../../../../domain/monitoring/page-state.js'
import { decodeBody } from './charset.js'
import { contentHash } from './content-hash.js'
import { extractPageState } from './extract.js'
import { Fetcher, readBody } from './fetch-page.js'
import { HostGate } from './host-gate.js'
import { readRobots, type RobotsRules } from './robots.js'
import { readSitemaps } from './sitemaps.js'
import type { CrawlOptions, CrawlResult, CrawlValidators } from './types.js'
import { normalizeUrl, originOf, sameSite } from './urls.js'

export type { CrawlFailureCode, CrawlOptions, CrawlResult, CrawlValidators } from './types.js'

/**
 * Crawls one client's site: the engine (fetches and extracts, records nothing; the scan processor records what
 * it yields). An async generator so the consumer sets the pace and the memory: fetches start only while the
 * consumer pulls, at most `hostConcurrency` per host in flight, and no page's state is kept once yielded
 * (only URLs are remembered, to fetch each once).
 *
 * Order: robots.txt of the start URL's origin, then its sitemaps (robots' `Sitemap:` lines, else
 * /sitemap.xml), then pages breadth-first from the start URL along same-site links; the seeds and sitemap
 * URLs no link reached come last (depth -1). At most `maxPages` page fetches (a resumed scan's `done` URLs
 * count); URLs found beyond that are reported `skipped/cap` at the end (as many as `maxPages` of them, then no more).
 *
 * Throws only when `startUrl` is not an http(s) URL; every failure of the site itself is a result.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<CrawlResult> {
  const start = normalizeUrl(options.startUrl)
  if (start === null) throw new Error(`the website URL is not an http(s) URL: ${options.startUrl.slice(0, 200)}`)
  const { settings } = options
  const siteHost = new URL(start).host
  const stop = new AbortController()
  const onAbort = () => stop.abort(options.signal?.reason)
  if (options.signal?.aborted) return
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const fetcher = new Fetcher(settings, stop.signal)
  const hosts = new Map<string, Promise<{ robots: RobotsRules; gate: HostGate }>>()
  const host = (origin: string) => {
    let known = hosts.get(origin)
    if (!known) {
      known = readRobots(fetcher, origin, settings.userAgent).then((robots) => ({
        robots,
        gate: new HostGate(settings.hostConcurrency, Math.max(settings.delayMs, robots.delayMs ?? 0), stop.signal),
      }))
      hosts.set(origin, known)
    }
    return known
  }
  const frontier = new Frontier(settings.maxPages, options.done)
  try {
    const home = await host(originOf(start))
    const sitemapUrls = new Set<string>()
    if (home.robots.unreachable === null) {
      const roots = home.robots.sitemaps.length > 0 ? home.robots.sitemaps : [`${originOf(start)}/sitemap.xml`]
      const sources = {
        open: async (url: string) => (await host(originOf(url))).gate.run(() => fetcher.open(url)),
        allows: async (url: string) => (await host(originOf(url))).robots.allows(url),
      }
      for await (const read of readSitemaps(roots, siteHost, settings.maxPages, sitemapUrls, sources)) {
        if (stop.signal.aborted) return
        yield read
      }
    }

    frontier.link(start, 0)
    for (const seed of options.seeds) {
      const url = normalizeUrl(seed)
      if (url !== null && sameSite(url, siteHost)) frontier.unlinked(url)
    }
    for (const url of sitemapUrls) frontier.unlinked(url)

    const ready: CrawlResult[] = []
    const inFlight = new Set<Promise<void>>()
    const visit = async (entry: Entry) => {
      const inSitemap = sitemapUrls.has(entry.url)
      try {
        const { robots, gate } = await host(originOf(entry.url))
        if (robots.unreachable !== null) {
          ready.push({ kind: 'failed', url: entry.url, inSitemap, ...robots.unreachable })
          return
        }
        if (!robots.allows(entry.url)) {
          ready.push({ kind: 'skipped', url: entry.url, inSitemap, reason: 'robots' })
          return
        }
        const validators = options.validators?.get(entry.url)
        const result = await gate.run(() => fetchPage(fetcher, entry, inSitemap, settings.maxPageBytes, validators))
        if (result.kind === 'not_modified' && validators?.internalLinks)
          followLinks(frontier, validators.internalLinks, entry.depth, siteHost)
        ready.push(result)
        if (result.kind === 'page') {
          followLinks(frontier, result.state.internal_links, entry.depth, siteHost)
          // A redirect's target is a page of its own (when on the site): recorded under its own URL too, from
          // the same response, so it is not requested a second time.
          const target = result.state.final_url
          if (target !== entry.url && sameSite(target, siteHost) && frontier.claim(target))
            ready.push({ ...result, url: target, inSitemap: sitemapUrls.has(target), state: restate(result.state, target) })
        }
      } catch (error) {
        if (!stop.signal.aborted)
          ready.push({
            kind: 'failed',
            url: entry.url,
            inSitemap,
            code: 'connection_failed',
            message: String((error as Error).message).slice(0, 500),
          })
      }
    }

    const parallel = Math.max(1, settings.hostConcurrency) * 2
    let linkedInFlight = 0
    for (;;) {
      if (stop.signal.aborted) return
      while (inFlight.size < parallel) {
        const entry = frontier.next(linkedInFlight === 0)
        if (entry === null) break
        if (entry.done !== undefined) {
          // Recorded before the scan was interrupted: not fetched again, but its links still lead on.
          if (entry.done !== null) followLinks(frontier, entry.done.internal_links, entry.depth, siteHost)
          continue
        }
        const linked = entry.depth >= 0
        if (linked) linkedInFlight++
        const task: Promise<void> = visit(entry).finally(() => {
          inFlight.delete(task)
          if (linked) linkedInFlight--
        })
        inFlight.add(task)
      }
      if (ready.length > 0) {
        yield ready.shift()!
        continue
      }
      if (inFlight.size === 0) break
      await Promise.race(inFlight)
    }
    for (const url of frontier.leftOver()) yield { kind: 'skipped', url, inSitemap: sitemapUrls.has(url), reason: 'cap' }
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    stop.abort(new Error('the crawl is over'))
    await fetcher.close().catch(() => undefined)
  }
}

async function fetchPage(
  fetcher: Fetcher,
  entry: Entry,
  inSitemap: boolean,
  maxPageBytes: number,
  validators: CrawlValidators | undefined,
): Promise<CrawlResult> {
  const { url, depth } = entry
  const response = await fetcher.open(url, validators)
  if (response.kind === 'failed') return { kind: 'failed', url, inSitemap, code: response.code, message: response.message }
  if (response.status === 304 && validators !== undefined) {
    response.close()
    return { kind: 'not_modified', url, inSitemap, depth }
  }
  const contentType = response.headers['content-type'] ?? null
  if (
    response.status >= 200 &&
    response.status < 300 &&
    contentType !== null &&
    !/^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType)
  ) {
    // A 2xx that is not a page (an image, a PDF): not read, not a page of the site.
    response.close()
    return { kind: 'skipped', url, inSitemap, reason: 'not_html' }
  }
  const body = await readBody(response, maxPageBytes)
  if ('kind' in body) return { kind: 'failed', url, inSitemap, code: body.code, message: body.message }
  const state = extractPageState(url, response.finalUrl, response.status, response.headers, decodeBody(body.bytes, contentType), {
    redirects: response.redirects,
    truncated: body.truncated,
  })
  return {
    kind: 'page',
    url,
    inSitemap,
    depth,
    state,
    validators: { etag: response.headers.etag ?? null, lastModified: response.headers['last-modified'] ?? null },
  }
}

/** The state of a redirect's target, seen as a page of its own: its URL, no redirects, its own hash. */
function restate(state: PageState, url: string): PageState {
  const { content_hash: _hash, ...content } = { ...state, url, redirects: [] }
  return { ...content, content_hash: contentHash(content) }
}

function followLinks(frontier: Frontier, links: readonly string[], depth: number, siteHost: string): void {
  // A page whose own redirects left the site leads nowhere on it; depth -1 stays -1 (unreachable from the start).
  const next = depth < 0 ? -1 : depth + 1
  for (const link of links) if (sameSite(link, siteHost)) frontier.link(link, next)
}

interface Entry {
  readonly url: string
  depth: number
  taken: boolean
  queuedAsLinked: boolean
  /** Recorded earlier in this scan (resume): its state, or null when it had none. */
  readonly done?: PageState | null
}

/**
 * The URLs still to visit: linked ones breadth-first (FIFO), then the unlinked ones (seeds, sitemap URLs).
 * Each URL is visited once. It holds at most 2 × maxPages URLs pending, so a site of millions of links costs
 * the crawl no more memory than its cap allows.
 */
class Frontier {
  readonly #pending = new Map<string, Entry>()
  readonly #visited = new Set<string>()
  readonly #linked: Entry[] = []
  readonly #unlinked: Entry[] = []
  #linkedHead = 0
  #unlinkedHead = 0
  #fetches = 0
  readonly #maxPages: number
  readonly #done: ReadonlyMap<string, PageState | null>

  constructor(maxPages: number, done: ReadonlyMap<string, PageState | null> | undefined) {
    this.#maxPages = maxPages
    this.#done = new Map([...(done ?? new Map())].map(([url, state]) => [normalizeUrl(url) ?? url, state]))
    // Pages recorded before a resume were fetched by this scan: they count against its cap.
    this.#fetches = this.#done.size
  }

  link(url: string, depth: number): void {
    if (depth < 0) return this.unlinked(url)
    const entry = this.#entry(url, depth)
    if (entry === null) return
    if (depth >= 0 && (entry.depth < 0 || depth < entry.depth)) entry.depth = depth
    if (!entry.queuedAsLinked && entry.depth >= 0) {
      entry.queuedAsLinked = true
      this.#linked.push(entry)
    }
  }

  unlinked(url: string): void {
    const entry = this.#entry(url, -1)
    if (entry !== null && !entry.queuedAsLinked) this.#unlinked.push(entry)
  }

  /**
   * The next URL to visit, or null when none is left; past the cap only `done` URLs (no fetch) are handed out.
   * `unlinkedToo` false holds the unlinked ones back: while linked pages are in flight, their links may still
   * reach a sitemap URL, which then gets its real depth.
   */
  next(unlinkedToo: boolean): Entry | null {
    const entry = this.#fetches >= this.#maxPages ? this.#nextDone() : this.#shift(unlinkedToo)
    if (entry === null) return null
    entry.taken = true
    this.#pending.delete(entry.url)
    this.#visited.add(entry.url)
    if (entry.done === undefined) this.#fetches++
    return entry
  }

  /** Marks `url` visited without fetching it (it was seen another way); false when it already was. */
  claim(url: string): boolean {
    if (this.#visited.has(url) || this.#pending.get(url)?.taken) return false
    const entry = this.#pending.get(url)
    if (entry) entry.taken = true
    this.#pending.delete(url)
    this.#visited.add(url)
    return true
  }

  /** URLs found but never visited for the cap. */
  *leftOver(): Generator<string> {
    let count = 0
    for (const entry of this.#pending.values()) {
      if (count++ >= this.#maxPages) return
      yield entry.url
    }
  }

  #nextDone(): Entry | null {
    for (const entry of this.#pending.values()) {
      if (entry.done !== undefined) return entry
    }
    return null
  }

  #shift(unlinkedToo: boolean): Entry | null {
    while (this.#linkedHead < this.#linked.length) {
      const entry = this.#linked[this.#linkedHead++]!
      if (!entry.taken) return this.#compact(entry)
    }
    while (unlinkedToo && this.#unlinkedHead < this.#unlinked.length) {
      const entry = this.#unlinked[this.#unlinkedHead++]!
      if (!entry.taken) return this.#compact(entry)
    }
    return null
  }

  /** Drops the consumed heads of the queues now and then, so they do not grow with the crawl. */
  #compact(entry: Entry): Entry {
    if (this.#linkedHead > 1024 && this.#linkedHead * 2 > this.#linked.length) {
      this.#linked.splice(0, this.#linkedHead)
      this.#linkedHead = 0
    }
    if (this.#unlinkedHead > 1024 && this.#unlinkedHead * 2 > this.#unlinked.length) {
      this.#unlinked.splice(0, this.#unlinkedHead)
      this.#unlinkedHead = 0
    }
    return entry
  }

  #entry(url: string, depth: number): Entry | null {
    if (this.#visited.has(url)) return null
    const known = this.#pending.get(url)
    if (known) return known
    if (this.#pending.size >= this.#maxPages * 2) return null
    const done = this.#done.get(url)
    const entry: Entry = { url, depth, taken: false, queuedAsLinked: false, ...(done !== undefined ? { done } : {}) }
    this.#pending.set(url, entry)
    return entry
  }
}
