import { createHash } from 'node:crypto'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { type CrawledPage, recordCrawledPages } from '../../commands/monitoring/snapshots.js'
import { recordSnapshot } from '../../commands/pages.js'
import type { SitePublisher } from '../../commands/site-edits-publisher.js'
import { applySiteEdit, stageSiteEdit } from '../../commands/site-edits.js'
import type { PageState } from '../../domain/monitoring/page-state.js'
import { SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'

/**
 * The sandbox's fictional site changes, each attribution shown: two pages a first crawl found (page_added,
 * unknown), a rewrite of one applied through apply_site_edit's command and seen by the next crawl (its title
 * and body changes attributed to the edit), and on the other page changes nobody here made (a new meta
 * description, noindex added: external, one of them high).
 */

const BASE = SANDBOX_CLIENT.websiteUrl.replace(/\/+$/, '')
const WATER_HEATERS = `${BASE}/services/water-heaters`
const ABOUT = `${BASE}/about-us`

type Says = Pick<PageState, 'title' | 'meta_description' | 'robots' | 'noindex' | 'headings' | 'main_text'>

/** A fictional crawled state, hashed over what it says (as the crawler hashes everything but url and truncated). */
function crawled(url: string, says: Says): PageState {
  const content = {
    final_url: url,
    status: 200,
    redirects: [],
    content_type: 'text/html; charset=utf-8',
    canonical: url,
    ...says,
    word_count: says.main_text.split(/\s+/).filter(Boolean).length,
    internal_links: [`${BASE}/`],
    outgoing_links: [],
    images: [],
    json_ld_types: ['Plumber'],
    hreflang: [],
  }
  return { url, ...content, truncated: false, content_hash: createHash('sha256').update(JSON.stringify(content)).digest('hex') }
}

const HEATERS_V1 = crawled(WATER_HEATERS, {
  title: 'Water Heaters | Rapid Rooter',
  meta_description: 'Water heater repair in Austin.',
  robots: null,
  noindex: false,
  headings: [{ level: 1, text: 'Water Heaters' }],
  main_text: 'Water Heaters. We repair and replace tank water heaters across Austin.',
})
const EDIT_TITLE = 'Water Heater Repair & Replacement | Rapid Rooter'
const EDIT_CONTENT =
  '<h1>Water Heaters</h1><p>Tank and tankless water heaters repaired or replaced the same day, with a two-year warranty on labor.</p>'
const HEATERS_V2 = crawled(WATER_HEATERS, {
  ...HEATERS_V1,
  title: EDIT_TITLE,
  main_text: 'Water Heaters. Tank and tankless water heaters repaired or replaced the same day, with a two-year warranty on labor.',
})
const ABOUT_V1 = crawled(ABOUT, {
  title: 'About Us | Rapid Rooter',
  meta_description: 'A family plumbing company.',
  robots: null,
  noindex: false,
  headings: [{ level: 1, text: 'About Rapid Rooter' }],
  main_text: 'About Rapid Rooter. A family plumbing company serving Austin since 1998.',
})
// Someone outside the agency staged a new About page and left it noindexed.
const ABOUT_V2 = crawled(ABOUT, { ...ABOUT_V1, meta_description: 'Meet the team behind Rapid Rooter.', robots: 'noindex', noindex: true })

export async function seedSandboxSiteChanges(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const crawl = (pages: PageState[]) =>
    recordCrawledPages(write, ctx, {
      orgId,
      clientId,
      scanId: 1,
      source: 'crawl',
      pages: pages.map((state): CrawledPage => ({ url: state.url, state })),
    })
  const first = await crawl([HEATERS_V1, ABOUT_V1])
  const heatersId = first.results[0]!.pageId

  const { editId } = await stageSiteEdit(write, ctx, {
    orgId,
    clientId,
    operation: 'elementor_rewrite',
    pageUrl: WATER_HEATERS,
    pageId: heatersId,
    payload: JSON.stringify({ proposed_content: EDIT_CONTENT, title: EDIT_TITLE, page_id: heatersId }),
    jobId: null,
  })
  // What the built-in publisher records, with the page known here (the seeder does not wait for read models).
  const publisher: SitePublisher = {
    name: 'built-in',
    async publish(edit, context) {
      const after = await recordSnapshot(write, context, {
        orgId,
        clientId,
        pageId: heatersId,
        title: EDIT_TITLE,
        content: EDIT_CONTENT,
        source: 'site_edit',
        editId: edit.editId,
      })
      return { before_snapshot_id: first.results[0]!.snapshotId, after_snapshot_id: after.snapshotId }
    },
    async restore() {
      return { restored_snapshot_id: null }
    },
  }
  await applySiteEdit(write, ctx, publisher, { editId, visibleTo: orgId, approvedBy: 'Sandbox Strategist' })
  await crawl([HEATERS_V2, ABOUT_V2])
}
