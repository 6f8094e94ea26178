/**
 * export_org end to end (spec "Organization export", "Files and exports", Authentication 8):
 * POST /api/v1/jobs through HTTP with the real job runner, the zip downloaded from result.download_url and
 * opened with yauzl: every table as JSON and CSV, CSV headers = JSON keys, row counts = the manifest,
 * every sha256 right, the filed reports, no secret anywhere (API key plaintext and hash, webhook secret,
 * in the raw bytes and in every uncompressed file), nothing of another organization. Another organization's
 * key gets the same 404 as a missing file; list_org_exports lists it; after 7 days the expiry sweep
 * removes it (gone from the list, 404, file deleted). The sandbox key exports its own organization.
 */
import { createHash, randomBytes } from 'node:crypto'
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { fileReport } from '../../commands/aeo/reports.js'
import { approveOAuthGrant, exchangeOAuthCode, registerOAuthClient } from '../../commands/oauth.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { expireOrgExports } from '../../processors/exports/expiry.js'
import { exportOrgHandler } from '../../processors/jobs/kinds/export-org.js'
import { orgTableCatalog } from '../../projections/exports/org-tables.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { parseCsv, unzip } from '../support/zip.js'
import { jobContext } from '../processors/jobs/context.js'
import { clientPayload, expectError, orgWithKey, withoutIds } from './helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'
import { readModelsAt } from '../support/read-models.js'

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

let now = new Date('2026-11-20T09:30:00.000Z')
const ts = await startTestSystem(t, {
  clock: () => now,
  runProcessors: true,
  jobs: QUICK_JOBS,
  // The webhook below listens for job.failed only, so no delivery is attempted; the resolver never reaches the network.
  webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, resolve: async () => ['93.184.216.34'] },
})

async function download(ts: TestSystem, url: string, key: string) {
  return ts.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
}

async function runExport(ts: TestSystem, key: string, body: Record<string, unknown> = { kind: 'export_org' }) {
  const accepted = await postJob(ts.app, key, body)
  if (accepted.statusCode !== 202) throw new Error(`export_org answered ${accepted.statusCode}: ${accepted.body}`)
  const job = await waitForJob(ts.app, key, accepted.json().job_id, (j) => j.status !== 'queued' && j.status !== 'running', 60_000)
  if (job.status !== 'done') throw new Error(`export job ended ${job.status}: ${job.error}`)
  return job
}

// An organization with data in many tables, a second API key, a webhook, a filed report; and another
// organization whose data must not appear.
const acme = await orgWithKey(ts, 'Acme Agency')
const other = await orgWithKey(ts, 'Other Agency')
const second = await ts.call<{ id: number; key: string }>('create_api_key', { name: 'CI key', org_id: acme.orgId, scopes: 'read' })
const hook = await ts.call<{ id: number; secret: string }>(
  'register_webhook',
  { url: 'https://hooks.example.com/in', events: ['job.failed'], description: 'CRM' },
  acme.key,
)
const invite = await ts.call<{ invite_token: string }>('invite_org_member', { email: 'pat@acme.example', role: 'viewer' }, acme.key)
const clientId = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', {
    services: [{ name: 'Drain cleaning', description: 'jetting, "camera" inspection,\nsame day' }, 'Emergency Plumber'],
    locations: ['Austin, TX'],
  }),
  acme.key,
)
await ts.call('update_client', { client_id: clientId, name: 'Acme Plumbing, Heating & "Air"' }, acme.key)
const otherClient = await ts.call<number>('add_client', clientPayload('Zeta Secretive Roofing'), other.key)
const reportHtml = '<!doctype html><title>October</title><p>Presence 42%</p>\n'
const filed = await fileReport(
  ts.system.write,
  new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
  systemContext('test'),
  { orgId: acme.orgId, clientId, month: '2026-10', html: reportHtml },
)
await readModelsAt(ts, filed.position)
const otherFiled = await fileReport(
  ts.system.write,
  new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
  systemContext('test'),
  { orgId: other.orgId, clientId: otherClient, month: '2026-10', html: '<p>other org report</p>' },
)
await readModelsAt(ts, otherFiled.position)

