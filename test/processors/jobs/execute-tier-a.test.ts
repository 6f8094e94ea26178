/**
 * execute_tier_a against the real service (commands, read models), with the job context the runner gives:
 * each automatable tier A type staged as its site edit (meta_rewrite, redirect, internal_link per source page,
 * create_page with a draft page), the items in_progress; with auto_apply_site_edits on, applied and done and
 * the pages' snapshots changed (the redirect staged only); a cooldown that holds publishing back leaves the
 * edits staged; a second run and a resumed attempt stage nothing twice; and the kind from POST /api/v1/jobs
 * to done.
 */
import t from 'tap'
import { executeTierAHandler } from '../../../processors/jobs/kinds/execute-tier-a.js'
import type { LanguageModel } from '../../../processors/language-model/port.js'
import { orgWithKey } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { startTestSystem } from '../../support/system.js'
import { jobContext } from './context.js'
import { editsOf, MONTH, monthOfWork, siteOf, statuses } from './execute-support.js'
import { readModelsAt } from '../../support/read-models.js'

const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS })
const org = await orgWithKey(ts, 'Acme')
let nextJob = 9000
const run = (clientId: number, jobId = ++nextJob, attempt = 1, languageModel: LanguageModel | null = null) => {
  const ctx = jobContext(ts, {
    kind: 'execute_tier_a',
    jobId,
    orgId: org.orgId,
    clientId,
    payload: { month: MONTH },
    attempt,
    languageModel,
  })
  return { ctx, result: executeTierAHandler(ctx) as Promise<any> }
}

