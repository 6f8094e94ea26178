/**
 * The public sandbox's operations: a reset leaves every other organization's rows
 * byte-for-byte unchanged (read models, raw capture records, files), deletes every row of the retired
 * clients, and a rebuild from position zero reaches the same state; the processors role seeds it at first
 * start and on its schedule; `npm run ops -- sandbox reset` works while the service runs, and replay --org of
 * the sandbox shows the seed.
 */
import t from 'tap'
import type { Kysely } from 'kysely'
import { loadConfig } from '../../ops/config.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import { rebuildReadModels } from '../../projections/rebuild.js'
import { CLIENT_TABLES, KEPT_AT_RESET } from '../../projections/sandbox/projector.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { loadSandbox, resetSandbox, resetSandboxIfDue, type SandboxDeps } from '../../ops/sandbox/seed.js'
import { sandboxProcessor } from '../../ops/sandbox/schedule.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { dumpSchema, dumpTable, listTables, waitForCatchUp, writeRealisticLog, type SchemaDump } from '../projections/helpers.js'
import { call, rpc, sandbox as opsBox, waitUntil } from './spawn.js'

const depsOf = (ts: TestSystem): SandboxDeps => ({
  write: ts.system.write,
  read: ts.system.read,
  db: ts.system.database.db,
  watermark: ts.system.watermark,
  log: ts.system.log,
})

type Row = Record<string, unknown>

/** Rows of the sandbox: its organization's, or about one of the clients it ever seeded. */
function sandboxRow(table: string, row: Row, orgId: number, clients: ReadonlySet<number>): boolean {
  if (row.org_id === orgId || row.agent_org_id === orgId) return true
  if (table === 'organizations' && row.id === orgId) return true
  return typeof row.client_id === 'number' && clients.has(row.client_id)
}

/** Every row of every read-model table, and of the public tables commands write, that is not the sandbox's. */
async function othersDump(db: Kysely<any>, orgId: number, clients: ReadonlySet<number>): Promise<SchemaDump> {
  const dump = await dumpSchema(db, LIVE_SCHEMA)
  delete dump.projection_checkpoint
  dump['public.aeo_capture_records'] = await dumpTable(db, 'public', 'aeo_capture_records')
  dump['public.files'] = await dumpTable(db, 'public', 'files')
  dump['public.file_chunks'] = (await dumpTable(db, 'public', 'file_chunks')).map((c) => ({
    ...c,
    org_id: dump['public.files']!.find((f) => f.path === c.path)?.org_id,
  }))
  const others: SchemaDump = {}
  for (const [table, rows] of Object.entries(dump))
    others[table] = rows.filter((row) => !sandboxRow(table.replace(/^public\./, ''), row, orgId, clients))
  return others
}

// Seeding the sandbox writes every area's fiction (search tracking's months of ranks and captures among it)
// several times over in this file; on CI's two busy cores that is past tap's default per-file limit.
t.setTimeout(900_000)

