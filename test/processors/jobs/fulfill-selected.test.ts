/**
 * fulfill_selected against the real service: exactly the given items of the job's client carried out, any
 * tier; refused per item (the job goes on) an id of another client, of another organization, deleted or
 * unknown (all alike), an action type the service cannot carry out, an item that is not pending; an id named
 * twice carried out once; and the kind from POST /api/v1/jobs to done.
 */
import t from 'tap'
import { systemContext } from '../../../commands/command-handler.js'
import { addActionItems, deleteActionItems, setActionItemStatus } from '../../../commands/planning/action-items.js'
import { fulfillSelectedHandler } from '../../../processors/jobs/kinds/fulfill-selected.js'
import { orgWithKey } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { startTestSystem } from '../../support/system.js'
import { jobContext } from './context.js'
import { editsOf, item, MONTH, monthOfWork, siteOf, statuses } from './execute-support.js'
import { readModelsAt } from '../../support/read-models.js'

const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS })
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const system = systemContext('test')

async function settled<T extends { position: any }>(promise: Promise<T>): Promise<T> {
  const outcome = await promise
  await readModelsAt(ts, outcome.position)
  return outcome
}

t.test('exactly the given items, any tier; the others refused per item, the job going on', async (t) => {
  const site = await siteOf(ts, org.key, 'Acme Plumbing')
  const ids = await monthOfWork(ts, org.orgId, site)
  const sibling = await siteOf(ts, org.key, 'Sibling Plumbing')
  const foreign = await siteOf(ts, other.key, 'Foreign Plumbing')
  const { added: siblingIds } = await settled(
    addActionItems(ts.system.write, system, { clientId: sibling.clientId, callerOrgId: org.orgId, month: MONTH }, [
      item('title_meta_rewrite', `${sibling.base}/services/drains`, 'Sibling rewrite'),
    ]),
  )
  const { added: foreignIds } = await settled(
    addActionItems(ts.system.write, system, { clientId: foreign.clientId, callerOrgId: other.orgId, month: MONTH }, [
      item('title_meta_rewrite', `${foreign.base}/services/drains`, 'Foreign rewrite'),
    ]),
  )
  // An item without a month, one already done, one deleted.
  const { added: loose } = await settled(
    addActionItems(ts.system.write, system, { clientId: site.clientId, callerOrgId: org.orgId, month: null }, [
      item('internal_links', `${site.base}/services/drains`, 'Link to drains, no month'),
      item('title_meta_rewrite', `${site.base}/`, 'Home title, done by hand'),
      item('title_meta_rewrite', `${site.base}/about`, 'Deleted'),
    ]),
  )
  const [noMonth, doneByHand, deleted] = loose as [number, number, number]
  await settled(
    setActionItemStatus(
      ts.system.write,
      system,
      { clientId: site.clientId, callerOrgId: org.orgId, month: null, itemId: doneByHand },
      { status: 'done' },
    ),
  )
  await settled(
    deleteActionItems(
      ts.system.write,
      system,
      { clientId: site.clientId, callerOrgId: org.orgId, month: null },
      { itemIds: [deleted], preserve: [] },
    ),
  )

  const given = [ids.metaB, ids.content, siblingIds[0]!, foreignIds[0]!, 987654, deleted, doneByHand, noMonth, ids.metaB]
  const ctx = jobContext(ts, {
    kind: 'fulfill_selected',
    jobId: 7001,
    orgId: org.orgId,
    clientId: site.clientId,
    payload: { action_item_ids: given },
  })
  const result = (await fulfillSelectedHandler(ctx)) as any
  t.match(result, { client_id: site.clientId, staged: 2, applied: 0, auto_apply: false })
  t.equal(result.month, null, 'the items span a month and none: no one month')
  t.same(ctx.progressSeen.at(-1), [8, 8], 'progress per distinct id')
  t.same(
    [...new Set(result.edits.map((e: any) => e.item_id))],
    [ids.metaB, noMonth],
    'the tier B rewrite and the item without a month carried out, once each',
  )
  const reasons = new Map<number, string>(result.skipped.map((s: any) => [s.item_id, s.reason]))
  t.same([...reasons.keys()], [ids.content, siblingIds[0], foreignIds[0], 987654, deleted, doneByHand])
  t.match(reasons.get(ids.content), /not one the service can carry out/)
  const missing = (id: number) => `action item ${id} not found for client ${site.clientId}`
  for (const id of [siblingIds[0]!, foreignIds[0]!, 987654, deleted])
    t.equal(reasons.get(id), missing(id), `${id}: answered like a missing one`)
  t.match(reasons.get(doneByHand), /the item is done: only pending items/)

  t.equal((await statuses(ts, site.clientId)).get(ids.metaB), 'in_progress')
  t.equal((await statuses(ts, site.clientId)).get(ids.meta), 'pending', 'an item not given is left alone')
  t.equal((await statuses(ts, site.clientId, null as any)).get(noMonth), 'in_progress')
  t.equal((await statuses(ts, sibling.clientId)).get(siblingIds[0]!), 'pending', "another client's item untouched")
  t.same(await editsOf(ts, sibling.clientId), [])
  t.same(await editsOf(ts, foreign.clientId), [])

  // The same job resumed: the edits it staged are answered again, none staged twice.
  const before = (await editsOf(ts, site.clientId)).length
  const resumed = (await fulfillSelectedHandler(
    jobContext(ts, {
      kind: 'fulfill_selected',
      jobId: 7001,
      orgId: org.orgId,
      clientId: site.clientId,
      payload: { action_item_ids: given },
      attempt: 2,
    }),
  )) as any
  t.same(
    resumed.edits.map((e: any) => e.edit_id),
    result.edits.map((e: any) => e.edit_id),
  )
  t.equal((await editsOf(ts, site.clientId)).length, before)
  // A new job for an item in progress with its edit: continued with that edit, none staged.
  const again = (await fulfillSelectedHandler(
    jobContext(ts, {
      kind: 'fulfill_selected',
      jobId: 7002,
      orgId: org.orgId,
      clientId: site.clientId,
      payload: { action_item_ids: [ids.metaB] },
    }),
  )) as any
  t.match(again, { staged: 1, skipped: [] })
  t.same(
    again.edits.map((e: any) => e.edit_id),
    result.edits.filter((e: any) => e.item_id === ids.metaB).map((e: any) => e.edit_id),
  )
  t.equal((await editsOf(ts, site.clientId)).length, before)
  // An item a person moved in_progress (no edit of the service's) is refused.
  await settled(
    setActionItemStatus(
      ts.system.write,
      system,
      { clientId: site.clientId, callerOrgId: org.orgId, month: MONTH, itemId: ids.meta },
      { status: 'in_progress' },
    ),
  )
  const byHand = (await fulfillSelectedHandler(
    jobContext(ts, {
      kind: 'fulfill_selected',
      jobId: 7003,
      orgId: org.orgId,
      clientId: site.clientId,
      payload: { action_item_ids: [ids.meta] },
    }),
  )) as any
  t.match(byHand, { staged: 0, skipped: [{ item_id: ids.meta, reason: /the item is in_progress/ }] })
})

