import { systemContext } from '../../../commands/command-handler.js'
import { recordCrawledPages } from '../../../commands/monitoring/snapshots.js'
import type { TestSystem } from '../../support/system.js'
import { pageState } from '../../http/monitoring-snapshots-states.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt } from '../../support/read-models.js'

/**
 * The changes part of the realistic log: SiteChangeDetected comes only with a crawl's snapshot, so this
 * records a page as a scan does (page_added), applies a site edit to it through the RPCs, records the page
 * as the edit left it (changes attributed to the edit) and then as someone else changed it (external, a
 * noindex added), and the same batch again (nothing new).
 */
export async function writeSiteChangesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const [plumbers] = log.clientIds as [number]
  const [orgA] = log.orgIds as [number]
  const client = await ts.call<{ website_url: string }>('get_client', { client_id: plumbers }, keys.orgA)
  const url = `${client.website_url.replace(/\/+$/, '')}/pricing`
  const record = async (state: ReturnType<typeof pageState>) => {
    const result = await recordCrawledPages(ts.system.write, systemContext('site-changes-log'), {
      orgId: orgA,
      clientId: plumbers,
      scanId: 1,
      source: 'crawl',
      pages: [{ url, state }],
    })
    // The site edit below finds the page in the read models: wait until they show it.
    await readModelsAt(ts, result.position)
  }
  const first = pageState({ url, title: 'Pricing', main_text: 'Drain cleaning from $129. Call for a quote.' })
  await record(first)
  const editId = await ts.call<number>(
    'create_site_edit',
    {
      client_id: plumbers,
      operation: 'elementor_rewrite',
      payload: JSON.stringify({
        proposed_content: '<p>Flat-rate drain cleaning from $99, any day of the week.</p>',
        title: 'Flat-rate pricing',
      }),
      page_url: url,
    },
    keys.orgA,
  )
  await ts.call('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, keys.orgA)
  const edited = pageState({ ...first, title: 'Flat-rate pricing', main_text: 'Flat-rate drain cleaning from $99, any day of the week.' })
  await record(edited)
  const noindexed = pageState({ ...edited, robots: 'noindex', noindex: true })
  await record(noindexed)
  await record(noindexed) // a resumed scan's batch again: nothing new
}
