/**
 * bulk_strategist over a group of 20 clients: every active member planned (its findings added as items),
 * a client deleted after being grouped left out, one client whose month is closed recorded in `failed`
 * while the others go on, progress per client, and a second run (as a resumed job runs) adding nothing;
 * and the kind through POST /api/v1/jobs with group_id to done.
 */
import t from 'tap'
import { systemContext } from '../../../commands/command-handler.js'
import { addActionItems, closeActionItemMonth } from '../../../commands/planning/action-items.js'
import { createClientGroup } from '../../../commands/planning/groups.js'
import { bulkStrategistHandler } from '../../../processors/jobs/kinds/bulk-strategist.js'
import { clientPayload, orgWithKey } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { startTestSystem } from '../../support/system.js'
import { jobContext } from './context.js'
import { finding, monthItems, recordInsights } from './strategist-support.js'
import { readModelsAt } from '../../support/read-models.js'

const NOW = new Date('2026-11-15T12:00:00Z')

t.test('every active client of the group planned; one failure recorded, the rest go on; a re-run adds nothing', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const org = await orgWithKey(ts, 'Acme Agency')
  const context = systemContext('test')
  const clients: number[] = []
  for (let i = 1; i <= 20; i++) {
    const clientId = await ts.call<number>('add_client', clientPayload(`Plumber ${i}`), org.key)
    clients.push(clientId)
    await recordInsights(
      ts,
      org.orgId,
      clientId,
      [
        finding(`low_ctr:${i}`, { insight_type: 'low_ctr', source: 'gsc', evidence: { query: `plumber ${i}`, impressions: 100 * i } }),
        finding(`kwp:${i}`, { insight_type: 'keyword_without_page', source: 'crawl', evidence: { keyword: `drain cleaning ${i}` } }),
      ],
      NOW.toISOString(),
    )
  }
  const group = await createClientGroup(ts.system.write, context, { orgId: org.orgId, name: 'Texas plumbers', clientIds: clients })
  await readModelsAt(ts, group.position)

  // Deleted after being grouped: no longer an active client, not planned.
  const deleted = clients[4]!
  await ts.call('set_client_status', { client_id: deleted, status: 'deleted' }, org.key)
  // November already closed for this one (someone closed it into December): its plan fails.
  const closedOne = clients[8]!
  const target = { clientId: closedOne, callerOrgId: org.orgId }
  await addActionItems(ts.system.write, context, { ...target, month: '2026-11' }, [])
  const closed = await closeActionItemMonth(ts.system.write, context, {
    ...target,
    month: '2026-11',
    nextMonth: '2026-12',
    budgetHours: null,
  })
  await readModelsAt(ts, closed.position)

  const ctx = jobContext(ts, {
    kind: 'bulk_strategist',
    jobId: 7001,
    orgId: org.orgId,
    clientId: null,
    groupId: group.groupId,
    payload: {},
  })
  const result = (await bulkStrategistHandler(ctx)) as any
  t.match(result, { group_id: group.groupId, month: '2026-11', clients: 19, succeeded: 18, added: 36 })
  t.same(result.failed.length, 1)
  t.equal(result.failed[0].client_id, closedOne)
  t.match(result.failed[0].error, /the month 2026-11 of client \d+ is closed/)
  t.notOk(
    result.results.some((r: any) => r.client_id === deleted),
    'the deleted client is not planned',
  )
  t.ok(
    result.results.every((r: any) => r.added === 2 && r.existing === 0),
    'two items per client',
  )
  t.equal(ctx.progressSeen.length, 20, 'progress per client, then done')
  t.same(ctx.progressSeen.at(-1), [19, 19])
  for (const clientId of clients.filter((c) => c !== deleted && c !== closedOne)) {
    const { items } = await monthItems(ts, clientId, '2026-11')
    t.equal(items.length, 2, `client ${clientId}: two items`)
  }
  t.equal((await monthItems(ts, deleted, '2026-11')).items.length, 0)

  const again = (await bulkStrategistHandler({ ...ctx, job: { ...ctx.job, attempt: 2 } })) as any
  t.match(again, { clients: 19, succeeded: 18, added: 0 })
  t.equal(again.failed.length, 1)
  t.ok(
    again.results.every((r: any) => r.added === 0 && r.existing === 2),
    'the resumed run finds everything planned',
  )
})

t.test('through POST /api/v1/jobs with group_id to done', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW, runProcessors: true, jobs: QUICK_JOBS })
  const org = await orgWithKey(ts, 'Acme Agency')
  const clients = [
    await ts.call<number>('add_client', clientPayload('Plumber A'), org.key),
    await ts.call<number>('add_client', clientPayload('Plumber B'), org.key),
  ]
  for (const clientId of clients)
    await ts.call(
      'add_action_item',
      { client_id: clientId, month: '2026-10', action_type: 'manual', description: 'Fix the contact form' },
      org.key,
    )
  const group = await createClientGroup(ts.system.write, systemContext('test'), {
    orgId: org.orgId,
    name: 'Two plumbers',
    clientIds: clients,
  })
  await readModelsAt(ts, group.position)
  const created = await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: group.groupId, payload: { month: '2026-11' } })
  t.equal(created.statusCode, 202, created.body)
  const done = await waitForJob(ts.app, org.key, created.json().job_id, (job) => ['done', 'failed'].includes(job.status), 60_000)
  t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))
  t.match(done.result, { group_id: group.groupId, month: '2026-11', clients: 2, succeeded: 2, failed: [] })
  t.same(
    done.result.results.map((r: any) => [r.client_id, r.carried_over]),
    clients.map((c) => [c, 1]),
    "each client's October item carried into November",
  )
})