t.test('from POST /api/v1/jobs to done, applied with auto_apply_site_edits', async (t) => {
  const site = await siteOf(ts, org.key, 'Posted Plumbing')
  await ts.call('set_client_setting', { client_id: site.clientId, key: 'auto_apply_site_edits', value: 'true' }, org.key)
  const ids = await monthOfWork(ts, org.orgId, site)
  const foreign = await siteOf(ts, other.key, 'Elsewhere Plumbing')
  const { added } = await settled(
    addActionItems(ts.system.write, system, { clientId: foreign.clientId, callerOrgId: other.orgId, month: MONTH }, [
      item('title_meta_rewrite', `${foreign.base}/services/drains`, 'Foreign rewrite'),
    ]),
  )
  const created = await postJob(ts.app, org.key, {
    kind: 'fulfill_selected',
    client_id: site.clientId,
    payload: { action_item_ids: [ids.meta, added[0]] },
  })
  t.equal(created.statusCode, 202, created.body)
  const done = await waitForJob(
    ts.app,
    org.key,
    created.json().job_id,
    (job) => ['done', 'failed', 'cancelled'].includes(job.status),
    60_000,
  )
  t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))
  t.match(done.result, {
    client_id: site.clientId,
    month: MONTH,
    staged: 0,
    applied: 1,
    skipped: [{ item_id: added[0], reason: `action item ${added[0]} not found for client ${site.clientId}` }],
  })
  t.equal((await statuses(ts, site.clientId)).get(ids.meta), 'done')
  t.equal((await statuses(ts, foreign.clientId)).get(added[0]!), 'pending')
  t.match((await ts.call<any>('get_latest_snapshot', { page_id: site.pages.drains }, org.key)).content, /<title>Drain Cleaning Austin/)
})