// OAuth: an app the organization granted (its name belongs in the export, its tokens never), and another
// organization's app (nothing of it may appear).
const oauthMeta = { client_uri: null, logo_uri: null, software_id: null, software_version: null }
const ctx = systemContext('test')
const { clientId: acmeApp } = await registerOAuthClient(ts.system.write, ctx, {
  client_name: 'Claude Desktop',
  redirect_uris: ['https://claude.example/cb'],
  ...oauthMeta,
})
const { clientId: otherApp } = await registerOAuthClient(ts.system.write, ctx, {
  client_name: 'Qwerty Other App',
  redirect_uris: ['https://qwerty.example/cb'],
  ...oauthMeta,
})
async function grantTokens(orgId: number, app: number, redirectUri: string) {
  const verifier = randomBytes(32).toString('base64url')
  const codeChallenge = createHash('sha256').update(verifier).digest('base64url')
  const approved = await approveOAuthGrant(ts.system.write, ctx, {
    orgId,
    userId: 1,
    clientId: app,
    scopes: ['read', 'offline_access'],
    resource: null,
    redirectUri,
    codeChallenge,
  })
  const exchanged = await exchangeOAuthCode(ts.system.write, ctx, {
    code: approved.code,
    clientId: app,
    redirectUri,
    codeVerifier: verifier,
  })
  if (!exchanged.ok) throw new Error(`exchange refused: ${exchanged.detail}`)
  return exchanged.tokens
}
const acmeTokens = await grantTokens(acme.orgId, acmeApp, 'https://claude.example/cb')
await grantTokens(other.orgId, otherApp, 'https://qwerty.example/cb')
for (let i = 0; (await ts.system.read.selectFrom('oauth_access_tokens').select('token_hash').execute()).length < 2; i++) {
  if (i > 200) throw new Error('the OAuth read models did not catch up')
  await new Promise((resolve) => setTimeout(resolve, 50))
}

const job = await runExport(ts, acme.key)
const result = job.result

t.test('the job ends done with the documented result', async (t) => {
  t.match(result, {
    download_url: `/api/v1/exports/${acme.orgId}/${result.filename}`,
    filename: new RegExp(`^org-${acme.orgId}-20261120T0930\\d\\dZ-job-${job.job_id}\\.zip$`),
    size: Number,
    tables: Number,
    rows: Number,
    expires_at: '2026-11-27T09:30:00.000Z',
  })
  t.ok(result.size > 0 && result.tables > 10 && result.rows > 10, `${result.tables} tables, ${result.rows} rows, ${result.size} bytes`)
})

