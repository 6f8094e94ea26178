/**
 * Scans, pure: one open scan per client and type (and the cadence's "due"), a scan's take and lease, a batch
 * that repeats a URL counted once, reports refused to a worker that lost the scan, the end of a scan by its
 * worker or its caller, a closed session refused, and a scan interrupted too often.
 */
import t from 'tap'
import { scanCadence } from '../../domain/monitoring/scans/cadence.js'
import { clientScans, runByService } from '../../domain/monitoring/scans/client-scans.js'
import { type ScanPageResult, type SiteScanEvent, ZERO_COUNTS } from '../../domain/monitoring/scans/events.js'
import { addResults, isClaimable, MAX_SCAN_ATTEMPTS, siteScan } from '../../domain/monitoring/scans/site-scan.js'
import { spec } from './given-when-then.js'

const queue = (over: Record<string, unknown> = {}) => ({
  type: 'QueueSiteScan' as const,
  client_id: 7,
  scan_id: 2,
  scan_type: 'crawl',
  trigger: 'manual' as const,
  date: '2026-11-27',
  latest_closed: true,
  ...over,
})
const queued = (scanId: number, date = '2026-11-20', scanType = 'crawl') => ({
  type: 'SiteScanQueued' as const,
  data: { scan_id: scanId, client_id: 7, scan_type: scanType, trigger: 'manual' as const, date },
})

t.test('one open scan per client and type', async (t) => {
  const given = spec(clientScans)
  given()
    .when(queue())
    .then(t, [queued(2, '2026-11-27')])
  given(queued(1))
    .when(queue({ latest_closed: false }))
    .thenNothingHappens(t)
  given(queued(1))
    .when(queue({ latest_closed: true }))
    .then(t, [queued(2, '2026-11-27')])
  given(queued(1))
    .when(queue({ latest_closed: false, scan_type: 'render' }))
    .then(t, [queued(2, '2026-11-27', 'render')])
  given(queued(1, '2026-11-26'))
    .when(queue({ due: 'daily', trigger: 'cadence' }))
    .then(t, [{ type: 'SiteScanQueued', data: { scan_id: 2, client_id: 7, scan_type: 'crawl', trigger: 'cadence', date: '2026-11-27' } }])
  given(queued(1, '2026-11-27'))
    .when(queue({ due: 'daily', trigger: 'cadence' }))
    .thenNothingHappens(t)
  given(queued(1, '2026-11-24'))
    .when(queue({ due: 'weekly', trigger: 'cadence' }))
    .thenNothingHappens(t)
  t.equal(runByService('crawl'), true)
  t.equal(runByService('render'), true)
  t.equal(runByService('keywords'), false, 'an agent’s own session')
})

t.test('the cadence', async (t) => {
  const given = spec(scanCadence)
  const set = { type: 'ScanCadenceSet' as const, data: { client_id: 7, frequency: 'daily' as const, scan_type: 'crawl' } }
  given().when({ type: 'SetScanCadence', client_id: 7, frequency: 'daily', scan_type: 'crawl' }).then(t, [set])
  given(set).when({ type: 'SetScanCadence', client_id: 7, frequency: 'daily', scan_type: 'crawl' }).thenNothingHappens(t)
  given(set)
    .when({ type: 'SetScanCadence', client_id: 7, frequency: 'off', scan_type: 'crawl' })
    .then(t, [{ type: 'ScanCadenceSet', data: { client_id: 7, frequency: 'off', scan_type: 'crawl' } }])
})

const row = (url: string, outcome: ScanPageResult['outcome'] = 'recorded'): ScanPageResult => ({
  url,
  page_id: null,
  status: outcome === 'skipped' || outcome === 'failed' ? null : 200,
  in_sitemap: true,
  depth: 1,
  outcome,
  code: outcome === 'skipped' ? 'robots' : outcome === 'failed' ? 'timeout' : null,
})
const start = (now = '2026-11-27T09:00:00.000Z', lease = '2026-11-27T09:00:30.000Z', worker = 'w1') => ({
  type: 'StartSiteScan' as const,
  scan_id: 5,
  client_id: 7,
  now,
  lease_until: lease,
  worker,
  start_url: 'https://acme.example/',
})
const started = (attempt: number, lease = '2026-11-27T09:00:30.000Z', worker = 'w1'): SiteScanEvent => ({
  type: 'SiteScanStarted',
  data: { scan_id: 5, client_id: 7, attempt, worker, lease_expires_at: lease, start_url: 'https://acme.example/' },
})
const batch = (pages: ScanPageResult[], totals = addResults(ZERO_COUNTS, pages)): SiteScanEvent => ({
  type: 'SiteScanPagesRecorded',
  data: { scan_id: 5, client_id: 7, attempt: 1, lease_expires_at: '2026-11-27T09:01:00.000Z', pages, totals },
})

