/**
 * The public sandbox through the API (spec behaviour.md Authentication item 8): the published
 * key reads every read RPC on the sandbox organization's fictional history, cannot see other organizations,
 * and every write answers 403 sandbox_read_only with a hint, writing nothing. After a reset the key keeps
 * working on the fresh fixture and the retired client is gone.
 */
import t from 'tap'
import type { z } from 'zod'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'
import { resetSandbox, type SandboxDeps } from '../../ops/sandbox/seed.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { systemContext } from '../../commands/command-handler.js'
import { requestJob } from '../../commands/jobs/request.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

const sandboxDeps = (ts: TestSystem): SandboxDeps => ({
  write: ts.system.write,
  read: ts.system.read,
  db: ts.system.database.db,
  watermark: ts.system.watermark,
  log: ts.system.log,
})

interface Summary {
  months: string[]
  [key: string]: unknown
}

t.test('the sandbox key reads the fictional history', async (t) => {
  const ts = await startTestSystem(t)
  const other = await orgWithKey(ts, 'Real Agency')
  const otherClient = await ts.call<number>('add_client', clientPayload('Real Client'), other.key)
  const seeded = await resetSandbox(sandboxDeps(ts))
  const call = <T = any>(method: string, body: unknown) => ts.call<T>(method, body, SANDBOX_KEY)
  const clientId = seeded.clientId

  await t.test('the organization, client, services and locations', async (t) => {
    t.match(await call('get_organization', {}), { id: seeded.orgId, name: 'Sandbox Agency' })
    const client = await call('get_client', { client_id: clientId })
    t.match(client, { id: clientId, org_id: seeded.orgId, name: SANDBOX_CLIENT.name, slug: SANDBOX_CLIENT.slug, status: 'active' })
    t.same(client.services.sort(), SANDBOX_CLIENT.services.map((s) => s.name).sort())
    t.same(
      (await call<{ id: number }[]>('get_all_clients', {})).map((c) => c.id),
      [clientId],
      'one client',
    )
    const keys = await call<{ name: string; scopes: string }[]>('list_api_keys', {})
    t.match(keys, [{ name: 'Public sandbox key (read-only)', scopes: 'read' }], 'the sandbox key is its only key, read-only')
  })

  await t.test('get_aeo_summary shows several months that move', async (t) => {
    const summary = await call<Summary>('get_aeo_summary', { client_id: clientId })
    t.same(summary.months, seeded.months, 'every month of the history has captures')
    t.ok(summary.months.length >= 3, `${summary.months.length} months`)
    const byMonth = await Promise.all(summary.months.map((month) => call<Summary>('get_aeo_summary', { client_id: clientId, month })))
    const fingerprints = new Set(byMonth.map((s) => JSON.stringify({ ...s, month: undefined, months: undefined })))
    t.ok(fingerprints.size >= 3, `the months differ from each other (${fingerprints.size} distinct summaries)`)
    const presence = byMonth.map((s) => (s as unknown as { overall: { presence: { rate: number } } }).overall.presence.rate)
    t.ok(presence.at(-1)! > presence[0]!, `presence improves over the history (${presence.join(' → ')})`)
    const services = (byMonth.at(-1) as unknown as { services: { service: string }[] }).services.map((s) => s.service).sort()
    t.same(services, SANDBOX_CLIENT.services.map((s) => s.name).sort(), 'every service is sampled')
  })

  await t.test('captures, questions, runs and cadence', async (t) => {
    const captures = await call<{ id: number; month: string; engine: string }[]>('get_aeo_captures', { client_id: clientId, limit: 500 })
    t.ok(captures.length >= 30, `${captures.length} captures`)
    t.same([...new Set(captures.map((c) => c.engine))].sort(), ['claude', 'openai'])
    const queries = await call<{ id: number; active: boolean; source: string }[]>('get_aeo_queries', { client_id: clientId })
    t.ok(
      queries.every((q) => q.source === 'generated'),
      'generated questions',
    )
    t.ok(queries.some((q) => !q.active) && queries.some((q) => q.active), 'some deactivated, most active')
    const runs = await call<{ status: string }[]>('get_aeo_runs', { client_id: clientId, limit: 500 })
    t.ok(runs.length > 0 && runs.every((r) => r.status === 'done'), 'every run done, none left queued')
    t.match(
      await call('get_aeo_cadence', { client_id: clientId }),
      { enabled: false, samples_per_month: 1 },
      'a paused cadence: no sweep spends engine calls on fiction',
    )
  })

  await t.test('tracker items with status changes, and a filed report', async (t) => {
    const items = await call<{ id: number; status: string; note: string | null }[]>('get_aeo_items', { client_id: clientId })
    t.ok(items.length >= 4, `${items.length} items`)
    const statuses = new Set(items.map((i) => i.status))
    for (const status of ['open', 'in_progress', 'done']) t.ok(statuses.has(status), `an item is ${status}`)
    t.ok(
      items.some((i) => i.note),
      'notes recorded with the changes',
    )
    const reports = await call<{ month: string; url: string }[]>('get_aeo_reports', { client_id: clientId })
    t.same(
      reports.map((r) => r.month),
      [seeded.months.at(-2)],
      "last month's report is filed",
    )
    const file = await ts.app.inject({ method: 'GET', url: reports[0]!.url, headers: { authorization: `Bearer ${SANDBOX_KEY}` } })
    t.equal(file.statusCode, 200, 'the filed report downloads with the sandbox key')
    t.match(file.body, /Rapid Rooter Plumbing/)
  })

  await t.test("the latest month's compare report, filed and downloadable", async (t) => {
    const compare = await call<{ month: string; against_month: string; url: string }[]>('get_compare_reports_for_org', {})
    t.same(
      compare.map((r) => [r.month, r.against_month]),
      [[seeded.months.at(-1), seeded.months.at(-2)]],
      'one report: the latest month against the one before',
    )
    const file = await ts.app.inject({ method: 'GET', url: compare[0]!.url, headers: { authorization: `Bearer ${SANDBOX_KEY}` } })
    t.equal(file.statusCode, 200, 'the compare report downloads with the sandbox key')
    t.match(file.body, /Monthly comparison: Rapid Rooter Plumbing/)
  })

  await t.test('a client group with the sandbox client', async (t) => {
    const groups = await call<{ id: number; client_ids: number[]; active_member_count: number }[]>('get_all_client_groups', {})
    t.same(
      groups.map((g) => [g.client_ids, g.active_member_count]),
      [[[clientId], 1]],
      'one group, the client active in it',
    )
  })

  await t.test('a website project with its sitemap, copy and a template page; content pages on the site', async (t) => {
    const [project] = await call<{ id: number; kind: string; library_client_id: number }[]>('get_projects_for_client', {
      client_id: clientId,
    })
    t.match(project, { kind: 'rebuild', library_client_id: clientId })
    const sitemap = await call<{ slug: string; depth: number }[]>('get_sitemap_pages_for_project', { project_id: project!.id })
    t.same(
      sitemap.map((p) => [p.slug, p.depth]),
      [
        ['', 1],
        ['services', 1],
        ['drain-cleaning', 2],
        ['water-heater-repair', 2],
        ['contact', 1],
      ],
      'home, a services hub with two services, contact',
    )
    t.equal(await call<number>('count_unpushed_content_for_client', { client_id: clientId }), 2, 'two pages of copy, none pushed')
    const templatePages = await call<{ image_counts: { missing: number } }[]>('get_template_pages_for_project', { project_id: project!.id })
    t.same(
      templatePages.map((p) => p.image_counts.missing),
      [1],
      'the home page built from templates, one image still needed',
    )
    const contentPages = await call<{ status: string }[]>('list_content_pages', { client_id: clientId })
    t.same(contentPages.map((p) => p.status).sort(), ['draft', 'verified'])
    t.ok((await call<unknown[]>('get_section_templates', {})).length >= 6, 'the built-in section templates')
  })

  await t.test('every read RPC answers 200 with the sandbox key', async (t) => {
    const captures = await call<{ id: number }[]>('get_aeo_captures', { client_id: clientId, limit: 1 })
    const items = await call<{ id: number; item_key: string }[]>('get_aeo_items', { client_id: clientId })
    const queries = await call<{ id: number }[]>('get_aeo_queries', { client_id: clientId })
    // A job of the sandbox organization (recorded by the command: this system runs no job handlers).
    const job = await requestJob(ts.system.write, systemContext('test'), {
      orgId: seeded.orgId,
      kind: 'export_org',
      clientId: null,
      groupId: null,
      payload: {},
      meter: false,
      sandbox: false,
    })
    const keywords = await call<{ id: number; keyword: string }[]>('get_keywords_for_client', { client_id: clientId })
    const sets = await call<{ set_id: number }[]>('list_ad_copy_sets_for_client', { client_id: clientId })
    t.ok(keywords.length > 10 && sets.length === 1, 'generated keywords and a proposed ad copy set')
    const pages = await call<{ page_id: number }[]>('get_pages_for_client', { client_id: clientId })
    const edits = await call<{ edit_id: number }[]>('get_site_edits', { client_id: clientId })
    const surveys = await call<{ survey_id: number }[]>('get_surveys_for_client', { client_id: clientId })
    const rankChecks = await call<{ id: number }[]>('get_rank_checks', { client_id: clientId })
    const optimizations = await call<{ id: number }[]>('get_meta_optimizations', { client_id: clientId })
    const values: Record<string, unknown> = {
      job_id: job.jobId,
      keyword_id: keywords[0]!.id,
      keyword_text: keywords[0]!.keyword,
      set_id: sets[0]!.set_id,
      client_id: clientId,
      capture_id: captures[0]!.id,
      item_id: items[0]!.id,
      item_key: items[0]!.item_key,
      query_id: queries[0]!.id,
      slug: SANDBOX_CLIENT.slug,
      key: 'industry',
      agent_id: 'sandbox-server-agent',
      entity_type: 'client',
      entity_id: clientId,
      page_id: pages[0]!.page_id,
      edit_id: edits[0]!.edit_id,
      survey_id: surveys[0]!.survey_id,
      check_id: rankChecks[0]!.id,
      optimization_id: optimizations[0]!.id,
      target_date: '2026-10-15',
      period_start: '2026-10-01',
      period_end: '2026-10-28',
      level: 'query',
      page_url: SANDBOX_CLIENT.websiteUrl,
    }
    // Search Console captures have ids of their own (capture_id above names an AI Visibility capture).
    const gscCaptures = await call<{ id: number }[]>('list_gsc_keyword_captures', { client_id: clientId })
    const scanSessions = await call<{ session_id: number }[]>('list_scan_sessions', { client_id: clientId })
    const compareReports = await call<{ report_id: number }[]>('get_compare_reports_for_org', {})
    const actionItems = await call<{ id: number; month: string; action_type: string }[]>('get_action_items', { client_id: clientId })
    const groups = await call<{ id: number }[]>('get_all_client_groups', {})
    const [project] = await call<{ id: number }[]>('get_projects_for_client', { client_id: clientId })
    const sitemap = await call<{ id: number }[]>('get_sitemap_pages_for_project', { project_id: project!.id })
    const [templatePage] = await call<{ id: number }[]>('get_template_pages_for_project', { project_id: project!.id })
    const [contentPage] = await call<{ id: number }[]>('list_content_pages', { client_id: clientId })
    const [blogTopic] = await call<{ id: number }[]>('get_blog_topics_for_client', { client_id: clientId })
    const [sectionTemplate] = await call<{ id: number }[]>('get_section_templates', {})
    const [catalogEntry] = await call<{ template_id: number }[]>('list_template_catalog', { library_client_id: clientId })
    const [referenceDoc] = await call<{ id: number }[]>('get_org_reference_docs', {})
    const valuesOf: Record<string, Record<string, unknown>> = {
      get_gsc_capture: { capture_id: gscCaptures[0]!.id },
      get_gsc_capture_keywords: { capture_id: gscCaptures[0]!.id },
      get_scan_session: { session_id: scanSessions[0]!.session_id },
      get_latest_render: { url: SANDBOX_CLIENT.websiteUrl },
      get_entity_changes: { month: '2026-10' },
      get_entity_changes_between: { start: '2026-10-01', end: '2026-10-28' },
      get_org_cycle_overview: { month: seeded.months.at(-1), current_month: seeded.months.at(-1) },
      list_cycle_tier_a_todo: { month: seeded.months.at(-1) },
      get_action_item: { item_id: actionItems[0]!.id },
      find_action_item_id: { month: actionItems[0]!.month, action_type: actionItems[0]!.action_type },
      get_compare_report: { report_id: compareReports[0]!.report_id },
      get_client_group: { group_id: groups[0]!.id },
      get_clients_in_group: { group_id: groups[0]!.id },
      get_website_project: { project_id: project!.id },
      get_sitemap_pages_for_project: { project_id: project!.id },
      get_generated_content_for_project: { project_id: project!.id },
      get_template_pages_for_project: { project_id: project!.id },
      get_elementor_pages: { project_id: project!.id },
      get_elementor_page: { project_id: project!.id, wp_post_id: 7 },
      get_elementor_page_stamps: { project_id: project!.id },
      get_sitemap_page: { page_id: sitemap[0]!.id },
      get_generated_content_for_page: { sitemap_page_id: sitemap[0]!.id },
      get_template_page: { page_id: templatePage!.id },
      get_content_page: { page_id: contentPage!.id },
      get_blog_topic: { topic_id: blogTopic!.id },
      count_scheduled_blog_topics_by_client: { month: '2026-01' },
      get_org_reference_doc: { doc_id: referenceDoc!.id },
      get_org_reference_doc_history: { doc_id: referenceDoc!.id },
      get_section_template: { template_id: sectionTemplate!.id },
      list_template_catalog: { library_client_id: clientId },
      get_template_catalog_entry: { library_client_id: clientId, template_id: catalogEntry!.template_id },
    }
    const reads = ts.system.registry.all().filter((r) => r.definition.access === 'read' && !r.definition.platformOnly)
    t.ok(reads.length > 20, `${reads.length} read methods`)
    for (const { definition } of reads) {
      const shape = definition.params.shape as Record<string, z.ZodType>
      const params: Record<string, unknown> = {}
      for (const [name, schema] of Object.entries(shape)) {
        const required = !schema.safeParse(undefined).success
        const own = valuesOf[definition.name] ?? {}
        if (name in own) params[name] = own[name]
        else if (name in values) params[name] = values[name]
        else if (required) t.fail(`${definition.name}: no sandbox value for required ${name}`)
      }
      const response = await ts.rpc(definition.name, params, SANDBOX_KEY)
      t.equal(response.statusCode, 200, `${definition.name}(${Object.keys(params).join(', ')}): ${response.body.slice(0, 200)}`)
    }
  })

  await t.test('other organizations answer like missing records', async (t) => {
    expectError(t, await ts.rpc('get_client', { client_id: otherClient }, SANDBOX_KEY), 404, 'not_found', 'another org’s client')
    expectError(t, await ts.rpc('get_organization', { org_id: other.orgId }, SANDBOX_KEY), 404, 'not_found', 'another org')
  })

  await t.test('every write RPC answers 403 sandbox_read_only with the hint, and writes nothing', async (t) => {
    const before = await eventCount(ts)
    const writes = ts.system.registry.all().filter((r) => r.definition.access !== 'read')
    t.ok(writes.length > 10, `${writes.length} write methods`)
    for (const { definition } of writes) {
      // Valid-looking bodies and empty ones alike: the refusal comes before validation.
      for (const body of [{}, { client_id: clientId }]) {
        const response = await ts.rpc(definition.name, body, SANDBOX_KEY)
        const envelope = expectError(t, response, 403, 'sandbox_read_only', definition.name)
        t.match(envelope.hint, /use your own key; the sandbox is read-only/i, `${definition.name}: the hint`)
      }
    }
    t.equal(await eventCount(ts), before, 'nothing was appended')
  })

  await t.test('a reset keeps the key working on the fresh fixture; the retired client is gone', async (t) => {
    const again = await resetSandbox(sandboxDeps(ts))
    t.equal(again.orgId, seeded.orgId, 'the same organization')
    t.same(again.retiredClientIds, [clientId])
    t.not(again.clientId, clientId, 'a new client id')
    expectError(t, await ts.rpc('get_client', { client_id: clientId }, SANDBOX_KEY), 404, 'not_found', 'the retired client')
    t.same(
      (await call<{ id: number }[]>('get_all_clients', { include_deleted: true })).map((c) => c.id),
      [again.clientId],
    )
    const groups = await call<{ client_ids: number[] }[]>('get_all_client_groups', {})
    t.same(
      groups.map((g) => g.client_ids),
      [[again.clientId]],
      'the same one group, with the fresh client only',
    )
    const summary = await call<Summary>('get_aeo_summary', { client_id: again.clientId })
    t.same(summary.months, again.months)
    t.ok((await call<unknown[]>('get_aeo_items', { client_id: again.clientId })).length >= 4)
    t.equal(
      (await ts.call<{ id: number }>('get_client', { client_id: otherClient }, other.key)).id,
      otherClient,
      'the other org is untouched',
    )
  })
})

