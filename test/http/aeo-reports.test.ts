/**
 * AI Visibility summary, report page, branding and filed reports through HTTP: rates and verdicts over two
 * months of captures, share of voice, open items, queue and cadence; the white-label page (branding,
 * escaping, self-contained, {ok:false} for an empty month); filing and downloading a report; and
 * organization isolation everywhere (another organization's client or file answers like a missing one).
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { captureBatch, insertCadence, insertCaptures, insertItem, insertQuestion, insertRuns } from '../support/aeo-report-fixtures.js'
import { clientPayload, eventCount, expectError, keyFor, orgWithKey, streamEvents, withoutIds, type OrgWithKey } from './helpers.js'

const NOW = new Date('2026-03-15T12:00:00.000Z')
const HOSTILE = `<script>alert("pwn")</script> & <img src=x onerror=alert(1)> Sons`

interface World {
  ts: TestSystem
  a: OrgWithKey
  b: OrgWithKey
  client: number
  empty: number
  foreign: number
}

/** Two organizations; org A's client has captures in 2026-01 and 2026-02, items, runs and a cadence. */
async function world(t: Parameters<typeof startTestSystem>[0]): Promise<World> {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const a = await orgWithKey(ts, 'Acme Agency')
  const b = await orgWithKey(ts, 'Bravo Agency')
  const client = await ts.call<number>(
    'add_client',
    clientPayload('Plumbers', { name: HOSTILE, website_url: 'https://client.example.com' }),
    a.key,
  )
  const empty = await ts.call<number>('add_client', clientPayload('Quiet Client'), a.key)
  const foreign = await ts.call<number>('add_client', clientPayload('Bravo Client'), b.key)
  const read = ts.system.read
  const base = { clientId: client, orgId: a.orgId }
  const drains = await insertQuestion(read, { ...base, service: 'Drain cleaning', prompt: 'best drain cleaning in Austin' })
  const heaters = await insertQuestion(read, { ...base, service: 'Water heaters', prompt: 'who fixes water heaters near me' })
  const sources = [
    { domain: 'client.example.com', class: 'own', count: 2 },
    { domain: 'yelp.com', class: 'directory', count: 1 },
    { domain: 'retrieved-only.example.org', class: 'other', count: 0 },
  ]
  await insertCaptures(read, [
    ...captureBatch({ ...base, queryId: drains, month: '2026-01' }, 20, 2, 1),
    ...captureBatch({ ...base, queryId: heaters, month: '2026-01' }, 10, 5, 2),
    ...captureBatch({ ...base, queryId: drains, month: '2026-02', entities: ['Ace Plumbing', "Bob's Drains"] }, 20, 18, 10).map((c, i) =>
      i < 5 ? { ...c, sources } : c,
    ),
    ...captureBatch({ ...base, queryId: heaters, month: '2026-02', engine: 'openai', entities: ['ace plumbing'] }, 10, 6, 2),
  ])
  await insertItem(read, {
    ...base,
    tier: 'C',
    title: 'Claim the Google Business profile',
    status: 'in_progress',
    evidence: 'not listed on maps',
  })
  await insertItem(read, { ...base, tier: 'A', title: 'Add a drain cleaning page', status: 'open' })
  await insertItem(read, { ...base, tier: 'B', title: 'Already done', status: 'done' })
  await insertItem(read, { ...base, tier: 'X', title: `Market ${HOSTILE}`, status: 'open', evidence: HOSTILE })
  await insertRuns(read, { ...base, queryId: drains, month: '2026-02', statuses: ['queued', 'queued', 'done', 'done', 'done', 'failed'] })
  await insertRuns(read, { ...base, queryId: drains, month: '2026-01', statuses: ['done', 'done', 'done', 'done'] })
  await insertCadence(read, { ...base, samplesPerMonth: 30, engines: ['claude', 'openai'] })
  return { ts, a, b, client, empty, foreign }
}

const tags = (html: string) => [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0])

