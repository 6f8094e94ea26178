import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { cadenceIsDue } from '../../search/rank-checks/cadence.js'
import type { ClientScansEvent, ScanFrequency } from './events.js'

/**
 * A client's scans as queued: stream `site_scans-<client_id>`, one SiteScanQueued per scan. The rule that
 * lives here: one open scan per client and scan type. Whether the latest scan of a type is still open is in
 * that scan's own stream (site-scan.ts); the command reads it and hands it in, and since the command is made
 * again on every attempt of the append, two starts racing cannot both open one.
 */
export const clientScansStream = (clientId: number) => `site_scans-${clientId}`

export interface QueuedScanRef {
  readonly scanId: number
  readonly date: string
  readonly trigger: 'manual' | 'cadence'
}

export interface ClientScansState {
  readonly clientId: number
  readonly orgId: number | null
  /** The latest scan queued, per scan type. */
  readonly latest: Readonly<Record<string, QueuedScanRef>>
}

export type ClientScansCommand = {
  type: 'QueueSiteScan'
  client_id: number
  scan_id: number
  scan_type: string
  trigger: 'manual' | 'cadence'
  date: string
  /** Whether the latest scan of this type (if any) is closed: read from its stream by the command. */
  latest_closed: boolean
  /** The cadence's queueing: only when that frequency is due against the type's latest scan date. */
  due?: ScanFrequency
}

const initialState = (): ClientScansState => ({ clientId: 0, orgId: null, latest: {} })

function evolve(state: ClientScansState, event: Evolving<ClientScansEvent>): ClientScansState {
  const d = event.data
  return {
    clientId: d.client_id,
    orgId: event.metadata?.org_id ?? state.orgId,
    latest: { ...state.latest, [d.scan_type]: { scanId: d.scan_id, date: d.date, trigger: d.trigger } },
  }
}

function decide(command: ClientScansCommand, state: ClientScansState): ClientScansEvent[] {
  const latest = state.latest[command.scan_type]
  if (latest && !command.latest_closed) return [] // one open scan per client and type: the caller gets the open one
  if (command.due !== undefined && !cadenceIsDue(command.due, latest?.date ?? null, command.date)) return []
  const { scan_id, client_id, scan_type, trigger, date } = command
  return [{ type: 'SiteScanQueued', data: { scan_id, client_id, scan_type, trigger, date } }]
}

export const clientScans: Aggregate<ClientScansState, ClientScansCommand, ClientScansEvent> = {
  streamOf: clientScansStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'client',
}

/** Scan types the service runs itself; any other is a session an agent runs and closes with complete_scan_session. */
export const SERVICE_SCAN_TYPES = ['crawl', 'render'] as const
export const runByService = (scanType: string): boolean => (SERVICE_SCAN_TYPES as readonly string[]).includes(scanType)
