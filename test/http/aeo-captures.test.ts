/**
 * Captures through the RPCs: ingest with inline analysis and tracking, every read, the raw record kept out
 * of the log and pruned after the retention period, 404 without leaks, and bad input that changes nothing.
 */
import pino from 'pino'
import t from 'tap'
import { analyze, ANALYSIS_VERSION } from '../../domain/aeo/analysis/analyze.js'
import { DEFAULT_AEO_SETTINGS } from '../../commands/aeo/settings.js'
import { DEFAULT_AEO_PROCESSOR_SETTINGS } from '../../processors/aeo/settings.js'
import { pruneExpiredRecords, recordPrunerProcessors } from '../../processors/aeo/record-pruner.js'
import { ingestCapture } from '../../commands/aeo/captures.js'
import { systemContext } from '../../commands/command-handler.js'
import type { DomainError } from '../../domain/shared/errors.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { addQuestion, enrolAcme, f } from './aeo-captures-support.js'
import { eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { DEFAULT_JOB_SETTINGS } from '../../processors/jobs/settings.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS } from '../../processors/search/settings.js'
import { ephemeralServiceKey } from '../../commands/secrets/service-key.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { systemResolver } from '../../commands/webhooks.js'
import { readModelsCaughtUp } from '../support/read-models.js'

const DAY = 24 * 60 * 60 * 1000

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  let now = new Date('2026-10-15T12:00:00.000Z')
  const clock = { set: (d: Date) => (now = d), get: () => now }
  const ts = await startTestSystem(t, { clock: () => now })
  const acme = await enrolAcme(ts)
  return { ts, clock, ...acme }
}

const ingest = (ts: TestSystem, key: string, body: Record<string, unknown>) => ts.call<number>('ingest_aeo_capture', body, key)

async function recordRows(ts: TestSystem): Promise<number> {
  const { rows } = await ts.database.pool.query<{ n: number }>('select count(*)::int as n from aeo_capture_records')
  return rows[0]!.n
}

