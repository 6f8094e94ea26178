import { utcDay } from '../../domain/search/rank-checks/cadence.js'
import { scanCadence, type ScanCadenceState } from '../../domain/monitoring/scans/cadence.js'
import { clientScans, type ClientScansState } from '../../domain/monitoring/scans/client-scans.js'
import type { ScanError, ScanFrequency, ScanPageResult, SiteScanEvent } from '../../domain/monitoring/scans/events.js'
import { isClosed, siteScan, type SiteScanCommand, type SiteScanState } from '../../domain/monitoring/scans/site-scan.js'
import { writableClient } from '../aeo/capture-facts.js'
import { assertNotInCooldown } from './cooldowns.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/*
 * The scans' commands: queueing (start_site_scan and the cadence), the worker's take, batches and end, and
 * complete_scan_session. Rules in domain/monitoring/scans/.
 */

export function loadClientScans(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ClientScansState> {
  return loadState(deps.store, clientScans, clientId)
}

export function loadSiteScan(deps: Pick<WriteDeps, 'store'>, scanId: number): Promise<SiteScanState> {
  return loadState(deps.store, siteScan, scanId)
}

export function loadScanCadence(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ScanCadenceState> {
  return loadState(deps.store, scanCadence, clientId)
}

export interface QueuedScan {
  /** The open scan of that type: the one queued now, or the one already open. */
  readonly scanId: number
  /** false: a scan of that type was open already and nothing was queued. */
  readonly created: boolean
  readonly position: Position | null
}

/**
 * Queues a scan of the client (start_site_scan, the cadence). One scan per client and type is open at a time:
 * with one open, it is the answer and nothing is queued. `due`: queue only when that frequency is due (the
 * scheduler); null when it was not and none is open. A deleted client: client_deleted; another org's: not_found.
 */
export async function queueSiteScan(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    scanType: string
    trigger: 'manual' | 'cadence'
    due?: ScanFrequency
    /** false: the public sandbox's seeder, writing fiction that happened before its cooldowns (default true). */
    respectCooldown?: boolean
  },
): Promise<QueuedScan | null> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const open = await openScanOf(deps, owner.id, input.scanType)
  if (open !== null) return { scanId: open, created: false, position: null }
  // Only a new scan waits for a cooldown: an open one is still shown. The scheduler never asks during one.
  if (input.trigger === 'manual' && input.respectCooldown !== false) await assertNotInCooldown(deps, owner.id, 'scan')
  const scanId = await deps.ids.next('site_scan')
  const outcome = await handleCommand(deps, {
    aggregate: clientScans,
    id: owner.id,
    context,
    orgId: owner.orgId,
    // Made again on each attempt of the append: whether the latest scan is closed is read at that state.
    command: async (state) => {
      const latest = state.latest[input.scanType]
      const latestClosed = latest ? isClosed((await loadSiteScan(deps, latest.scanId)).status) : true
      return {
        type: 'QueueSiteScan' as const,
        client_id: owner.id,
        scan_id: scanId,
        scan_type: input.scanType,
        trigger: input.trigger,
        date: utcDay(deps.clock()),
        latest_closed: latestClosed,
        ...(input.due ? { due: input.due } : {}),
      }
    },
  })
  const latest = outcome.state.latest[input.scanType]
  if (outcome.events.length > 0) return { scanId, created: true, position: outcome.position }
  if (!latest || (input.due !== undefined && isClosed((await loadSiteScan(deps, latest.scanId)).status))) return null
  return { scanId: latest.scanId, created: false, position: null }
}

/** The open scan of the client and type, or null. */
async function openScanOf(deps: Pick<WriteDeps, 'store'>, clientId: number, scanType: string): Promise<number | null> {
  const latest = (await loadClientScans(deps, clientId)).latest[scanType]
  if (!latest) return null
  return isClosed((await loadSiteScan(deps, latest.scanId)).status) ? null : latest.scanId
}