t.test('stages each automatable type; items in_progress awaiting approval; a re-run stages nothing twice', async (t) => {
  const site = await siteOf(ts, org.key, 'Acme Plumbing')
  const ids = await monthOfWork(ts, org.orgId, site)
  const first = run(site.clientId)
  const result = await first.result
  t.match(result, { client_id: site.clientId, month: MONTH, staged: 4, applied: 0, skipped: [], auto_apply: false })
  t.same(first.ctx.progressSeen.at(-1), [4, 4], 'progress per item, then done')

  const byItem = (id: number) => result.edits.filter((e: any) => e.item_id === id)
  t.same(
    [ids.meta, ids.redirect, ids.page].map((id) => byItem(id).map((e: any) => e.operation)),
    [['meta_rewrite'], ['redirect'], ['create_page']],
    'one edit per item of those types',
  )
  const links = byItem(ids.links)
  t.equal(links.length, 3, 'internal_links: one edit per source page, up to three')
  t.ok(links.every((e: any) => e.operation === 'internal_link' && e.status === 'proposed'))
  t.notOk(
    links.some((e: any) => e.page_url.endsWith('/services/water-heaters') || e.page_url.endsWith('/drains-old')),
    'never from the target itself or from a page without content',
  )

  // The edits as the site edit RPCs show them.
  const meta = await ts.call<any>('get_site_edit', { edit_id: byItem(ids.meta)[0].edit_id }, org.key)
  t.match(meta, { operation: 'meta_rewrite', page_id: site.pages.drains, status: 'proposed', job_id: first.ctx.job.jobId })
  const metaPayload = JSON.parse(meta.payload)
  t.match(metaPayload, { action_item_id: ids.meta, page_id: site.pages.drains, query: 'drain cleaning austin', writer: 'built-in' })
  t.equal(metaPayload.title, 'Drain Cleaning Austin | Acme Plumbing', 'the built-in meta writer: query (naming the city), business')
  t.match(metaPayload.proposed_content, new RegExp(`<title>${metaPayload.title}</title>`))
  const redirect = JSON.parse((await ts.call<any>('get_site_edit', { edit_id: byItem(ids.redirect)[0].edit_id }, org.key)).payload)
  t.match(redirect, { from_url: `${site.base}/services/drains-old`, to_url: `${site.base}/services/drains`, status_code: 301 })
  const linkPayload = JSON.parse((await ts.call<any>('get_site_edit', { edit_id: links[0].edit_id }, org.key)).payload)
  t.match(linkPayload.proposed_content, `<a href="${site.base}/services/water-heaters">Water heaters</a>`)
  const create = JSON.parse((await ts.call<any>('get_site_edit', { edit_id: byItem(ids.page)[0].edit_id }, org.key)).payload)
  t.match(create, { keyword: 'emergency plumber', page_url: `${site.base}/emergency-plumber`, title: 'Emergency Plumber in Austin' })
  t.match(create.proposed_content, /<h1>Emergency Plumber in Austin<\/h1>/)
  const pages = await ts.call<any[]>('get_pages_for_client', { client_id: site.clientId }, org.key)
  t.match(
    pages.find((p) => p.page_id === create.page_id || p.id === create.page_id),
    { url: `${site.base}/emergency-plumber`, active: false },
    'the draft page exists, inactive until published',
  )

  const status = await statuses(ts, site.clientId)
  t.same(
    [ids.meta, ids.redirect, ids.links, ids.page, ids.content, ids.metaB].map((id) => status.get(id)),
    ['in_progress', 'in_progress', 'in_progress', 'in_progress', 'pending', 'pending'],
    'staged items in progress; not automatable and tier B ones left',
  )
  const row = await ts.system.read.selectFrom('action_items').selectAll().where('id', '=', ids.meta).executeTakeFirst()
  t.match(row, { status: 'in_progress', site_edit_id: meta.edit_id, note: /awaits approval/ })

  const count = (await editsOf(ts, site.clientId)).length
  t.equal(count, 6)
  // The same job resumed: its edits are found, none staged again.
  const resumed = await run(site.clientId, first.ctx.job.jobId, 2).result
  t.same(
    resumed.edits.map((e: any) => e.edit_id),
    result.edits.map((e: any) => e.edit_id),
    'a resumed attempt answers the edits it staged',
  )
  // Another run continues the items in progress with the edits they have.
  const again = await run(site.clientId).result
  t.match(again, { staged: 4, applied: 0 })
  t.same(
    again.edits.map((e: any) => e.edit_id),
    result.edits.map((e: any) => e.edit_id),
  )
  t.equal((await editsOf(ts, site.clientId)).length, count, 'no second edit for any item')

  // Auto-apply switched on: the next run applies the staged edits and the items are done, still no new edit.
  await ts.call('set_client_setting', { client_id: site.clientId, key: 'auto_apply_site_edits', value: 'true' }, org.key)
  const applied = await run(site.clientId).result
  t.match(applied, { staged: 1, applied: 3 })
  t.same(
    applied.edits.map((e: any) => e.edit_id),
    result.edits.map((e: any) => e.edit_id),
  )
  const after = await statuses(ts, site.clientId)
  t.same(
    [ids.meta, ids.redirect, ids.links, ids.page].map((id) => after.get(id)),
    ['done', 'in_progress', 'done', 'done'],
  )
  t.equal((await editsOf(ts, site.clientId)).length, count, 'still no second edit')
})