t.test('ingest analyzes inline, tracks the findings and every read shows the capture', async (t) => {
  const { ts, org, clientId, queryId, costQueryId } = await setup(t)
  const record = { id: 'resp_1', output: [{ type: 'message', content: 'hello' }] }
  const first = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'ChatGPT',
    answer_text: f.absent,
    citations: f.absentCitations,
    retrieved: ['https://acmeplumbing.com/'],
    record_json: record,
    model: 'gpt-5',
    surface: 'web',
    searched: true,
  })
  t.ok(Number.isInteger(first) && first > 0, 'a capture id')

  const capture = await ts.call('get_aeo_capture', { capture_id: first }, org.key)
  const expected = analyze(f.input(f.absent, f.absentCitations, f.bestOf, [{ url: 'https://acmeplumbing.com/' }]))
  t.match(capture, {
    id: first,
    client_id: clientId,
    org_id: org.orgId,
    query_id: queryId,
    engine: 'chatgpt-web',
    month: '2026-10',
    run_id: null,
    model: 'gpt-5',
    surface: 'web',
    searched: true,
    analysis_version: ANALYSIS_VERSION,
    record_pruned: false,
    record_json: JSON.stringify(record),
    record_bytes: JSON.stringify(record).length,
  })
  t.strictSame(capture.report_json, JSON.parse(JSON.stringify(expected)), 'the report is the analysis of the answer')
  t.strictSame(capture.retrieved, [{ url: 'https://acmeplumbing.com/' }])

  // The log holds the answer and the report, the record only by size and hash.
  const [ingested] = await streamEvents(ts, `aeo_capture-${first}`)
  t.equal(ingested!.type, 'AeoCaptureIngested')
  t.equal(ingested!.metadata.org_id, org.orgId, 'the organization is on the event')
  t.equal(ingested!.data.record_bytes, JSON.stringify(record).length)
  t.match(ingested!.data.record_sha256, /^[0-9a-f]{64}$/)
  t.notOk(JSON.stringify(ingested!.data).includes('resp_1'), 'the raw record is not in the log')
  const [trackedEvent] = await streamEvents(ts, `aeo_tracker-${clientId}`)
  t.equal(trackedEvent!.type, 'AeoCaptureTracked')
  t.match(trackedEvent!.data, {
    capture_id: first,
    query_id: queryId,
    engine: 'chatgpt-web',
    month: '2026-10',
    scorecard: { present: false },
    carried: [],
    resolved: [],
  })
  t.strictSame(
    trackedEvent!.data.opened.map((o: { item_key: string }) => o.item_key).sort(),
    expected.findings.map((x) => x.item_key).sort(),
  )

  // A string record is kept as given; month given; a later month. (A run_id must name a real run of the
  // same client, question and engine: test/http/aeo-runs-ingest.test.ts.)
  const second = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: costQueryId,
    engine: 'claude',
    answer_text: f.onlyCited,
    citations: f.onlyCitedCitations,
    month: '2026-11',
    run_id: null,
    record_json: '<html>raw</html>',
  })
  const third = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'gemini',
    answer_text: f.namedFirst,
    citations: f.namedFirstCitations,
    month: '2026-09',
  })
  const secondCapture = await ts.call('get_aeo_capture', { capture_id: second }, org.key)
  t.match(secondCapture, {
    record_json: '<html>raw</html>',
    month: '2026-11',
    run_id: null,
    engine: 'claude',
    model: '',
    surface: '',
    searched: null,
  })
  t.equal((await ts.call('get_aeo_capture', { capture_id: third })).record_json, '', 'no record given: empty (platform key reads too)')

  const all = await ts.call<any[]>('get_aeo_captures', { client_id: clientId }, org.key)
  t.strictSame(
    all.map((c) => c.id),
    [third, second, first],
    'newest first',
  )
  t.ok(
    all.every((c) => !('record_json' in c) && typeof c.report_json.scorecard === 'object'),
    'listings carry report_json, not record_json',
  )
  t.strictSame(
    (await ts.call<any[]>('get_aeo_captures', { client_id: clientId, month: '2026-10' }, org.key)).map((c) => c.id),
    [first],
  )
  t.strictSame(
    (await ts.call<any[]>('get_aeo_captures', { client_id: clientId, query_id: queryId }, org.key)).map((c) => c.id),
    [third, first],
  )
  t.strictSame(
    (await ts.call<any[]>('get_aeo_captures', { client_id: clientId, limit: 1 }, org.key)).map((c) => c.id),
    [third],
  )
  expectError(
    t,
    await ts.rpc('get_aeo_captures', { client_id: clientId, limit: 501 }, org.key),
    400,
    'validation_failed',
    'limit is bounded',
  )

  t.strictSame(await ts.call('get_aeo_months', { client_id: clientId }, org.key), ['2026-09', '2026-10', '2026-11'])
  const records = await ts.call<any[]>('get_aeo_capture_records', { client_id: clientId }, org.key)
  t.strictSame(
    records.map((r) => [r.capture_id, r.record_json, r.pruned]),
    [
      [third, '', false],
      [second, '<html>raw</html>', false],
      [first, JSON.stringify(record), false],
    ],
  )
})