/** A command on one scan's stream, stamped with its organization (an agent's session has no event of its own yet). */
function onScan(deps: WriteDeps, context: CommandContext, scan: { scanId: number; orgId: number }, command: SiteScanCommand) {
  return handleCommand(deps, { aggregate: siteScan, id: scan.scanId, command, context, orgId: scan.orgId })
}

export interface ScanRef {
  readonly scanId: number
  readonly clientId: number
  readonly orgId: number
}

/** Takes the scan (queued, or abandoned by a worker whose lease ran out); DomainError site_scan_held when another holds it. */
export async function startSiteScan(
  deps: WriteDeps,
  context: CommandContext,
  scan: ScanRef,
  input: { leaseMs: number; worker: string; startUrl: string },
): Promise<{ state: SiteScanState; events: readonly SiteScanEvent[] }> {
  const now = deps.clock()
  const outcome = await onScan(deps, context, scan, {
    type: 'StartSiteScan',
    scan_id: scan.scanId,
    client_id: scan.clientId,
    now: now.toISOString(),
    lease_until: new Date(now.getTime() + input.leaseMs).toISOString(),
    worker: input.worker,
    start_url: input.startUrl,
  })
  return { state: outcome.state, events: outcome.events }
}

/** A batch of results (≤ MAX_PAGES_PER_BATCH; none: a heartbeat), by the holder of `attempt`; the lease moves on. */
export async function recordScanPages(
  deps: WriteDeps,
  context: CommandContext,
  scan: ScanRef,
  input: { attempt: number; leaseMs: number; pages: readonly ScanPageResult[] },
): Promise<Position | null> {
  const lease_until = new Date(deps.clock().getTime() + input.leaseMs).toISOString()
  return (await onScan(deps, context, scan, { type: 'RecordScanPages', attempt: input.attempt, lease_until, pages: input.pages })).position
}

export async function recordScanSitemap(
  deps: WriteDeps,
  context: CommandContext,
  scan: ScanRef,
  input: { attempt: number; url: string; urls: number; truncated: boolean; error: string | null },
): Promise<void> {
  await onScan(deps, context, scan, { type: 'RecordScanSitemap', ...input })
}

export async function completeSiteScan(deps: WriteDeps, context: CommandContext, scan: ScanRef, attempt: number): Promise<Position | null> {
  return (await onScan(deps, context, scan, { type: 'CompleteSiteScan', attempt })).position
}

/** Fails the scan: by its holder (`attempt`), or with attempt null while it is queued or abandoned. */
export async function failSiteScan(
  deps: WriteDeps,
  context: CommandContext,
  scan: ScanRef,
  input: { attempt: number | null; error: ScanError },
): Promise<Position | null> {
  const command: SiteScanCommand = {
    type: 'FailSiteScan',
    scan_id: scan.scanId,
    client_id: scan.clientId,
    attempt: input.attempt,
    now: deps.clock().toISOString(),
    error: input.error,
  }
  return (await onScan(deps, context, scan, command)).position
}

/** complete_scan_session: closes the session as completed, failed or cancelled; a closed one: scan_session_closed. */
export async function closeScanSession(
  deps: WriteDeps,
  context: CommandContext,
  scan: ScanRef,
  input: { status: 'completed' | 'failed' | 'cancelled'; keywordsChecked: number; pagesScanned: number },
): Promise<Position | null> {
  const command: SiteScanCommand = {
    type: 'CloseScanSession',
    scan_id: scan.scanId,
    client_id: scan.clientId,
    status: input.status,
    keywords_checked: input.keywordsChecked,
    pages_scanned: input.pagesScanned,
  }
  return (await onScan(deps, context, scan, command)).position
}

/** set_scan_cadence: which scan type the scheduler queues and how often; off stops it (an open scan still runs). */
export async function setScanCadence(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; frequency: ScanFrequency; scanType: string },
): Promise<Position | null> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: scanCadence,
    id: owner.id,
    command: { type: 'SetScanCadence', client_id: owner.id, frequency: input.frequency, scan_type: input.scanType },
    context,
    orgId: owner.orgId,
  })
  return outcome.position
}
