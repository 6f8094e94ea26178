import { systemContext } from '../../../commands/command-handler.js'
import { recordCrawledPages, type CrawledPage } from '../../../commands/monitoring/snapshots.js'
import type { TestSystem } from '../../support/system.js'
import { pageState } from '../../http/monitoring-snapshots-states.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt } from '../../support/read-models.js'

/**
 * The snapshots part of the realistic log: a crawl of the first client's site (its known pages found by URL, a
 * new page added, validators kept), the same batch again (nothing), a second crawl where one page changed and
 * one answers 404, a render of one page, and a crawl of another organization's client: PageSnapshotRecorded
 * at v2 with every source the monitor writes, and the pages a crawl adds.
 */
export async function writeSnapshotsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const [orgA, orgB] = log.orgIds as [number, number]
  const site = (await ts.call<{ website_url: string }>('get_client', { client_id: plumbers }, keys.orgA)).website_url.replace(/\/+$/, '')
  const record = (orgId: number, clientId: number, scanId: number, pages: CrawledPage[], source: 'crawl' | 'render' = 'crawl') =>
    recordCrawledPages(ts.system.write, systemContext(`site_scan-${scanId}`), { orgId, clientId, scanId, source, pages })

  const home = pageState({ url: `${site}/`, title: 'Acme Plumbing | Austin plumbers', main_text: 'Plumbers in Austin. Same-day service.' })
  const services = pageState({
    url: `${site}/services/water-heaters`,
    title: 'Water heaters',
    headings: [{ level: 1, text: 'Water heater repair' }],
    main_text: 'Water heater repair and replacement. Tank and tankless.',
  })
  const first = [
    { url: home.url, state: home, etag: '"home-1"', lastModified: 'Mon, 02 Mar 2026 08:00:00 GMT' },
    { url: services.url, state: services },
  ]
  await record(orgA, plumbers, 101, first)
  await record(orgA, plumbers, 101, first) // a resumed scan's batch: nothing new
  const changedHome = pageState({ ...home, meta_description: 'Licensed Austin plumbers, open 24/7.' })
  const gone = pageState({ ...services, status: 404, title: 'Not found', headings: [], main_text: 'Page not found.' })
  await record(orgA, plumbers, 102, [
    { url: home.url, state: changedHome, etag: '"home-2"' },
    { url: services.url, state: gone },
  ])
  await record(orgA, plumbers, 103, [{ url: home.url, state: changedHome }], 'render')

  const bravoSite = (await ts.call<{ website_url: string }>('get_client', { client_id: bravo }, keys.orgB)).website_url.replace(/\/+$/, '')
  const about = pageState({ url: `${bravoSite}/about`, title: 'About Bravo' })
  const last = await record(orgB, bravo, 104, [{ url: about.url, state: about }])
  // Direct commands skip the RPCs' read-your-writes: the logs after this one read these pages through RPCs.
  await readModelsAt(ts, last.position)
}