t.test('another organization sees nothing: every capture read and the ingest answer like a missing id', async (t) => {
  const { ts, org, clientId, queryId } = await setup(t)
  const other = await orgWithKey(ts, 'Other Agency')
  const captureId = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
  })
  const missing = captureId + 1000
  const foreign = expectError(t, await ts.rpc('get_aeo_capture', { capture_id: captureId }, other.key), 404, 'not_found')
  const absent = expectError(t, await ts.rpc('get_aeo_capture', { capture_id: missing }, other.key), 404, 'not_found')
  t.strictSame(withoutIds(foreign, [captureId]), withoutIds(absent, [missing]), 'same body as a missing capture')
  for (const method of ['get_aeo_captures', 'get_aeo_months', 'get_aeo_capture_records']) {
    const a = expectError(t, await ts.rpc(method, { client_id: clientId }, other.key), 404, 'not_found', method)
    const b = expectError(t, await ts.rpc(method, { client_id: clientId + 1000 }, other.key), 404, 'not_found', method)
    t.strictSame(withoutIds(a, [clientId]), withoutIds(b, [clientId + 1000]), `${method}: same body`)
  }
  const before = await eventCount(ts)
  const a = expectError(
    t,
    await ts.rpc(
      'ingest_aeo_capture',
      { client_id: clientId, query_id: queryId, engine: 'claude', answer_text: 'x', citations: [] },
      other.key,
    ),
    404,
    'not_found',
  )
  const b = expectError(
    t,
    await ts.rpc(
      'ingest_aeo_capture',
      { client_id: clientId + 1000, query_id: queryId, engine: 'claude', answer_text: 'x', citations: [] },
      other.key,
    ),
    404,
    'not_found',
  )
  t.strictSame(withoutIds(a, [clientId]), withoutIds(b, [clientId + 1000]))
  t.equal(await eventCount(ts), before, 'nothing appended')
})

t.test('bad input changes nothing: unknown engine, foreign or missing question, too large, deleted client', async (t) => {
  const { ts, org, clientId, queryId } = await setup(t)
  const otherClient = await ts.call<number>(
    'add_client',
    { client: { name: 'Heaters Ltd', website_url: 'https://heaters.example.com' } },
    org.key,
  )
  const otherQuestion = await addQuestion(ts, otherClient, org.orgId)
  const base = { client_id: clientId, query_id: queryId, engine: 'claude', answer_text: f.absent, citations: f.absentCitations }
  const before = await eventCount(ts)
  const rowsBefore = await recordRows(ts)

  const engine = expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, engine: 'bard' }, org.key),
    400,
    'aeo_engine_unsupported',
    'unknown engine',
  )
  t.match(engine.detail, /unsupported engine "bard"/)
  expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, query_id: otherQuestion }, org.key),
    404,
    'not_found',
    "another client's question",
  )
  expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, query_id: otherQuestion + 1000 }, org.key),
    404,
    'not_found',
    'a missing question',
  )
  expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, answer_text: 'x'.repeat(200_001) }, org.key),
    400,
    'validation_failed',
    'answer too long',
  )
  expectError(t, await ts.rpc('ingest_aeo_capture', { ...base, citations: [{ url: '' }] }, org.key), 400, 'validation_failed', 'empty url')
  expectError(t, await ts.rpc('ingest_aeo_capture', { ...base, month: '2026-13' }, org.key), 400, 'validation_failed', 'bad month')
  expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, record_json: 'y'.repeat(950_000) }, org.key),
    400,
    'validation_failed',
    'record too large',
  )
  expectError(
    t,
    await ts.rpc('ingest_aeo_capture', { ...base, answer_text: 'z'.repeat(1_100_000) }, org.key),
    413,
    'body_too_large',
    'body over the limit',
  )
  expectError(t, await ts.rpc('ingest_aeo_capture', { ...base, extra: 1 }, org.key), 400, 'validation_failed', 'unknown key')
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.equal(await recordRows(ts), rowsBefore, 'no raw record stored')

  // The server agent calls the command directly: held to the same contract, coded errors, nothing written.
  const direct = (over: Partial<Parameters<typeof ingestCapture>[2]>) =>
    ingestCapture({ ...ts.system.write, db: ts.system.database.db }, systemContext('test'), {
      callerOrgId: null,
      clientId,
      queryId,
      engine: 'claude',
      answerText: f.absent,
      citations: [],
      ...over,
    }).then(
      () => 'written',
      (error: DomainError) => error.code,
    )
  t.equal(await direct({ model: 'm'.repeat(201) }), 'validation_failed', 'model too long')
  t.equal(
    await direct({ citations: Array.from({ length: 501 }, (_, i) => ({ url: `https://e${i}.example.com` })) }),
    'validation_failed',
    'too many citations',
  )
  t.equal(await direct({ answerText: 'a'.repeat(200_001) }), 'validation_failed', 'answer too long')
  t.equal(await direct({ month: '26-01' }), 'validation_failed', 'bad month')
  t.equal(await direct({ queryId: otherQuestion }), 'not_found', "another client's question")
  t.equal(await eventCount(ts), before, 'nothing appended by direct calls')
  t.equal(await recordRows(ts), rowsBefore, 'no raw record stored by direct calls')
  t.equal(
    await direct({ citations: [{ url: 'https://ok.example.com', title: 't'.repeat(900) }] }),
    'written',
    'an over-long title is cut, not refused',
  )

  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, org.key)
  const deletedBefore = await eventCount(ts)
  expectError(t, await ts.rpc('ingest_aeo_capture', base, org.key), 409, 'client_deleted')
  t.equal(await eventCount(ts), deletedBefore, 'nothing appended for a deleted client')
})

