import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { loadClient } from '../../../commands/clients.js'
import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import { completeSiteScan, failSiteScan, loadSiteScan, startSiteScan, type ScanRef } from '../../../commands/monitoring/scans.js'
import type { ScanError, ScanErrorCode } from '../../../domain/monitoring/scans/events.js'
import { isClaimable, isClosed } from '../../../domain/monitoring/scans/site-scan.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { activeCooldown } from '../../../projections/monitoring/cooldowns/queries.js'
import type { Position } from '../../../commands/event-store/port.js'
import type { ReadDb } from '../../../projections/tables.js'
import type { ProcessorDeps } from '../../runtime.js'
import { crawlInto } from './crawl-into.js'
import { renderInto } from './render-into.js'
import { ScanRecorder } from './scan-recorder.js'

/** What one run of a scan needs (the runner builds it once per process). */
export interface ScanRunDeps {
  readonly processor: ProcessorDeps
  readonly write: WriteDeps
  readonly read: ReadDb
  readonly log: Logger
  /** How long a take (and each batch) holds the scan. */
  readonly leaseMs: number
  readonly heartbeatMs: number
  /** This process's name in the scan's log (SiteScanStarted.worker). */
  readonly worker: string
  /** Called when a scan failed, with its client (the runner counts failures in a row: scan_failures cooldown). */
  readonly onFailed?: (scan: ScanRef, position: Position | null) => Promise<void>
}

/** How a run ended: finished (completed, failed, cancelled), skipped (not ours to run now), or stopped (shutdown, lease lost). */
export type ScanRunResult = 'finished' | 'skipped' | 'stopped'

export interface ClaimableScan {
  readonly id: number
  readonly client_id: number
  readonly org_id: number
  readonly scan_type: string
}

const codeOf = (error: unknown, ...codes: string[]) => error instanceof DomainError && codes.includes(error.code)
const messageOf = (error: unknown) =>
  (error instanceof DomainError
    ? `${error.message}${error.detail ? ` (${error.detail})` : ''}`
    : error instanceof Error
      ? error.message
      : String(error)
  ).slice(0, 1000)

/** The crawl's start: the client's website URL, http or https; null when it is not one. */
export function startUrlOf(websiteUrl: string): string | null {
  try {
    const url = new URL(websiteUrl)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null
  } catch {
    return null
  }
}

/**
 * Runs one queued scan, or resumes one whose worker stopped (its lease ran out): takes it (an append at the
 * scan stream's revision), crawls or renders, records each batch, and completes or fails it. A scan whose client
 * is in a cooldown that holds scans back waits (skipped, taken at a later poll). An error of the crawl or the
 * render fails the scan visibly with its code; a database error propagates (the lease runs out, and the scan is
 * resumed by whoever takes it next). `signal`: shutdown; the scan is left for the next take.
 */
export async function runSiteScan(deps: ScanRunDeps, scan: ClaimableScan, signal: AbortSignal): Promise<ScanRunResult> {
  const context: CommandContext = {
    actor: { kind: 'system', id: 'site-scan-runner' },
    requestId: null,
    correlationId: randomUUID(),
    causationId: null,
  }
  const write = deps.write
  const ref: ScanRef = { scanId: scan.id, clientId: scan.client_id, orgId: scan.org_id }
  const log = deps.log.child({ site_scan_id: scan.id, client_id: scan.client_id })
  const state = await loadSiteScan(write, scan.id)
  if (isClosed(state.status) || !isClaimable(state, write.clock().toISOString())) return 'skipped'

  const failUntaken = async (code: ScanErrorCode, message: string): Promise<ScanRunResult> => {
    try {
      const position = await failSiteScan(write, context, ref, { attempt: null, error: { code, message } })
      log.warn({ code }, `site scan failed: ${message}`)
      await deps.onFailed?.(ref, position)
      return 'finished'
    } catch (error) {
      if (codeOf(error, 'site_scan_held', 'scan_session_closed')) return 'skipped'
      throw error
    }
  }

  const client = await loadClient(write.store, scan.client_id)
  if (client.status === 'deleted') return failUntaken('client_deleted', 'the client was deleted before its scan ran')
  if (await activeCooldown(deps.read, scan.client_id, 'scan', write.clock())) return 'skipped' // waits for the cooldown's end
  const startUrl = startUrlOf(client.websiteUrl)
  if (startUrl === null)
    return failUntaken('website_url_invalid', `the client's website URL is not an http(s) URL: ${client.websiteUrl.slice(0, 200)}`)

  let attempt: number
  try {
    const started = await startSiteScan(write, context, ref, { leaseMs: deps.leaseMs, worker: deps.worker, startUrl })
    if (started.state.status !== 'running') {
      log.warn('site scan failed: interrupted too many times')
      await deps.onFailed?.(ref, null)
      return 'finished' // failed as scan_interrupted by the take itself
    }
    attempt = started.state.attempt
  } catch (error) {
    if (codeOf(error, 'site_scan_held', 'scan_session_closed')) return 'skipped'
    throw error
  }
  log.info({ attempt, scan_type: scan.scan_type, resumed_urls: state.recorded.size }, 'site scan started')

  const stop = new AbortController()
  const working = AbortSignal.any([signal, stop.signal])
  const recorder = new ScanRecorder(write, context, ref, attempt, deps.leaseMs, scan.scan_type === 'render' ? 'render' : 'crawl', () =>
    stop.abort(),
  )
  const beat = setInterval(() => {
    recorder.heartbeat(deps.heartbeatMs).catch((error: unknown) => log.warn({ err: error }, 'site scan: a heartbeat failed'))
  }, deps.heartbeatMs)
  beat.unref()

  let failure: ScanError | null = null
  try {
    const input = { deps: deps.processor, scan: ref, startUrl, done: state.recorded, recorder, signal: working }
    if (scan.scan_type === 'render') await renderInto(input)
    else await crawlInto(input)
    await recorder.flush()
  } catch (error) {
    if (working.aborted && recorder.stopped === null && signal.aborted) {
      clearInterval(beat)
      return 'stopped' // shutdown: the next take resumes from what was recorded
    }
    if (recorder.stopped === null) {
      const code: ScanErrorCode =
        scan.scan_type === 'render' ? (codeOf(error, 'render_unavailable') ? 'render_unavailable' : 'render_failed') : 'crawl_failed'
      failure = { code, message: messageOf(error) }
      log.error({ err: error }, 'site scan: the crawl stopped on an error')
    }
  } finally {
    clearInterval(beat)
  }
  if (recorder.stopped === 'closed') return 'finished' // cancelled or closed by complete_scan_session
  if (recorder.stopped === 'lost') return 'stopped'
  if (signal.aborted && failure === null) return 'stopped'
  try {
    if (failure) {
      await deps.onFailed?.(ref, await failSiteScan(write, context, ref, { attempt, error: failure }))
    } else await completeSiteScan(write, context, ref, attempt)
  } catch (error) {
    if (codeOf(error, 'scan_session_closed')) return 'finished'
    if (codeOf(error, 'site_scan_not_held')) return 'stopped'
    throw error
  }
  log.info({ failed: failure?.code ?? null }, 'site scan finished')
  return 'finished'
}