t.test('auto_apply_site_edits on: applied, items done, the pages changed; the redirect stays staged', async (t) => {
  const site = await siteOf(ts, org.key, 'Bright Pipes')
  await ts.call('set_client_setting', { client_id: site.clientId, key: 'auto_apply_site_edits', value: 'true' }, org.key)
  const ids = await monthOfWork(ts, org.orgId, site)
  const result = await run(site.clientId).result
  t.match(result, { staged: 1, applied: 3, auto_apply: true })
  t.ok(
    result.edits.every((e: any) => e.status === (e.operation === 'redirect' ? 'proposed' : 'applied')),
    'all but the redirect applied',
  )
  const status = await statuses(ts, site.clientId)
  t.same(
    [ids.meta, ids.redirect, ids.links, ids.page].map((id) => status.get(id)),
    ['done', 'in_progress', 'done', 'done'],
  )
  const metaEdit = result.edits.find((e: any) => e.item_id === ids.meta)
  const row = await ts.system.read.selectFrom('action_items').selectAll().where('id', '=', ids.meta).executeTakeFirst()
  t.match(row, { status: 'done', site_edit_id: metaEdit.edit_id })
  t.ok(row?.completed_at, 'completed_at set')
  const redirectRow = await ts.system.read.selectFrom('action_items').selectAll().where('id', '=', ids.redirect).executeTakeFirst()
  t.match(redirectRow?.note, /no connected WordPress site to write it to/)

  const drains = await ts.call<any>('get_latest_snapshot', { page_id: site.pages.drains }, org.key)
  t.match(drains, { source: 'site_edit' })
  t.match(drains.content, /<title>Drain Cleaning Austin/)
  t.equal(drains.title, JSON.parse((await ts.call<any>('get_site_edit', { edit_id: metaEdit.edit_id }, org.key)).payload).title)
  const home = await ts.call<any>('get_latest_snapshot', { page_id: site.pages.home }, org.key)
  t.match(home.content, `href="${site.base}/services/water-heaters"`, 'a source page links to the target now')
  const createEdit = result.edits.find((e: any) => e.item_id === ids.page)
  const created = await ts.call<any>('get_site_edit', { edit_id: createEdit.edit_id }, org.key)
  const page = await ts.call<any>('get_latest_snapshot', { page_id: created.page_id }, org.key)
  t.match(page.content, /Emergency Plumber in Austin/, 'the draft page has its content')

  const again = await run(site.clientId).result
  t.match(again, { staged: 1, applied: 0 }, 'a second run finds only the redirect, still awaiting a person')
  t.same(
    again.edits.map((e: any) => e.operation),
    ['redirect'],
  )
})

t.test('a cooldown that holds publishing back: edits staged, items in_progress, the result says so', async (t) => {
  const site = await siteOf(ts, org.key, 'Cool Down Plumbing')
  await ts.call('set_client_setting', { client_id: site.clientId, key: 'auto_apply_site_edits', value: 'true' }, org.key)
  await ts.call('set_client_cooldown', { client_id: site.clientId, reason: 'operator', minutes: 60, note: 'site migration' }, org.key)
  const ids = await monthOfWork(ts, org.orgId, site)
  const result = await run(site.clientId).result
  t.match(result, { staged: 4, applied: 0 })
  t.ok(
    result.edits.every((e: any) => e.status === 'proposed'),
    'nothing applied',
  )
  const status = await statuses(ts, site.clientId)
  t.equal(status.get(ids.meta), 'in_progress')
  const row = await ts.system.read.selectFrom('action_items').selectAll().where('id', '=', ids.meta).executeTakeFirst()
  t.match(row?.note, /cooldown/)
})

t.test('an edit staged by a job that died before moving the item is reused by the next job, not staged again', async (t) => {
  const site = await siteOf(ts, org.key, 'Crashed Plumbing')
  const ids = await monthOfWork(ts, org.orgId, site)
  const { stageSiteEdit } = await import('../../../commands/site-edits.js')
  const { systemContext } = await import('../../../commands/command-handler.js')
  const dead = await stageSiteEdit(ts.system.write, systemContext('job-1'), {
    orgId: org.orgId,
    clientId: site.clientId,
    operation: 'meta_rewrite',
    pageUrl: `${site.base}/services/drains`,
    pageId: site.pages.drains,
    payload: JSON.stringify({ action_item_id: ids.meta, page_id: site.pages.drains, proposed_content: '<title>Drains</title>' }),
    jobId: 1,
  })
  await readModelsAt(ts, dead.position)
  const result = await run(site.clientId).result
  t.same(
    result.edits.filter((e: any) => e.item_id === ids.meta).map((e: any) => e.edit_id),
    [dead.editId],
    "the dead job's edit is the item's edit",
  )
  t.equal((await editsOf(ts, site.clientId)).filter((e) => e.operation === 'meta_rewrite').length, 1, 'one meta_rewrite edit in all')
  t.equal((await statuses(ts, site.clientId)).get(ids.meta), 'in_progress')
  for (const edit of await editsOf(ts, site.clientId))
    t.ok(edit.payload.startsWith('{"action_item_id":'), `edit ${edit.id}: the payload starts with the item's id`)
})