t.test('raw records older than the retention period are pruned to empty; reports stay', async (t) => {
  const { ts, clock, org, clientId, queryId } = await setup(t)
  const old = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
    record_json: { old: true },
  })
  clock.set(new Date(clock.get().getTime() + 60 * DAY))
  const recent = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'openai',
    answer_text: f.absent,
    citations: [],
    record_json: { recent: true },
  })
  const deps = { write: ts.system.write, db: ts.system.database.db, aeo: { ...DEFAULT_AEO_SETTINGS, recordRetentionDays: 90 } }

  t.equal(await pruneExpiredRecords(deps), 0, 'nothing is 90 days old yet')
  clock.set(new Date(clock.get().getTime() + 31 * DAY))
  const reportBefore = (await ts.call('get_aeo_capture', { capture_id: old }, org.key)).report_json
  t.equal(await pruneExpiredRecords(deps), 1, 'the 91-day-old record is pruned')
  t.equal(await pruneExpiredRecords(deps), 0, 'a second pass finds nothing')
  const events = await streamEvents(ts, `aeo_capture-${old}`)
  t.strictSame(
    events.map((e) => e.type),
    ['AeoCaptureIngested', 'AeoCaptureRecordPruned'],
  )
  await readModelsCaughtUp(ts)
  const pruned = await ts.call('get_aeo_capture', { capture_id: old }, org.key)
  t.match(pruned, { record_json: '', record_pruned: true })
  t.strictSame(pruned.report_json, reportBefore, 'the report stays')
  t.equal((await ts.call('get_aeo_capture', { capture_id: recent }, org.key)).record_json, JSON.stringify({ recent: true }))
  const records = await ts.call<any[]>('get_aeo_capture_records', { client_id: clientId }, org.key)
  t.strictSame(
    records.map((r) => [r.capture_id, r.pruned, r.record_json]),
    [
      [recent, false, '{"recent":true}'],
      [old, true, ''],
    ],
  )

  // The processor runs a pass when it starts; stop() waits for it.
  clock.set(new Date(clock.get().getTime() + 61 * DAY))
  const [pruner] = recordPrunerProcessors({
    ...deps,
    store: ts.system.store,
    read: ts.system.read,
    watermark: ts.system.watermark,
    log: pino({ level: 'silent' }),
    aeoProcessors: DEFAULT_AEO_PROCESSOR_SETTINGS,
    jobs: DEFAULT_JOB_SETTINGS,
    languageModel: null,
    blobs: new PostgresBlobStore(ts.system.database.db),
    search: DEFAULT_SEARCH_PROVIDER_SETTINGS,
    monitoring: { ...DEFAULT_MONITORING_SETTINGS, resolve: systemResolver },
    serviceKey: ephemeralServiceKey(),
  })
  pruner!.start()
  await pruner!.stop()
  const { rows } = await ts.database.pool.query(
    'select capture_id, record_json, pruned_at is not null as pruned from aeo_capture_records order by capture_id',
  )
  t.strictSame(
    rows.map((r) => [Number(r.capture_id), r.record_json, r.pruned]),
    [
      [old, '', true],
      [recent, '', true],
    ],
  )
})
