/**
 * The site changes that matter become insights for the strategist (page_problem, domain/search/insights/rules/
 * page-problem.ts): crawls recorded through recordCrawledPages with hand-built PageStates, the insight
 * refresher running as a processor (a SiteChangeDetected wakes it), then get_seo_insights: a page gone, a page
 * that says noindex and an untitled page raised, a healthy page not; a crawl that finds the gone page back
 * resolves its insight.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { type CrawledPage, recordCrawledPages } from '../../commands/monitoring/snapshots.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './helpers.js'
import { pageState } from './monitoring-snapshots-states.js'
import { eventually } from './webhooks-helpers.js'
import { readModelsAt } from '../support/read-models.js'

const SITE = 'https://acme-plumbing.example.com'

interface Insight {
  insight_type: string
  page_id: number | null
  severity: string
  status: string
  evidence: { problem?: string; status?: number }
}

t.test('a crawl that finds a page gone, noindexed or untitled raises page_problem; the fix resolves it', async (t) => {
  const ts = await startTestSystem(t, { runProcessors: true })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const crawl = async (pages: CrawledPage[]) => {
    const result = await recordCrawledPages(ts.system.write, systemContext('test-scan'), {
      orgId: org.orgId,
      clientId,
      scanId: 1,
      source: 'crawl',
      pages,
    })
    await readModelsAt(ts, result.position)
    return result.results
  }
  const problems = (status?: string) =>
    ts.call<Insight[]>('get_seo_insights', { client_id: clientId, insight_type: 'page_problem', ...(status ? { status } : {}) }, org.key)

  const old = pageState({ url: `${SITE}/old-offer`, title: 'Old offer' })
  const recorded = await crawl([
    { url: `${SITE}/`, state: pageState({ url: `${SITE}/`, title: 'Acme Plumbing' }) },
    { url: old.url, state: old },
    { url: `${SITE}/hidden`, state: pageState({ url: `${SITE}/hidden`, noindex: true, robots: 'noindex' }) },
    { url: `${SITE}/untitled`, state: pageState({ url: `${SITE}/untitled`, title: null }) },
  ])
  const [homeId, oldId, hiddenId, untitledId] = recorded.map((r) => r.pageId)
  await crawl([{ url: old.url, state: pageState({ url: old.url, status: 404, title: 'Not found', main_text: 'Page not found.' }) }])

  const raised = await eventually(async () => {
    const list = await problems()
    return list.length === 3 ? list : undefined
  }, 'three page_problem insights')
  t.same(
    raised.map((i) => [i.page_id, i.evidence.problem, i.severity, i.status]).sort(),
    [
      [hiddenId, 'noindex', 'high', 'open'],
      [oldId, 'gone', 'high', 'open'],
      [untitledId, 'no_title', 'medium', 'open'],
    ].sort(),
    'the gone page, the noindexed page and the untitled page; the home page is healthy',
  )
  t.notOk(
    raised.some((i) => i.page_id === homeId),
    'nothing for the healthy page',
  )

  // The offer is back: the next crawl that sees it resolves its insight.
  await crawl([{ url: old.url, state: pageState({ url: old.url, title: 'Old offer, back' }) }])
  const resolved = await eventually(async () => {
    const list = await problems('resolved')
    return list.length === 1 ? list : undefined
  }, 'the gone page insight resolved')
  t.match(resolved[0], { page_id: oldId, status: 'resolved', evidence: { problem: 'gone', status: 404 } })
  t.equal((await problems()).length, 2, 'the other two still hold')
})