t.test('the zip: every table as JSON and CSV, counts and checksums as the manifest says, the reports', async (t) => {
  const response = await download(ts, result.download_url, acme.key)
  t.equal(response.statusCode, 200, response.statusCode === 200 ? '' : response.body)
  t.equal(response.headers['content-type'], 'application/zip')
  t.equal(response.headers['content-disposition'], `attachment; filename="${result.filename}"`)
  const bytes = response.rawPayload
  t.equal(bytes.length, result.size, 'the size the result states')
  const files = await unzip(bytes)
  const names = [...files.keys()]
  t.equal(names.at(-1), 'manifest.json', 'the manifest is last')
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'))
  t.match(manifest, {
    org_id: acme.orgId,
    job_id: job.job_id,
    created_at: '2026-11-20T09:30:00.000Z',
    expires_at: result.expires_at,
    position: String,
  })
  t.equal(manifest.tables.length, result.tables)
  t.equal(manifest.rows, result.rows)

  // Every table the catalog reaches is in the zip; nothing in the read models is left unreached.
  const catalog = await orgTableCatalog(ts.system.database.db, LIVE_SCHEMA)
  t.same(catalog.unreached, [], 'every read-model table is reached by a scoping rule, or left out with a reason')
  t.same(
    Object.keys(manifest.not_exported).sort(),
    ['oauth_access_tokens', 'projection_checkpoint', 'section_templates'],
    'what is left out whole, with reasons',
  )
  t.notOk(
    manifest.tables.some((x: any) => x.name === 'oauth_access_tokens'),
    'access-token digests are not exported',
  )
  t.same(
    manifest.tables.map((x: any) => x.name),
    catalog.tables.map((x) => x.name),
    'every organization table is exported',
  )
  for (const expected of [
    'organizations',
    'api_keys',
    'org_members',
    'member_invites',
    'clients',
    'client_services',
    'client_locations',
    'webhooks',
    'aeo_reports',
    'org_activity',
    'jobs',
  ]) {
    t.ok(
      manifest.tables.some((x: any) => x.name === expected && x.rows > 0),
      `${expected} has rows`,
    )
  }

  for (const table of manifest.tables) {
    const json = files.get(`tables/${table.name}.json`)
    const csv = files.get(`tables/${table.name}.csv`)
    t.ok(json && csv, `${table.name}: both files`)
    if (!json || !csv) continue
    const rows = JSON.parse(json.toString('utf8'))
    t.equal(rows.length, table.rows, `${table.name}: JSON rows = manifest (${table.rows})`)
    const records = parseCsv(csv.toString('utf8'))
    t.same(records[0], table.columns, `${table.name}: CSV header = the columns`)
    for (const row of rows) {
      if (!t.same(Object.keys(row), records[0], `${table.name}: JSON keys = CSV header`)) break
    }
    t.equal(records.length - 1, table.rows, `${table.name}: CSV rows = manifest`)
    for (const row of rows) {
      if (row.org_id !== undefined && row.org_id !== acme.orgId) t.fail(`${table.name}: a row of organization ${row.org_id}`)
    }
  }
  // CSV quoting survives commas, quotes and newlines: the client's name and the service description.
  const clientsCsv = parseCsv(files.get('tables/clients.csv')!.toString('utf8'))
  const nameAt = clientsCsv[0]!.indexOf('name')
  t.equal(clientsCsv[1]![nameAt], 'Acme Plumbing, Heating & "Air"')
  const services = JSON.parse(files.get('tables/client_services.json')!.toString('utf8'))
  t.ok(
    services.some((s: any) => s.description === 'jetting, "camera" inspection,\nsame day'),
    'JSON keeps the text exactly',
  )
  const servicesCsv = parseCsv(files.get('tables/client_services.csv')!.toString('utf8'))
  t.ok(
    servicesCsv.some((r) => r.includes('jetting, "camera" inspection,\nsame day')),
    'and so does the CSV, quoted',
  )

  // Checksums: every file but the manifest is listed with the sha256 and size of its content.
  const listed = new Map<string, any>(manifest.files.map((f: any) => [f.path, f]))
  t.same([...listed.keys()].sort(), names.filter((n) => n !== 'manifest.json').sort(), 'the manifest lists every file')
  for (const [name, content] of files) {
    if (name === 'manifest.json') continue
    t.equal(listed.get(name)?.sha256, sha256(content), `${name}: sha256`)
    t.equal(listed.get(name)?.bytes, content.length, `${name}: bytes`)
  }

  // The filed report, byte for byte; the other organization's is not there.
  t.same(
    manifest.reports.map((r: any) => r.file),
    [`reports/aeo-reports/${acme.orgId}/${clientId}/2026-10.html`],
  )
  t.equal(files.get(`reports/aeo-reports/${acme.orgId}/${clientId}/2026-10.html`)?.toString('utf8'), reportHtml)

  // No secret, anywhere: raw bytes and every uncompressed file.
  const secrets: Record<string, string> = {
    'the owner key': acme.key,
    "the owner key's sha256": sha256(acme.key),
    'the second key': second.key,
    "the second key's sha256": sha256(second.key),
    'the webhook secret': hook.secret,
    'the invite token': invite.invite_token,
    'the OAuth access token': acmeTokens.accessToken,
    "the OAuth access token's sha256": sha256(acmeTokens.accessToken),
    'the OAuth refresh token': acmeTokens.refreshToken!,
    "the OAuth refresh token's sha256": sha256(acmeTokens.refreshToken!),
    "the invite token's sha256": sha256(invite.invite_token),
    'the platform key': ts.platformKey,
    "the platform key's sha256": sha256(ts.platformKey),
  }
  const everything = [bytes, ...files.values()]
  for (const [what, secret] of Object.entries(secrets)) {
    t.notOk(
      everything.some((b) => b.includes(secret)),
      `${what} appears nowhere`,
    )
  }
  t.notOk(
    everything.some((b) => b.includes('whsec_')),
    'not even a webhook secret prefix (hint)',
  )
  const apiKeys = manifest.tables.find((x: any) => x.name === 'api_keys')
  t.same(apiKeys.excluded_columns, ['key_hash', 'key_hint'], 'the manifest names what was left out')
  // Credential digests of people (invite and reset links, sessions) are left out of every table that has them.
  for (const table of manifest.tables) {
    t.notOk(
      table.columns.some((c: string) => /hash|secret|token|password|hint/.test(c)),
      `${table.name}: no credential column exported`,
    )
  }
  for (const [name, column] of [
    ['member_invites', 'token_hash'],
    ['password_resets', 'token_hash'],
    ['user_sessions', 'session_hash'],
  ] as const) {
    const table = manifest.tables.find((x: any) => x.name === name)
    if (table) t.ok(table.excluded_columns.includes(column), `${name}.${column} excluded`)
  }
  // Nothing of the other organization, its OAuth app included; the organization's own app is there.
  for (const b of files.values())
    if (b.includes('Zeta Secretive Roofing') || b.includes('other org report') || b.includes('Qwerty Other App'))
      t.fail("another organization's data in the zip")
  t.same(
    JSON.parse(files.get('tables/oauth_clients.json')!.toString('utf8')).map((c: any) => c.client_name),
    ['Claude Desktop'],
    "the app of the organization's grant, only",
  )
  t.equal(JSON.parse(files.get('tables/oauth_grants.json')!.toString('utf8')).length, 1, 'its grant')
})

