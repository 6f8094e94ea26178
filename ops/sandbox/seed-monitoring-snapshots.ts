import { createHash } from 'node:crypto'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { recordCrawledPages } from '../../commands/monitoring/snapshots.js'
import type { PageState } from '../../domain/monitoring/page-state.js'
import { SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'

/**
 * The sandbox's fictional crawled snapshots: three weekly crawls of the sandbox site's two pages (the home page
 * and drain cleaning, which the site seed added), three weeks, two weeks and one week before the seed, so the
 * snapshot reads have several dates: the home page is the same every week (one snapshot, then unchanged), the
 * drain-cleaning page gets a new meta description in the second week and a longer text in the third (a
 * snapshot each, with their site changes). Nothing is fetched: the states are written here, hashed as the
 * crawler hashes them (everything but url and truncated).
 */

const BASE = SANDBOX_CLIENT.websiteUrl.replace(/\/+$/, '')
const HOME = `${BASE}/`
const DRAINS = `${BASE}/services/drain-cleaning`
const DAY = 86_400_000

type Says = Pick<PageState, 'title' | 'meta_description' | 'headings' | 'main_text' | 'internal_links'>

function crawled(url: string, says: Says): PageState {
  const content = {
    final_url: url,
    status: 200,
    redirects: [],
    content_type: 'text/html; charset=utf-8',
    canonical: url,
    robots: null,
    noindex: false,
    ...says,
    word_count: says.main_text.split(/\s+/).filter(Boolean).length,
    outgoing_links: [],
    images: [{ src: `${BASE}/img/van.jpg`, alt: 'Rapid Rooter service van' }],
    json_ld_types: ['Plumber'],
    hreflang: [],
  }
  return { url, ...content, truncated: false, content_hash: createHash('sha256').update(JSON.stringify(content)).digest('hex') }
}

const HOME_STATE = crawled(HOME, {
  title: 'Rapid Rooter Plumbing | Austin plumbers',
  meta_description: 'Fast, friendly plumbing in Austin. Call 555-0100 for same-day service.',
  headings: [{ level: 1, text: 'Fast, friendly plumbing' }],
  main_text:
    'Fast, friendly plumbing. Call 555-0100 for same-day service. Rapid Rooter has served Austin homes since 1998. Drain cleaning, water heaters and leak repair, with upfront prices.',
  internal_links: [DRAINS],
})

const DRAINS_V1 = crawled(DRAINS, {
  title: 'Drain Cleaning | Rapid Rooter Plumbing',
  meta_description: null,
  headings: [{ level: 1, text: 'Drain Cleaning' }],
  main_text: 'Drain Cleaning. Clogged drains cleared in an hour.',
  internal_links: [HOME],
})
const DRAINS_V2 = crawled(DRAINS, { ...DRAINS_V1, meta_description: 'Clogged drains cleared in an hour, anywhere in Austin.' })
const DRAINS_V3 = crawled(DRAINS, {
  ...DRAINS_V2,
  headings: [
    { level: 1, text: 'Drain Cleaning' },
    { level: 2, text: 'Hydro-jetting for main lines' },
  ],
  main_text:
    'Drain Cleaning. Clogged drains cleared in an hour. Hydro-jetting for main lines. Our technicians camera-inspect the line first, then clear roots and grease with high-pressure water.',
})

const CRAWLS: readonly { daysBefore: number; pages: readonly PageState[] }[] = [
  { daysBefore: 21, pages: [HOME_STATE, DRAINS_V1] },
  { daysBefore: 14, pages: [HOME_STATE, DRAINS_V2] },
  { daysBefore: 7, pages: [HOME_STATE, DRAINS_V3] },
]

export async function seedSandboxSnapshots(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock().getTime()
  for (const crawl of CRAWLS) {
    const at = new Date(now - crawl.daysBefore * DAY)
    await recordCrawledPages({ ...write, clock: () => at }, ctx, {
      orgId,
      clientId,
      // The sandbox's crawls were never run by this service: no scan to name.
      scanId: null,
      source: 'crawl',
      pages: crawl.pages.map((state) => ({ url: state.url, state, etag: `"${state.content_hash.slice(0, 12)}"` })),
    })
  }
}