t.test('a scan: the take, batches, the end', async (t) => {
  const given = spec(siteScan)
  given()
    .when(start())
    .then(t, [started(1)])
  given(started(1)).when(start('2026-11-27T09:00:10.000Z')).thenThrows(t, 'site_scan_held')
  given(started(1))
    .when(start('2026-11-27T09:00:31.000Z', '2026-11-27T09:01:01.000Z', 'w2'))
    .then(t, [started(2, '2026-11-27T09:01:01.000Z', 'w2')])

  const first = [row('https://acme.example/'), row('https://acme.example/a', 'unchanged'), row('https://acme.example/x', 'skipped')]
  given(started(1))
    .when({ type: 'RecordScanPages', attempt: 1, lease_until: '2026-11-27T09:01:00.000Z', pages: first })
    .then(t, [batch(first)])
  const totals = addResults(ZERO_COUNTS, first)
  t.same(totals, { ...ZERO_COUNTS, pages_found: 3, pages_fetched: 2, pages_recorded: 1, pages_unchanged: 1, pages_skipped: 1 })
  // A retried batch, a URL yielded twice: counted once.
  const second = [row('https://acme.example/a'), row('https://acme.example/b', 'failed'), row('https://acme.example/b', 'failed')]
  given(started(1), batch(first))
    .when({ type: 'RecordScanPages', attempt: 1, lease_until: '2026-11-27T09:01:00.000Z', pages: second })
    .then(t, [batch([row('https://acme.example/b', 'failed')], { ...totals, pages_found: 4, pages_failed: 1 })])
  given(started(1), started(2))
    .when({ type: 'RecordScanPages', attempt: 1, lease_until: 'x', pages: [] })
    .thenThrows(t, 'site_scan_not_held')
  given(started(1), batch(first))
    .when({ type: 'CompleteSiteScan', attempt: 1 })
    .then(t, [{ type: 'SiteScanCompleted', data: { scan_id: 5, client_id: 7, totals, keywords_checked: 0, pages_scanned: 0 } }])
})

t.test('closing a session; a closed one refuses', async (t) => {
  const given = spec(siteScan)
  const close = (status: 'completed' | 'failed' | 'cancelled') => ({
    type: 'CloseScanSession' as const,
    scan_id: 9,
    client_id: 7,
    status,
    keywords_checked: 12,
    pages_scanned: 3,
  })
  given()
    .when(close('completed'))
    .then(t, [
      { type: 'SiteScanCompleted', data: { scan_id: 9, client_id: 7, totals: ZERO_COUNTS, keywords_checked: 12, pages_scanned: 3 } },
    ])
  given()
    .when(close('cancelled'))
    .then(t, [{ type: 'SiteScanCancelled', data: { scan_id: 9, client_id: 7, totals: ZERO_COUNTS } }])
  given()
    .when(close('failed'))
    .then(t, [
      {
        type: 'SiteScanFailed',
        data: {
          scan_id: 9,
          client_id: 7,
          totals: ZERO_COUNTS,
          error: { code: 'closed_by_caller', message: 'closed as failed by complete_scan_session' },
        },
      },
    ])
  const cancelled: SiteScanEvent = { type: 'SiteScanCancelled', data: { scan_id: 5, client_id: 7, totals: ZERO_COUNTS } }
  given(started(1), cancelled).when(close('completed')).thenThrows(t, 'scan_session_closed')
  given(started(1), cancelled)
    .when({ type: 'RecordScanPages', attempt: 1, lease_until: 'x', pages: [] })
    .thenThrows(t, 'scan_session_closed')
  given(started(1), cancelled).when(start('2026-11-28T00:00:00.000Z')).thenThrows(t, 'scan_session_closed')
})

t.test('a scan that kills its workers fails as scan_interrupted', async (t) => {
  const takes = Array.from({ length: MAX_SCAN_ATTEMPTS }, (_, i) => started(i + 1, '2026-11-27T09:00:30.000Z'))
  const [event] = spec(siteScan)(...takes)
    .when(start('2026-11-27T10:00:00.000Z'))
    .then(t, [
      {
        type: 'SiteScanFailed',
        data: {
          scan_id: 5,
          client_id: 7,
          totals: ZERO_COUNTS,
          error: {
            code: 'scan_interrupted',
            message: `the scan was taken ${MAX_SCAN_ATTEMPTS} times and each worker stopped before finishing it`,
          },
        },
      },
    ])
  t.ok(event)
  const state = siteScan.evolve(siteScan.initialState(), started(1))
  t.equal(isClaimable(state, '2026-11-27T09:00:29.000Z'), false, 'leased')
  t.equal(isClaimable(state, '2026-11-27T09:00:30.000Z'), true, 'the lease ran out')
})