t.test("the download: another organization's key answers exactly like a missing file; the platform key may fetch", async (t) => {
  const foreign = await download(ts, result.download_url, other.key)
  const missing = await download(ts, `/api/v1/exports/${acme.orgId}/org-${acme.orgId}-20261120T093000Z-job-999999.zip`, acme.key)
  const missingElsewhere = await download(ts, `/api/v1/exports/${other.orgId}/${result.filename}`, other.key)
  expectError(t, foreign, 404, 'not_found')
  expectError(t, missing, 404, 'not_found')
  expectError(t, missingElsewhere, 404, 'not_found')
  // Each request has its own request_id; withoutIds leaves it out (and replaces no ids here).
  t.same(withoutIds(foreign.json(), []), withoutIds(missing.json(), []), 'the same body')
  t.same(withoutIds(foreign.json(), []), withoutIds(missingElsewhere.json(), []), 'the same body')
  expectError(
    t,
    await download(ts, `/api/v1/exports/${acme.orgId}/..%2F..%2Fetc%2Fpasswd`, acme.key),
    404,
    'not_found',
    'a path that is not an export name',
  )
  expectError(t, await download(ts, result.download_url, 'rrk_not_a_key'), 401, 'unauthorized')
  t.equal((await download(ts, result.download_url, ts.platformKey)).statusCode, 200, 'a platform key')
  t.equal((await download(ts, result.download_url, second.key)).statusCode, 200, 'another key of the same organization (read scope)')
})