t.test('an item that cannot be carried out now is skipped with its reason and stays pending', async (t) => {
  const site = await siteOf(ts, org.key, 'Sparse Plumbing')
  const { addActionItems } = await import('../../../commands/planning/action-items.js')
  const { systemContext } = await import('../../../commands/command-handler.js')
  const { item } = await import('./execute-support.js')
  const { added } = await addActionItems(
    ts.system.write,
    systemContext('test'),
    { clientId: site.clientId, callerOrgId: org.orgId, month: MONTH },
    [item('title_meta_rewrite', `${site.base}/no-such-page`, 'Rewrite a page that is not there')],
  )
  const result = await run(site.clientId).result
  t.match(result, { staged: 0, applied: 0, skipped: [{ item_id: added[0], reason: /names no page of the client/ }] })
  t.equal((await statuses(ts, site.clientId)).get(added[0]!), 'pending')
})

t.test('a language model writes the title and the draft page when configured', async (t) => {
  const site = await siteOf(ts, org.key, 'Model Plumbing')
  const ids = await monthOfWork(ts, org.orgId, site)
  const model: LanguageModel = {
    name: 'fake:writer-1',
    async complete(request) {
      if (request.system.includes('title tag'))
        return JSON.stringify({
          title: 'Drain Cleaning Austin | Model Plumbing',
          description: 'Drain cleaning in Austin by Model Plumbing. Hydro-jetting and camera inspection, booked online.',
        })
      return '<h1>Emergency Plumber</h1><p>Model Plumbing answers the phone.</p>'
    },
  }
  const result = await run(site.clientId, ++nextJob, 1, model).result
  const payloadOf = async (id: number) =>
    JSON.parse((await ts.call<any>('get_site_edit', { edit_id: result.edits.find((e: any) => e.item_id === id).edit_id }, org.key)).payload)
  t.match(await payloadOf(ids.meta), { title: 'Drain Cleaning Austin | Model Plumbing', writer: 'fake:writer-1' })
  t.match(await payloadOf(ids.page), {
    proposed_content: '<h1>Emergency Plumber</h1><p>Model Plumbing answers the phone.</p>',
    writer: 'fake:writer-1',
  })
})

t.test('a language model that fails or answers unusably: the built-in writers write it', async (t) => {
  const site = await siteOf(ts, org.key, 'Failing Model Plumbing')
  const ids = await monthOfWork(ts, org.orgId, site)
  const model: LanguageModel = {
    name: 'fake:broken-1',
    async complete(request) {
      if (request.system.includes('title tag')) throw new Error('provider down')
      return 'Sorry, I cannot help with that.'
    },
  }
  const result = await run(site.clientId, ++nextJob, 1, model).result
  t.match(result, { staged: 4, skipped: [] })
  const payloadOf = async (id: number) =>
    JSON.parse((await ts.call<any>('get_site_edit', { edit_id: result.edits.find((e: any) => e.item_id === id).edit_id }, org.key)).payload)
  t.match(await payloadOf(ids.meta), { writer: 'built-in', title: 'Drain Cleaning Austin | Failing Model Plumbing' })
  t.match(await payloadOf(ids.page), { writer: 'built-in', proposed_content: /<h1>Emergency Plumber in Austin<\/h1>/ })
})

t.test('from POST /api/v1/jobs to done, the current month by default', async (t) => {
  const site = await siteOf(ts, org.key, 'Posted Plumbing')
  const month = ts.system.write.clock().toISOString().slice(0, 7)
  const ids = await monthOfWork(ts, org.orgId, site, month)
  const created = await postJob(ts.app, org.key, { kind: 'execute_tier_a', client_id: site.clientId, payload: {} })
  t.equal(created.statusCode, 202, created.body)
  const done = await waitForJob(
    ts.app,
    org.key,
    created.json().job_id,
    (job) => ['done', 'failed', 'cancelled'].includes(job.status),
    60_000,
  )
  t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))
  t.match(done.result, { client_id: site.clientId, month, staged: 4, applied: 0, skipped: [] })
  t.equal((await statuses(ts, site.clientId, month)).get(ids.links), 'in_progress')
})