t.test('AI Visibility reports over HTTP', async (t) => {
  const w = await world(t)
  const { ts, a, b } = w

  await t.test('get_aeo_summary: the latest month against the previous one', async (t) => {
    const s = await ts.call('get_aeo_summary', { client_id: w.client }, a.key)
    t.equal(s.month, '2026-02', 'defaults to the latest month with captures')
    t.equal(s.previous_month, '2026-01')
    t.strictSame(s.months, ['2026-01', '2026-02'])
    t.equal(s.captures, 30)
    t.strictSame(s.overall.presence, {
      numerator: 24,
      denominator: 30,
      rate: 0.8,
      ci95: [0.6269, 0.9049],
      previous: { numerator: 7, denominator: 30, rate: 0.2333, ci95: [0.1179, 0.4093] },
      verdict: 'moved up',
    })
    t.match(s.overall.named_first, {
      numerator: 12,
      denominator: 30,
      rate: 0.4,
      previous: { numerator: 3, denominator: 30 },
      verdict: 'within noise',
    })
    t.strictSame(
      s.services.map((x: any) => [
        x.service,
        x.captures,
        x.presence.numerator,
        x.presence.verdict,
        x.named_first.numerator,
        x.named_first.verdict,
      ]),
      [
        ['Drain cleaning', 20, 18, 'moved up', 10, 'moved up'],
        ['Water heaters', 10, 6, 'within noise', 2, 'within noise'],
      ],
    )
    t.strictSame(
      s.engines.map((x: any) => [x.engine, x.captures, x.presence.verdict]),
      [
        ['claude', 20, 'moved up'],
        ['openai', 10, 'no previous month'],
      ],
    )
    t.strictSame(s.share_of_voice, {
      client_mentions: 24,
      total_mentions: 74,
      rate: 0.3243,
      competitors: [
        { name: 'Ace Plumbing', mentions: 30, share: 0.4054 },
        { name: "Bob's Drains", mentions: 20, share: 0.2703 },
      ],
    })
    t.strictSame(s.open_items, { A: 1, B: 0, C: 1, X: 1, total: 3 })
    t.strictSame(s.queue, { queued: 2, claimed: 0, running: 0, done: 3, failed: 1, cancelled: 0, total: 6 })
    t.strictSame(s.cadence, { enabled: true, samples_per_month: 30, engines: ['claude', 'openai'], geo_state: 'TX' })
  })

  await t.test('get_aeo_summary for an earlier month, and for a client without captures', async (t) => {
    const jan = await ts.call('get_aeo_summary', { client_id: w.client, month: '2026-01' }, a.key)
    t.equal(jan.previous_month, null)
    t.match(jan.overall.presence, { numerator: 7, denominator: 30, previous: null, verdict: 'no previous month' })
    t.strictSame(jan.queue, { queued: 0, claimed: 0, running: 0, done: 4, failed: 0, cancelled: 0, total: 4 })
    t.strictSame(jan.share_of_voice.competitors, [])

    const quiet = await ts.call('get_aeo_summary', { client_id: w.empty }, a.key)
    t.equal(quiet.month, '2026-03', 'no captures: the current month')
    t.strictSame(quiet.months, [])
    t.match(quiet.overall.presence, { numerator: 0, denominator: 0, rate: null, ci95: [0, 1], verdict: 'no previous month' })
    t.strictSame(quiet.cadence, {}, 'never enrolled')
    t.strictSame(quiet.open_items, { A: 0, B: 0, C: 0, X: 0, total: 0 })

    const platform = await ts.call('get_aeo_summary', { client_id: w.client, org_id: a.orgId })
    t.equal(platform.captures, 30, 'a platform key passes org_id')
  })

  await t.test("another organization's client answers exactly like a missing one", async (t) => {
    for (const method of ['get_aeo_summary', 'aeo_report_html', 'get_aeo_reports']) {
      const foreign = expectError(t, await ts.rpc(method, { client_id: w.client }, b.key), 404, 'not_found', `${method} foreign`)
      const missing = expectError(t, await ts.rpc(method, { client_id: 999_999 }, b.key), 404, 'not_found', `${method} missing`)
      t.strictSame(withoutIds(foreign, [w.client]), withoutIds(missing, [999_999]), `${method}: same body`)
    }
    const before = await eventCount(ts)
    expectError(t, await ts.rpc('file_aeo_report', { client_id: w.client, month: '2026-02' }, b.key), 404, 'not_found')
    t.equal(await eventCount(ts), before, 'nothing recorded')
    expectError(t, await ts.rpc('get_aeo_summary', { client_id: w.client, month: '2026-13' }, a.key), 400, 'validation_failed')
  })

  await t.test('update_organization_branding validates and records only changes', async (t) => {
    const readOnly = await keyFor(ts, a.orgId, 'read')
    const before = await eventCount(ts)
    for (const bad of [
      { accent_color: 'red' },
      { accent_color: '#12345' },
      { logo_url: 'http://cdn.example.com/l.png' },
      { logo_url: 'javascript:alert(1)' },
      { name: '' },
      { color: '#ffffff' },
    ]) {
      expectError(t, await ts.rpc('update_organization_branding', bad, a.key), 400, 'validation_failed', JSON.stringify(bad))
    }
    expectError(
      t,
      await ts.rpc('update_organization_branding', { name: 'X' }),
      400,
      'org_id_required',
      'a platform key names the organization',
    )
    expectError(t, await ts.rpc('update_organization_branding', { name: 'X' }, readOnly.key), 403, 'insufficient_scope')
    t.equal(await eventCount(ts), before, 'refused calls record nothing')

    t.strictSame(await ts.call('get_organization_branding', {}, a.key), {
      org_id: a.orgId,
      name: 'Acme Agency',
      brand_name: null,
      logo_url: null,
      accent_color: null,
    })
    const set = await ts.call(
      'update_organization_branding',
      { name: `Acme ${HOSTILE}`, accent_color: '#FF0066', logo_url: 'https://cdn.example.com/logo.png' },
      a.key,
    )
    t.strictSame(set, {
      org_id: a.orgId,
      name: `Acme ${HOSTILE}`,
      brand_name: `Acme ${HOSTILE}`,
      logo_url: 'https://cdn.example.com/logo.png',
      accent_color: '#ff0066',
    })
    const events = await streamEvents(ts, `organization-${a.orgId}`)
    t.strictSame(events.at(-1), {
      type: 'OrganizationBrandingUpdated',
      data: { org_id: a.orgId, name: `Acme ${HOSTILE}`, logo_url: 'https://cdn.example.com/logo.png', accent_color: '#ff0066' },
      metadata: events.at(-1)!.metadata,
    })
    t.equal(events.at(-1)!.metadata.org_id, a.orgId)
    const count = await eventCount(ts)
    await ts.call('update_organization_branding', { accent_color: '#ff0066' }, a.key)
    t.equal(await eventCount(ts), count, 'the same value again records nothing')
    t.strictSame(await ts.call('get_organization_branding', {}, a.key), set, 'read back')
    t.equal((await ts.call('get_organization_branding', { org_id: b.orgId })).name, 'Bravo Agency', 'other organizations keep theirs')
  })

  await t.test('aeo_report_html: the branded, self-contained page', async (t) => {
    const report = await ts.call('aeo_report_html', { client_id: w.client }, a.key)
    t.equal(report.ok, true)
    t.equal(report.month, '2026-02')
    t.equal(report.trend_ready, true)
    t.strictSame(report.months, ['2026-01', '2026-02'])
    const html: string = report.html
    t.notMatch(html, /<script/i, 'no script, though the client, brand and an item carry one')
    t.strictSame(
      tags(html).filter((tag) => /\s(?:src|href|srcset|action|on\w+)\s*=/i.test(tag)),
      [],
      'no external reference or handler in any tag',
    )
    t.notMatch(html, /url\(|@import/i)
    t.match(
      html,
      '&#60;script&#62;alert(&#34;pwn&#34;)&#60;/script&#62; &#38; &#60;img src=x onerror=alert(1)&#62; Sons',
      'the client name, escaped',
    )
    t.match(html, 'Acme &#60;script&#62;', 'the brand name, escaped')
    t.match(html, '--accent:#ff0066', "the organization's accent")
    t.notMatch(html, 'cdn.example.com', 'the logo URL is not placed in the page (no external fetch)')
    t.match(html, '<svg', 'the trend chart')
    t.match(html, '24 of 30 answers', 'rate with its sample size')
    t.match(html, '62.7% – 90.5%', 'and its interval')
    t.match(html, 'Drain cleaning')
    t.match(html, 'client.example.com')
    t.match(html, 'yelp.com')
    t.notMatch(html, 'retrieved-only.example.org', 'a source only retrieved, never cited, is not in the sources table')
    t.match(html, 'Ace Plumbing')
    t.match(html, 'Add a drain cleaning page')
    t.match(html, 'Claim the Google Business profile')
    t.notMatch(html, 'Already done', 'done items are not in the action list')
    t.ok(html.indexOf('Add a drain cleaning page') < html.indexOf('Claim the Google Business profile'), 'tier A before tier C')

    const jan = await ts.call('aeo_report_html', { client_id: w.client, month: '2026-01' }, a.key)
    t.equal(jan.ok, true)
    t.equal(jan.trend_ready, false, 'one month so far: no trend')
    t.notMatch(jan.html, '<svg')

    const none = await ts.rpc('aeo_report_html', { client_id: w.client, month: '2025-12' }, a.key)
    t.equal(none.statusCode, 200, 'an empty month is an in-band answer')
    t.strictSame(none.json().result, { ok: false, error: 'no captures for 2025-12', month: '2025-12', months: ['2026-01', '2026-02'] })
    t.match(await ts.call('aeo_report_html', { client_id: w.empty }, a.key), { ok: false, month: '2026-03', months: [] })
  })

  await t.test('file_aeo_report stores the page; GET /api/v1/files serves it to its organization only', async (t) => {
    const before = await eventCount(ts)
    expectError(t, await ts.rpc('file_aeo_report', { client_id: w.client, month: '2025-12' }, a.key), 409, 'aeo_month_empty')
    expectError(t, await ts.rpc('file_aeo_report', { client_id: w.client }, a.key), 400, 'validation_failed', 'month is required')
    t.equal(await eventCount(ts), before, 'refused filings record nothing')

    const filed = await ts.call('file_aeo_report', { client_id: w.client, month: '2026-02' }, a.key)
    const path = `aeo-reports/${a.orgId}/${w.client}/2026-02.html`
    t.equal(filed.month, '2026-02')
    t.equal(filed.files.length, 1)
    const file = filed.files[0]
    t.match(file, { path, url: `/api/v1/files/${path}`, content_type: 'text/html; charset=utf-8', bytes: Number, sha256: /^[0-9a-f]{64}$/ })

    const download = await ts.app.inject({ method: 'GET', url: file.url, headers: { authorization: `Bearer ${a.key}` } })
    t.equal(download.statusCode, 200)
    t.equal(download.headers['content-type'], 'text/html; charset=utf-8')
    t.equal(Number(download.headers['content-length']), file.bytes)
    t.equal(download.headers.etag, `"${file.sha256}"`)
    t.match(String(download.headers['content-security-policy']), /sandbox/)
    t.equal(download.rawPayload.length, file.bytes)
    t.equal(createHash('sha256').update(download.rawPayload).digest('hex'), file.sha256, 'the body hashes to the ETag')
    const page = await ts.call('aeo_report_html', { client_id: w.client, month: '2026-02' }, a.key)
    t.equal(download.payload, page.html, 'the filed page is the page aeo_report_html renders')

    const cached = await ts.app.inject({
      method: 'GET',
      url: file.url,
      headers: { authorization: `Bearer ${a.key}`, 'if-none-match': `"${file.sha256}"` },
    })
    t.equal(cached.statusCode, 304, 'If-None-Match with the ETag')
    t.equal(cached.payload, '')

    const platform = await ts.app.inject({ method: 'GET', url: file.url, headers: { authorization: `Bearer ${ts.platformKey}` } })
    t.equal(platform.statusCode, 200, 'a platform key sees every file')

    const get = (url: string, key?: string) => ts.app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} })
    const foreign = expectError(t, await get(file.url, b.key), 404, 'not_found', 'another organization')
    const missingPath = `aeo-reports/${a.orgId}/${w.client}/2025-11.html`
    const missing = expectError(t, await get(`/api/v1/files/${missingPath}`, b.key), 404, 'not_found', 'a missing file')
    // Each request has its own request_id.
    t.strictSame(
      { ...foreign, detail: foreign.detail?.replace(path, '<path>'), request_id: '' },
      { ...missing, detail: missing.detail?.replace(missingPath, '<path>'), request_id: '' },
      'same body',
    )
    // The URL parser resolves dot segments before routing (no route), and an encoded one reaches the store's path rule.
    expectError(
      t,
      await get(`/api/v1/files/aeo-reports/../../etc/passwd`, a.key),
      404,
      'route_not_found',
      'a traversal never reaches the store',
    )
    expectError(t, await get(`/api/v1/files/aeo-reports/%2e%2e/x`, a.key), 404, 'not_found')
    expectError(t, await get(file.url), 401, 'unauthorized', 'no key')
    expectError(t, await get(file.url, 'rrk_nope'), 401, 'unauthorized', 'unknown key')
    const writeOnly = await keyFor(ts, a.orgId, 'write')
    expectError(t, await get(file.url, writeOnly.key), 403, 'insufficient_scope', 'the read scope is needed')

    const events = await streamEvents(ts, `aeo_reports-${w.client}`)
    t.equal(events.length, 1)
    t.strictSame(events[0]!.type, 'AeoReportFiled')
    t.strictSame(events[0]!.data, {
      client_id: w.client,
      month: '2026-02',
      files: [{ path, content_type: 'text/html; charset=utf-8', bytes: file.bytes, sha256: file.sha256 }],
    })
    t.equal(events[0]!.metadata.org_id, a.orgId, "the event carries the client's organization")

    const listed = await ts.call('get_aeo_reports', { client_id: w.client }, a.key)
    t.match(listed, [{ month: '2026-02', path, url: file.url, bytes: file.bytes, sha256: file.sha256, filed_at: String }])

    // Filing again replaces the file and records a new event (a new branding changes the page).
    await ts.call('update_organization_branding', { accent_color: '#00aa55' }, a.key)
    const again = await ts.call('file_aeo_report', { client_id: w.client, month: '2026-02' }, a.key)
    t.not(again.files[0].sha256, file.sha256, 'new content')
    const second = await get(file.url, a.key)
    t.equal(second.headers.etag, `"${again.files[0].sha256}"`)
    t.match(second.payload, '--accent:#00aa55')
    t.equal((await streamEvents(ts, `aeo_reports-${w.client}`)).length, 2, 'a second AeoReportFiled')
    const relisted = await ts.call('get_aeo_reports', { client_id: w.client }, a.key)
    t.equal(relisted.length, 1, 'still one file for the month')
    t.equal(relisted[0].sha256, again.files[0].sha256, 'the read model shows the latest filing')
    const count = await ts.database.pool.query<{ n: number }>('select count(*)::int as n from files where path = $1', [path])
    t.equal(count.rows[0]!.n, 1, 'one stored file')

    const head = await ts.app.inject({ method: 'HEAD', url: file.url, headers: { authorization: `Bearer ${a.key}` } })
    t.equal(head.statusCode, 200, 'HEAD answers with the headers')
    t.equal(head.headers.etag, second.headers.etag)
    t.equal(head.payload, '', 'and no body')

    await ts.call('file_aeo_report', { client_id: w.client, month: '2026-01', org_id: a.orgId })
    t.equal(
      (await ts.call('get_aeo_reports', { client_id: w.client }, a.key)).map((r: any) => r.month).join(','),
      '2026-02,2026-01',
      'platform filing, newest first',
    )
  })

  await t.test('a deleted client keeps its reports readable but cannot file new ones', async (t) => {
    await ts.call('set_client_status', { client_id: w.client, status: 'deleted' }, a.key)
    const before = await eventCount(ts)
    expectError(t, await ts.rpc('file_aeo_report', { client_id: w.client, month: '2026-02' }, a.key), 409, 'client_deleted')
    t.equal(await eventCount(ts), before, 'nothing recorded')
    t.equal((await ts.call('aeo_report_html', { client_id: w.client }, a.key)).ok, true)
    t.equal((await ts.call('get_aeo_reports', { client_id: w.client }, a.key)).length, 2)
  })
})
