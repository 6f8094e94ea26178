import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { loadState } from '../../commands/command-handler.js'
import { loadKeywordSet } from '../../commands/keywords.js'
import { addPage } from '../../commands/pages.js'
import { associateKeywordPage } from '../../commands/search/associations.js'
import { pageSet } from '../../domain/pages/page-set.js'

/**
 * The sandbox client's service pages beside the home and drain-cleaning pages the site fiction adds, so that
 * its keywords have pages to be linked to and one page (about) serves none.
 */
const EXTRA_PAGES = [
  { path: '/services/water-heater-repair', title: 'Water Heater Repair', wp_post_id: 16 },
  { path: '/about', title: 'About Rapid Rooter', wp_post_id: 5 },
] as const

/** Which page serves a keyword, by the service it names; emergency keywords have no page yet (a gap to show). */
const PAGE_FOR: readonly { match: RegExp; path: string }[] = [
  { match: /drain/, path: '/services/drain-cleaning' },
  { match: /water heater/, path: '/services/water-heater-repair' },
]

/**
 * The sandbox's fictional keyword ↔ page links for its client: each drain and water-heater keyword linked to its
 * service page (primary), the first drain keyword also to the home page, the rest left without a page. Runs
 * after the site fiction (seed-site-edits.ts), whose pages it links; deterministic for the same keywords.
 */
export async function seedSandboxAssociations(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const base = (await loadState(write.store, pageSet, clientId)).pages[0]?.url.replace(/\/+$/, '')
  if (base === undefined) return
  for (const page of EXTRA_PAGES) {
    await addPage(write, ctx, { orgId, clientId, url: `${base}${page.path}`, title: page.title, wpPostId: page.wp_post_id })
  }
  const pages = (await loadState(write.store, pageSet, clientId)).pages
  const pageAt = (path: string) => pages.find((p) => p.url === `${base}${path}`)
  const home = pageAt('/')
  const keywords = (await loadKeywordSet(write, clientId)).keywords.filter((k) => !k.deleted)
  let homeLinked = false
  for (const keyword of keywords) {
    const target = PAGE_FOR.find((p) => p.match.test(keyword.keyword.toLowerCase()))
    const page = target && pageAt(target.path)
    if (!page) continue
    const link = { callerOrgId: orgId, clientId, keywordId: keyword.id, pageClientId: clientId }
    await associateKeywordPage(write, ctx, { ...link, pageId: page.id })
    if (!homeLinked && home && target.path === '/services/drain-cleaning') {
      await associateKeywordPage(write, ctx, { ...link, pageId: home.id })
      homeLinked = true
    }
  }
}