t.test('a reset touches no other organization, and a rebuild reaches the same state', async (t) => {
  const ts = await startTestSystem(t)
  // Three organizations with every kind of row (clients, keys, questions, runs, captures, items, reports);
  // the realistic log also creates and resets the sandbox once.
  await writeRealisticLog(ts)
  const db = ts.system.database.db
  const deps = depsOf(ts)
  const first = await loadSandbox(ts.system.write)
  const orgId = first.orgId!
  t.equal(first.seeds, 2, 'the realistic log seeded the sandbox twice')

  const before = await othersDump(db, orgId, new Set(first.everSeeded))
  const nonEmpty = Object.entries(before)
    .filter(([, rows]) => rows.length > 0)
    .map(([table]) => table)
  for (const table of [
    'organizations',
    'api_keys',
    'clients',
    'aeo_captures',
    'aeo_items',
    'aeo_reports',
    'org_activity',
    'public.aeo_capture_records',
    'public.files',
  ]) {
    t.ok(nonEmpty.includes(table), `other organizations have ${table} rows to compare`)
  }

  const second = await resetSandbox(deps)
  const third = await resetSandbox(deps)
  const state = await loadSandbox(ts.system.write)
  const everSeeded = new Set(state.everSeeded)
  t.equal(state.everSeeded.length, 4, 'four fixtures seeded, each with a new client')

  await t.test('every other organization is byte-for-byte unchanged', async (t) => {
    t.strictSame(await othersDump(db, orgId, everSeeded), before)
  })

  await t.test('every row of the retired clients is gone; the organization and key stay', async (t) => {
    const retired = state.everSeeded.filter((id) => id !== third.clientId)
    t.same(second.retiredClientIds, [first.clientIds[0]])
    t.same(third.retiredClientIds, [second.clientId])
    const dump = await dumpSchema(db, LIVE_SCHEMA)
    for (const [table, rows] of Object.entries(dump)) {
      const left = rows.filter((r) => retired.includes(r.client_id as number) || (table === 'clients' && retired.includes(r.id as number)))
      t.equal(left.length, 0, `${table}: no rows of retired clients`)
    }
    t.same(
      dump.clients!.filter((c) => c.org_id === orgId).map((c) => c.id),
      [third.clientId],
      'one client: the current fixture',
    )
    t.ok(
      dump.aeo_captures!.some((c) => c.client_id === third.clientId),
      'the current fixture has captures',
    )
    t.equal(dump.organizations!.filter((o) => o.id === orgId).length, 1, 'the organization stays')
    t.match(
      dump.api_keys!.filter((k) => k.org_id === orgId),
      [{ scopes: 'read', revoked_at: null }],
      'the one sandbox key stays',
    )
    const records = await db.selectFrom('aeo_capture_records').select('client_id').where('org_id', '=', orgId).execute()
    t.ok(
      records.length > 0 && records.every((r) => Number(r.client_id) === third.clientId),
      'raw capture records only of the current fixture',
    )
    const files = await db.selectFrom('files').select('path').where('org_id', '=', orgId).execute()
    const imageFiles = files.filter((f) => f.path.startsWith('images/'))
    t.ok(
      imageFiles.length > 0 && imageFiles.every((f) => f.path.startsWith(`images/${orgId}/${third.clientId}/`)),
      "image files only of the current fixture's client (every version of the retired clients' images deleted)",
    )
    t.same(
      files
        .map((f) => f.path)
        .filter((path) => !path.startsWith('images/'))
        .sort(),
      [
        `aeo-reports/${orgId}/${third.clientId}/${third.months.at(-2)}.html`,
        `compare-reports/${orgId}/${third.clientId}/${third.months.at(-1)}.html`,
      ],
      "only the current fixture's report files (its AI Visibility report and compare report)",
    )
  })

  await t.test('every read-model table with client rows is covered by the reset', async (t) => {
    const covered = new Set<string>([...CLIENT_TABLES, ...KEPT_AT_RESET, 'clients', 'org_activity'])
    for (const table of await listTables(db, LIVE_SCHEMA)) {
      const columns = Object.keys((await dumpTable(db, LIVE_SCHEMA, table))[0] ?? {})
      if (columns.includes('client_id')) t.ok(covered.has(table), `${table} has client_id: the sandbox projector deletes from it`)
    }
  })

  await t.test('a rebuild from position zero equals the incremental state', async (t) => {
    await waitForCatchUp(ts.system.store, db)
    const omit = { projection_checkpoint: ['position', 'events_applied', 'updated_at'] }
    const live = await dumpSchema(db, LIVE_SCHEMA, omit)
    await rebuildReadModels({ store: ts.system.store, db, projectors, group: MAIN_GROUP })
    await waitForCatchUp(ts.system.store, db)
    t.strictSame(await dumpSchema(db, LIVE_SCHEMA, omit), live)
  })
})

t.test('the processors role seeds the sandbox at first start, then resets it when due', async (t) => {
  const ts = await startTestSystem(t)
  const deps = depsOf(ts)
  const keeper = sandboxProcessor(deps, { enabled: true, resetIntervalHours: 0 })
  keeper.start()
  t.teardown(() => keeper.stop())
  const seeded = await waitUntil('the first seed', 120_000, async () => ((await loadSandbox(ts.system.write)).seeds > 0 ? true : undefined))
  t.ok(seeded)
  await keeper.stop()
  const state = await loadSandbox(ts.system.write)
  t.equal(state.seeds, 1, 'seeded once')
  t.equal((await ts.call<{ id: number }[]>('get_all_clients', {}, SANDBOX_KEY)).length, 1, 'the sandbox key reads it')

  t.equal(await resetSandboxIfDue(deps, () => false), null, 'not due: nothing happens')
  t.equal((await loadSandbox(ts.system.write)).seeds, 1)
  const reset = await resetSandboxIfDue(deps, () => true)
  t.same(reset?.retiredClientIds, state.clientIds, 'due: the fixture is replaced')

  const disabled = sandboxProcessor(deps, { enabled: false, resetIntervalHours: 24 })
  disabled.start()
  await disabled.stop()
  t.equal((await loadSandbox(ts.system.write)).seeds, 2, 'a disabled keeper does nothing')
})

