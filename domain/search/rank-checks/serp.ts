import type { RankDevice, RankRow, RankSource, SerpFeatures } from '../ranks/rank-row.js'
import { MAX_COMPETITORS, MAX_RANK_POSITION } from '../ranks/rank-row.js'
import { isClientHost, pageKey, siteHost } from './hosts.js'

/**
 * One Google results page as every rank provider is read into (processors/search/rank-checks/providers/):
 * the organic results in order, and the features a rank row records.
 */
export interface SerpPage {
  /** Organic results only, in order; `position` is the organic position (1 = the first organic result). */
  readonly organic: readonly { readonly position: number; readonly url: string; readonly domain?: string | null }[]
  /** The map pack's businesses; null when there was none. */
  readonly localPack: readonly { readonly title: string; readonly url: string | null; readonly domain: string | null }[] | null
  /** The featured snippet's source; null when there was none. */
  readonly featuredSnippet: { readonly url: string | null; readonly domain: string | null } | null
  readonly peopleAlsoAsk: boolean
  /** Google's AI Overview and the URLs it cites; null when there was none. */
  readonly aiOverview: { readonly references: readonly string[] } | null
}

/** The client as a results page is read for it. */
export interface SerpClient {
  /** The client's website (its URL or domain). */
  readonly websiteUrl: string
  /** The business name: a map-pack entry without a website still counts when its title is this name. */
  readonly name: string
}

export interface RankTask {
  readonly keyword_id: number
  readonly location_id: number | null
  readonly device: RankDevice
}

const sameName = (a: string, b: string) => a.trim().toLowerCase().replace(/\s+/g, ' ') === b.trim().toLowerCase().replace(/\s+/g, ' ')

/** The client's best organic result within the top 100: its position and URL, or nulls. */
export function clientResult(page: SerpPage, clientHost: string | null): { position: number | null; url: string | null } {
  let best: { position: number; url: string } | null = null
  for (const r of page.organic) {
    if (r.position < 1 || r.position > MAX_RANK_POSITION) continue
    if (!isClientHost(siteHost(r.domain ?? r.url) ?? siteHost(r.url), clientHost)) continue
    if (best === null || r.position < best.position) best = { position: r.position, url: r.url }
  }
  return best ?? { position: null, url: null }
}

/** The first MAX_COMPETITORS distinct organic sites, in order, that are not the client's. */
export function competitorDomains(page: SerpPage, clientHost: string | null): string[] {
  const seen: string[] = []
  const ordered = [...page.organic].sort((a, b) => a.position - b.position)
  for (const r of ordered) {
    const host = siteHost(r.domain ?? r.url) ?? siteHost(r.url)
    if (host === null || isClientHost(host, clientHost) || seen.includes(host)) continue
    seen.push(host)
    if (seen.length === MAX_COMPETITORS) break
  }
  return seen
}

export function serpFeatures(page: SerpPage, client: SerpClient): SerpFeatures {
  const clientHost = siteHost(client.websiteUrl)
  const isClient = (urlOrDomain: string | null) => isClientHost(siteHost(urlOrDomain), clientHost)
  const pack = page.localPack
  return {
    local_pack: pack !== null,
    local_pack_includes_client: (pack ?? []).some(
      (p) => isClient(p.domain) || isClient(p.url) || (client.name !== '' && sameName(p.title, client.name)),
    ),
    featured_snippet: page.featuredSnippet !== null,
    featured_snippet_is_client:
      page.featuredSnippet !== null && (isClient(page.featuredSnippet.domain) || isClient(page.featuredSnippet.url)),
    people_also_ask: page.peopleAlsoAsk,
    ai_overview: page.aiOverview !== null,
    ai_overview_cites_client: (page.aiOverview?.references ?? []).some((url) => isClient(url)),
  }
}

/**
 * The client page a ranking URL is: among the pages associated with the keyword first, then among all the
 * client's pages, compared as pageKey; null when none is that URL.
 */
export function matchingPage(
  url: string | null,
  associated: readonly { readonly id: number; readonly url: string }[],
  pages: readonly { readonly id: number; readonly url: string }[],
): number | null {
  const key = pageKey(url)
  if (key === null) return null
  const found = associated.find((p) => pageKey(p.url) === key) ?? pages.find((p) => pageKey(p.url) === key)
  return found?.id ?? null
}

/** The rank row one results page gives for one task. `pageOf` maps the ranking URL to the client's page. */
export function rankRowOf(
  page: SerpPage,
  input: { task: RankTask; date: string; source: RankSource; client: SerpClient; pageOf: (url: string | null) => number | null },
): RankRow {
  const clientHost = siteHost(input.client.websiteUrl)
  const { position, url } = clientResult(page, clientHost)
  return {
    keyword_id: input.task.keyword_id,
    location_id: input.task.location_id,
    device: input.task.device,
    date: input.date,
    position,
    url: url === null ? null : url.slice(0, 2048),
    page_id: input.pageOf(url),
    competitors: competitorDomains(page, clientHost),
    serp_features: serpFeatures(page, input.client),
    source: input.source,
  }
}
