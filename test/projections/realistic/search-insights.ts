import { systemContext } from '../../../commands/command-handler.js'
import { recordMetaEditOutcome } from '../../../commands/search/insights/meta-optimizations.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

interface Insight {
  id: number
  insight_type: string
  keyword_id: number | null
  status: string
}

/**
 * The insights part of the realistic log, on the heaters client, through HTTP: insights raised by a refresh
 * (keywords without a page), one resolved by a later refresh once its keyword has a page, statuses set
 * (dismissed, open again, applied) and a resolved one refused; a meta optimization proposed by the built-in
 * writer, staged, applied and its site edit rolled back (recorded as the meta proposer records it), another
 * proposed by hand from the insight and rejected; foreign attempts refused.
 */
export async function writeInsightsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [, heaters] = log.clientIds as [number, number]
  // The keywords part deleted this one; adding it again brings it back (same id).
  const repair = await call<number>('add_keyword', { keyword: { client_id: heaters, keyword: 'water heater repair' } }, keys.orgA)
  const tankless = await call<number>(
    'add_keyword',
    { keyword: { client_id: heaters, keyword: 'tankless water heater install' } },
    keys.orgA,
  )
  const page = await call<number>(
    'add_page',
    { page: { client_id: heaters, url: 'https://heaters.example.com/water-heaters', title: 'Water Heaters' } },
    keys.orgA,
  )
  await call(
    'add_snapshot',
    {
      snapshot: {
        page_id: page,
        content: '<meta name="description" content="Water heaters.">\n<p>We repair and install water heaters.</p>',
      },
    },
    keys.orgA,
  )

  await call('refresh_seo_insights', { client_id: heaters }, keys.orgA)
  await call('refresh_seo_insights', { client_id: heaters }, keys.orgA) // the same data: nothing new
  const raised = await call<Insight[]>('get_seo_insights', { client_id: heaters, insight_type: 'keyword_without_page' }, keys.orgA)
  const forRepair = raised.find((i) => i.keyword_id === repair)!
  const forTankless = raised.find((i) => i.keyword_id === tankless)!
  await call('associate_keyword_page', { keyword_id: tankless, page_id: page }, keys.orgA)
  await call('refresh_seo_insights', { client_id: heaters }, keys.orgA) // tankless has a page now: resolved

  await call('update_seo_insight', { insight_id: forRepair.id, status: 'dismissed', note: 'seasonal' }, keys.orgA)
  await call('update_seo_insight', { insight_id: forRepair.id, status: 'dismissed' }, keys.orgA) // no change
  await call('update_seo_insight', { insight_id: forRepair.id, status: 'open' }, keys.orgA)
  await call('update_seo_insight', { insight_id: forRepair.id, status: 'applied', note: 'page planned' }, keys.orgA)
  const resolved = await ts.rpc('update_seo_insight', { insight_id: forTankless.id, status: 'applied' }, keys.orgA)
  if (resolved.statusCode !== 409) throw new Error(`an update of a resolved insight answered ${resolved.statusCode}`)
  const foreign = await ts.rpc('update_seo_insight', { insight_id: forRepair.id, status: 'dismissed' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign insight update answered ${foreign.statusCode}`)

  const built = await call<{ id: number }>(
    'propose_meta_optimization',
    { client_id: heaters, page_id: page, query: 'water heater repair' },
    keys.orgA,
  )
  await call('stage_meta_optimization', { optimization_id: built.id }, keys.orgA)
  const applied = await call<{ edit_id: number }>('apply_meta_optimization', { optimization_id: built.id, approved_by: 'Dana' }, keys.orgA)
  await call('rollback_site_edit', { edit_id: applied.edit_id }, keys.orgA)
  // What the meta proposer does on SiteEditRolledBack (processors do not run here).
  await recordMetaEditOutcome(ts.system.write, systemContext('seo-meta-proposer'), { editId: applied.edit_id })

  const manual = await call<{ id: number }>(
    'propose_meta_optimization',
    {
      client_id: heaters,
      insight_id: forRepair.id,
      page_id: page,
      title: 'Water Heater Repair in Austin | Heaters Co',
      description: 'Same-week water heater repair and installation in Austin. Call Heaters Co to book a visit.',
    },
    keys.orgA,
  )
  const open = await ts.rpc('propose_meta_optimization', { client_id: heaters, page_id: page, query: 'water heaters' }, keys.orgA)
  if (open.statusCode !== 409) throw new Error(`a second open proposal for a page answered ${open.statusCode}`)
  const foreignReject = await ts.rpc('reject_meta_optimization', { optimization_id: manual.id, rejected_by: 'x' }, keys.orgB)
  if (foreignReject.statusCode !== 404) throw new Error(`a foreign reject answered ${foreignReject.statusCode}`)
  await call('reject_meta_optimization', { optimization_id: manual.id, rejected_by: 'Dana', reason: 'Keep the brand first' }, keys.orgA)
}