t.test('keys other than the published one are not sandbox keys', async (t) => {
  const ts = await startTestSystem(t)
  const { key } = await orgWithKey(ts, 'Reader', 'read')
  expectError(t, await ts.rpc('add_client', clientPayload('X'), key), 403, 'insufficient_scope', 'a read-only org key')
  expectError(
    t,
    await ts.rpc('get_client', { client_id: 1 }, SANDBOX_KEY),
    401,
    'sandbox_disabled',
    'the sandbox key before any sandbox exists',
  )
})

t.test(
  'the sandbox key on a service without the sandbox: 401 sandbox_disabled saying SANDBOX_ENABLED; other unknown keys as before',
  async (t) => {
    const ts = await startTestSystem(t)
    const body = expectError(t, await ts.rpc('get_all_clients', {}, SANDBOX_KEY), 401, 'sandbox_disabled', 'REST')
    t.match(body.hint, /SANDBOX_ENABLED/, 'the hint names the switch')
    t.match(body.hint, /own key/, 'and says what to do instead')
    const mcp = await ts.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        authorization: `Bearer ${SANDBOX_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    t.equal(expectError(t, mcp, 401, 'sandbox_disabled', 'MCP').hint, body.hint, 'MCP: the same answer')
    t.ok(mcp.headers['www-authenticate'], 'still a bearer challenge')

    // Nothing about real keys: an unknown or revoked rrk_ key answers exactly as before.
    const unknown = expectError(
      t,
      await ts.rpc('get_all_clients', {}, 'rrk_not_a_real_key_0000000000000000'),
      401,
      'unauthorized',
      'an unknown key',
    )
    t.notMatch(unknown.hint ?? '', /sandbox|SANDBOX/i, 'no word about the sandbox for other keys')
  },
)