t.test('settings: SANDBOX_ENABLED and SANDBOX_RESET_INTERVAL_HOURS', async (t) => {
  t.same(loadConfig({}).sandbox, { enabled: false, resetIntervalHours: 24 }, 'off by default; daily when on')
  t.same(loadConfig({ SANDBOX_ENABLED: 'true', SANDBOX_RESET_INTERVAL_HOURS: '0' }).sandbox, { enabled: true, resetIntervalHours: 0 })
  t.equal(loadConfig({ SANDBOX_ENABLED: '1' }).sandbox.enabled, true)
  t.throws(() => loadConfig({ SANDBOX_ENABLED: 'yes' }), /SANDBOX_ENABLED/)
  t.throws(() => loadConfig({ SANDBOX_RESET_INTERVAL_HOURS: '-1' }), /SANDBOX_RESET_INTERVAL_HOURS/)
})

t.test('the CLI: first start seeds, `sandbox reset` works while the service runs, replay shows the seed', async (t) => {
  const box = await opsBox(t)
  const served = await box.serve({ SANDBOX_ENABLED: 'true' })
  const url = served.baseUrl
  const org = await waitUntil('the first-start seed', 120_000, async () => {
    const response = await rpc(url, 'get_organization', {}, SANDBOX_KEY)
    return response.status === 200 ? (response.body.result as { id: number }) : undefined
  })
  // The organization appears before the seed's client does: wait for the client too (a reset meanwhile
  // would wait for the seed's lock, so the client seen here is the one it retires).
  const autoClient = await waitUntil('the first-start client', 120_000, async () => {
    const response = await rpc(url, 'get_all_clients', {}, SANDBOX_KEY)
    return (response.body.result as { id: number }[] | undefined)?.[0]
  })

  const usage = await box.run(['sandbox'])
  t.equal(usage.code, 2, 'sandbox without an action is a usage error')
  // The reset seeds the whole fiction again (three months of ranks among it): give it more than run()'s minute.
  const reset = await box.run(['sandbox', 'reset'], {}, 240_000)
  t.equal(reset.code, 0, `sandbox reset exits 0: ${reset.stderr}`)
  t.match(reset.stdout, new RegExp(`Sandbox reset \\(retired client ${autoClient!.id}\\): organization ${org.id}, client \\d+`))
  t.match(reset.stdout, SANDBOX_KEY, 'it prints the published key')
  const clients = await call<{ id: number }[]>(url, 'get_all_clients', {}, SANDBOX_KEY)
  t.equal(clients.length, 1)
  t.not(clients[0]!.id, autoClient!.id, 'the served API shows the fresh fixture')
  const summary = await call<{ months: string[] }>(url, 'get_aeo_summary', { client_id: clients[0]!.id }, SANDBOX_KEY)
  t.ok(summary.months.length >= 3, 'with its months')
  const refused = await rpc(url, 'add_client', { client: { name: 'x', website_url: 'https://x.example' } }, SANDBOX_KEY)
  t.match(refused, { status: 403, body: { code: 'sandbox_read_only', hint: /use your own key/i } })

  // Readers of the log stop before any transaction still open elsewhere (the running service's), so events
  // committed a moment ago may show on the next read: replay until the reset's seed is there (bounded).
  let replay = await box.run(['replay', '--org', String(org.id)])
  const seedsIn = (stdout: string) => stdout.split('\n').filter((line) => line.includes('"type":"SandboxSeeded"')).length
  for (let tries = 0; tries < 20 && replay.code === 0 && seedsIn(replay.stdout) < 2; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    replay = await box.run(['replay', '--org', String(org.id)])
  }
  t.equal(replay.code, 0, replay.stderr)
  const lines = replay.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; metadata: { org_id: number } })
  const types = new Set(lines.map((l) => l.type))
  for (const type of [
    'SandboxCreated',
    'OrganizationCreated',
    'ApiKeyCreated',
    'ClientAdded',
    'AeoQuestionAdded',
    'AeoQuestionUpdated',
    'AeoCadenceSet',
    'AeoRunCompleted',
    'AeoCaptureIngested',
    'AeoItemStatusChanged',
    'AeoReportFiled',
    'SandboxSeeded',
    'SandboxReset',
  ]) {
    t.ok(types.has(type), `replay shows ${type}`)
  }
  t.ok(
    lines.every((l) => l.metadata.org_id === org.id),
    'only the sandbox organization',
  )
  t.notMatch(replay.stdout, SANDBOX_KEY, 'the key itself never enters the log')
  const sandboxEvents = lines.filter((l) => l.type.startsWith('Sandbox') || l.type === 'ClientAdded').map((l) => l.type)
  t.equal(lines.filter((l) => l.type === 'SandboxSeeded').length, 2, `two seeds: first start and the reset (${sandboxEvents.join(', ')})`)
})
