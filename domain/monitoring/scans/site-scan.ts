import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import { type ScanCounts, type ScanError, type ScanPageResult, type SiteScanEvent, ZERO_COUNTS } from './events.js'

/**
 * One scan after it was queued: stream `site_scan-<scan_id>`. A worker takes it under a lease (an append at
 * the stream's revision, so two processes cannot both win), each batch of pages moves the lease on, and a
 * worker that stopped (kill -9) is noticed when its lease runs out: the next take resumes the scan, skipping
 * the URLs already recorded (kept here, so the resume and a retried batch never count a URL twice).
 */
export const siteScanStream = (scanId: number) => `site_scan-${scanId}`

/** Takes of one scan before it is failed as scan_interrupted: a scan that kills its workers is not run for ever. */
export const MAX_SCAN_ATTEMPTS = 5

export type ScanStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled'

export interface SiteScanState {
  readonly scanId: number
  readonly clientId: number
  readonly orgId: number | null
  readonly status: ScanStatus
  readonly attempt: number
  readonly worker: string | null
  readonly leaseExpiresAt: string | null
  readonly totals: ScanCounts
  /** URLs with a result in this scan: not fetched again by a resumed take. */
  readonly recorded: ReadonlySet<string>
}

export type SiteScanCommand =
  | { type: 'StartSiteScan'; scan_id: number; client_id: number; now: string; lease_until: string; worker: string; start_url: string }
  | { type: 'RecordScanPages'; attempt: number; lease_until: string; pages: readonly ScanPageResult[] }
  | { type: 'RecordScanSitemap'; attempt: number; url: string; urls: number; truncated: boolean; error: string | null }
  | { type: 'CompleteSiteScan'; attempt: number }
  /** By the holder (`attempt`), or with attempt null by a worker that finds it cannot run (queued or abandoned at `now`). */
  | { type: 'FailSiteScan'; scan_id: number; client_id: number; attempt: number | null; now: string; error: ScanError }
  /** complete_scan_session: the caller closes the session, whoever runs it. */
  | {
      type: 'CloseScanSession'
      scan_id: number
      client_id: number
      status: 'completed' | 'failed' | 'cancelled'
      keywords_checked: number
      pages_scanned: number
    }

const initialState = (): SiteScanState => ({
  scanId: 0,
  clientId: 0,
  orgId: null,
  status: 'queued',
  attempt: 0,
  worker: null,
  leaseExpiresAt: null,
  totals: ZERO_COUNTS,
  recorded: new Set(),
})

export const isClosed = (status: ScanStatus): boolean => status === 'completed' || status === 'failed' || status === 'cancelled'

function evolve(state: SiteScanState, event: Evolving<SiteScanEvent>): SiteScanState {
  const base = { ...state, scanId: event.data.scan_id, clientId: event.data.client_id, orgId: event.metadata?.org_id ?? state.orgId }
  switch (event.type) {
    case 'SiteScanStarted': {
      const d = event.data
      return { ...base, status: 'running', attempt: d.attempt, worker: d.worker, leaseExpiresAt: d.lease_expires_at }
    }
    case 'SiteScanPagesRecorded': {
      const recorded = new Set(state.recorded)
      for (const p of event.data.pages) recorded.add(p.url)
      return { ...base, leaseExpiresAt: event.data.lease_expires_at, totals: event.data.totals, recorded }
    }
    case 'SiteScanSitemapRead':
      return { ...base, totals: event.data.totals }
    case 'SiteScanCompleted':
      return { ...base, status: 'completed', totals: event.data.totals, leaseExpiresAt: null }
    case 'SiteScanFailed':
      return { ...base, status: 'failed', totals: event.data.totals, leaseExpiresAt: null }
    case 'SiteScanCancelled':
      return { ...base, status: 'cancelled', totals: event.data.totals, leaseExpiresAt: null }
    default:
      return assertNever(event)
  }
}

/** Whether a worker may take the scan at `now`: it is queued, or its holder's lease ran out. */
export function isClaimable(state: SiteScanState, now: string): boolean {
  if (state.status === 'queued') return true
  return state.status === 'running' && state.leaseExpiresAt !== null && Date.parse(state.leaseExpiresAt) <= Date.parse(now)
}

function closedError(state: SiteScanState): DomainError {
  return new DomainError('scan_session_closed', 'The scan session is closed', `scan ${state.scanId} is ${state.status}`)
}