t.test('list_org_exports lists it; a re-run of the job returns the same export', async (t) => {
  const listed = await ts.call<any[]>('list_org_exports', {}, acme.key)
  t.same(listed, [
    {
      filename: result.filename,
      size: result.size,
      created_at: '2026-11-20T09:30:00.000Z',
      expires_at: result.expires_at,
      download_url: result.download_url,
    },
  ])
  t.same(await ts.call('list_org_exports', {}, other.key), [], 'not to another organization')
  t.same(await ts.call('list_org_exports', { org_id: acme.orgId }), listed, 'a platform key names the organization')
  const again = await exportOrgHandler(
    jobContext(ts, {
      kind: 'export_org',
      jobId: job.job_id,
      orgId: acme.orgId,
      clientId: null as unknown as number,
      payload: {},
      attempt: 2,
    }),
  )
  t.same(again, result, 'attempt 2 finds its export recorded and returns it')
  t.equal((await ts.call<any[]>('list_org_exports', {}, acme.key)).length, 1, 'still one export')
})

t.test('after 7 days the expiry sweep removes it: gone from the list, 404, file deleted', async (t) => {
  now = new Date('2026-11-27T09:29:00.000Z')
  t.equal(
    await expireOrgExports({
      write: ts.system.write,
      read: ts.system.read,
      blobs: new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
      log: ts.system.log,
    }),
    0,
    'a minute early: nothing',
  )
  t.equal((await ts.call<any[]>('list_org_exports', {}, acme.key)).length, 1)
  now = new Date('2026-11-27T09:31:00.000Z')
  t.same(await ts.call('list_org_exports', {}, acme.key), [], 'past its 7 days it is no longer listed, even before the sweep')
  expectError(t, await download(ts, result.download_url, acme.key), 404, 'not_found', 'nor downloadable')
  t.equal(
    await expireOrgExports({
      write: ts.system.write,
      read: ts.system.read,
      blobs: new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
      log: ts.system.log,
    }),
    1,
    'the sweep expires it',
  )
  t.equal(
    await expireOrgExports({
      write: ts.system.write,
      read: ts.system.read,
      blobs: new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
      log: ts.system.log,
    }),
    0,
    'once',
  )
  const { rows } = await ts.database.pool.query(`select count(*)::int as n from files where path like 'exports/%'`)
  t.equal(rows[0].n, 0, 'the file is deleted')
  const events = await ts.database.pool.query(
    `select type, metadata->>'org_id' as org from es_events where stream_name = $1 order by stream_revision`,
    [`org_export-${job.job_id}`],
  )
  t.same(
    events.rows,
    [
      { type: 'OrgExportProduced', org: String(acme.orgId) },
      { type: 'OrgExportExpired', org: String(acme.orgId) },
    ],
    'both recorded, with the organization',
  )
  t.ok(
    ts.system.processors.some((p) => p.name === 'export-expiry'),
    'the sweep runs as a processor',
  )
  t.same(await ts.call('list_org_exports', {}, acme.key), [])
  expectError(t, await download(ts, result.download_url, acme.key), 404, 'not_found')
})

t.test('the sandbox key exports its own organization and downloads the zip', async (t) => {
  const seeded = await resetSandbox({
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  })
  const sandboxJob = await runExport(ts, SANDBOX_KEY)
  const response = await download(ts, sandboxJob.result.download_url, SANDBOX_KEY)
  t.equal(response.statusCode, 200, response.statusCode === 200 ? '' : response.body)
  const files = await unzip(response.rawPayload)
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'))
  t.equal(manifest.org_id, seeded.orgId)
  t.ok(manifest.tables.find((x: any) => x.name === 'clients').rows >= 1, 'the seeded client is in it')
  t.notOk(
    [response.rawPayload, ...files.values()].some((b) => b.includes(SANDBOX_KEY) || b.includes(sha256(SANDBOX_KEY))),
    'not even the public sandbox key or its hash',
  )
  expectError(
    t,
    await download(ts, sandboxJob.result.download_url, acme.key),
    404,
    'not_found',
    "another organization cannot fetch the sandbox's export",
  )
  expectError(t, await download(ts, `/api/v1/exports/${acme.orgId}/${result.filename}`, SANDBOX_KEY), 404, 'not_found')
})