/** The open scan, held by the worker of `attempt`; a worker whose scan was closed or taken over learns it here. */
function held(state: SiteScanState, attempt: number): void {
  if (isClosed(state.status)) throw closedError(state)
  if (state.status !== 'running' || state.attempt !== attempt) {
    throw new DomainError(
      'site_scan_not_held',
      'Another worker holds the scan',
      `scan ${state.scanId} is at attempt ${state.attempt}, not ${attempt}`,
    )
  }
}

/** The totals after a batch of (new) results. */
export function addResults(totals: ScanCounts, pages: readonly ScanPageResult[]): ScanCounts {
  const t = { ...totals }
  for (const p of pages) {
    t.pages_found++
    if (p.outcome === 'recorded' || p.outcome === 'unchanged' || p.outcome === 'not_modified') t.pages_fetched++
    if (p.outcome === 'recorded') t.pages_recorded++
    else if (p.outcome === 'unchanged' || p.outcome === 'not_modified') t.pages_unchanged++
    else if (p.outcome === 'skipped') t.pages_skipped++
    else t.pages_failed++
  }
  return t
}

function decide(command: SiteScanCommand, state: SiteScanState): SiteScanEvent[] {
  const ids = { scan_id: state.scanId, client_id: state.clientId }
  switch (command.type) {
    case 'StartSiteScan': {
      if (isClosed(state.status)) throw closedError(state)
      if (!isClaimable(state, command.now)) {
        throw new DomainError('site_scan_held', 'A worker holds the scan', `scan ${command.scan_id} is leased`)
      }
      const start = { scan_id: command.scan_id, client_id: command.client_id }
      if (state.attempt >= MAX_SCAN_ATTEMPTS) {
        const message = `the scan was taken ${state.attempt} times and each worker stopped before finishing it`
        return [{ type: 'SiteScanFailed', data: { ...start, error: { code: 'scan_interrupted', message }, totals: state.totals } }]
      }
      return [
        {
          type: 'SiteScanStarted',
          data: {
            ...start,
            attempt: state.attempt + 1,
            worker: command.worker,
            lease_expires_at: command.lease_until,
            start_url: command.start_url,
          },
        },
      ]
    }
    case 'RecordScanPages': {
      held(state, command.attempt)
      // A URL recorded already (a retried batch, a URL yielded twice) is not counted again.
      const seen = new Set<string>()
      const pages = command.pages.filter((p) => !state.recorded.has(p.url) && !seen.has(p.url) && seen.add(p.url))
      return [
        {
          type: 'SiteScanPagesRecorded',
          data: { ...ids, attempt: state.attempt, lease_expires_at: command.lease_until, pages, totals: addResults(state.totals, pages) },
        },
      ]
    }
    case 'RecordScanSitemap': {
      held(state, command.attempt)
      const { url, urls, truncated, error } = command
      const totals = { ...state.totals, sitemaps_read: state.totals.sitemaps_read + 1 }
      return [{ type: 'SiteScanSitemapRead', data: { ...ids, attempt: state.attempt, url, urls, truncated, error, totals } }]
    }
    case 'CompleteSiteScan':
      held(state, command.attempt)
      return [{ type: 'SiteScanCompleted', data: { ...ids, totals: state.totals, keywords_checked: 0, pages_scanned: 0 } }]
    case 'FailSiteScan': {
      if (isClosed(state.status)) throw closedError(state)
      if (command.attempt === null) {
        if (!isClaimable(state, command.now))
          throw new DomainError('site_scan_held', 'A worker holds the scan', `scan ${command.scan_id} is leased`)
      } else held(state, command.attempt)
      return [
        {
          type: 'SiteScanFailed',
          data: { scan_id: command.scan_id, client_id: command.client_id, error: command.error, totals: state.totals },
        },
      ]
    }
    case 'CloseScanSession': {
      if (isClosed(state.status)) throw closedError({ ...state, scanId: command.scan_id })
      const data = { scan_id: command.scan_id, client_id: command.client_id, totals: state.totals }
      if (command.status === 'cancelled') return [{ type: 'SiteScanCancelled', data }]
      if (command.status === 'failed') {
        return [
          {
            type: 'SiteScanFailed',
            data: { ...data, error: { code: 'closed_by_caller', message: 'closed as failed by complete_scan_session' } },
          },
        ]
      }
      return [
        { type: 'SiteScanCompleted', data: { ...data, keywords_checked: command.keywords_checked, pages_scanned: command.pages_scanned } },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const siteScan: Aggregate<SiteScanState, SiteScanCommand, SiteScanEvent> = {
  streamOf: siteScanStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'scan session',
}
