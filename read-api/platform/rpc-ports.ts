import type { Kysely } from 'kysely'
import type { CaptureDeps } from '../../commands/aeo/captures.js'
import type { RunDeps } from '../../commands/aeo/runs.js'
import { withAdvisoryLock } from '../../commands/advisory-lock.js'
import type { EventStore, ReadStreamOptions, RecordedEvent } from '../../commands/event-store/port.js'
import type { BlobStore } from '../../commands/files/blob-store.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import type { ReadDb } from '../../projections/tables.js'
import { usageReport, type UsageReport } from './usage.js'

/**
 * The narrow ports an RPC handler gets besides the read models and the write side. Each says what the handler
 * may do (read a stream, take a lock, store a file, read raw records, count usage), so a handler cannot reach
 * tables or the log in ways nobody reviewed, and a test can hand it a fake of exactly one port.
 */
export interface RpcPorts {
  readonly history: StreamHistory
  readonly locks: AdvisoryLocks
  readonly files: BlobStore
  readonly captureRecords: CaptureRecords
  readonly usage: UsageReports
}

/** The log, read one stream at a time: for history and point-in-time ("as of") reads. */
export interface StreamHistory {
  /** Every event of `stream` in revision order (or those `options` bound); none for a stream that does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>
}

/** Work that must run one at a time across every API process. */
export interface AdvisoryLocks {
  /** Runs `work` holding the cluster-wide lock named `key`, released however `work` ends. */
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>
}

/** A raw engine record of an AI Visibility capture, as kept beside the log (pruned after retention). */
export interface CaptureRecord {
  readonly captureId: number
  readonly recordJson: string
  readonly createdAt: Date
  readonly prunedAt: Date | null
}

/** The raw engine records of captures (the aeo_capture_records work table). */
export interface CaptureRecords {
  /** The record's JSON text; '' when there is none. */
  recordOf(captureId: number): Promise<string>
  /** The records of these captures that exist, in no particular order. */
  recordsOf(captureIds: readonly number[]): Promise<CaptureRecord[]>
}

/**
 * What AI Visibility's run and capture commands need beyond the event store (run leases, raw records, the
 * cadence settings), for handlers to pass to those commands as they are.
 */
export interface AeoCommandDeps {
  readonly runs: RunDeps
  readonly captures: CaptureDeps
}

/** API usage as metered by the rate limiter (api_usage_daily). */
export interface UsageReports {
  report(input: { orgId: number | null; days: number; now: number }): Promise<UsageReport>
}

/**
 * The ports over one database. `now` is the clock of the files' timestamps (the write side's clock, so a
 * pinned test clock holds for filed reports too).
 */
export function rpcPorts(deps: { db: Kysely<WorkTables>; read: ReadDb; store: EventStore; now: () => Date }): RpcPorts {
  const { db, read, store } = deps
  return {
    history: { readStream: (stream, options) => store.readStream(stream, options) },
    locks: { withLock: (key, work) => withAdvisoryLock(db, key, work) },
    files: new PostgresBlobStore(db, deps.now),
    captureRecords: {
      async recordOf(captureId) {
        const row = await db.selectFrom('aeo_capture_records').select('record_json').where('capture_id', '=', captureId).executeTakeFirst()
        return row?.record_json ?? ''
      },
      async recordsOf(captureIds) {
        if (captureIds.length === 0) return []
        const rows = await db
          .selectFrom('aeo_capture_records')
          .select(['capture_id', 'record_json', 'created_at', 'pruned_at'])
          .where('capture_id', 'in', [...captureIds])
          .execute()
        return rows.map((r) => ({
          captureId: Number(r.capture_id),
          recordJson: r.record_json,
          createdAt: r.created_at,
          prunedAt: r.pruned_at,
        }))
      },
    },
    usage: { report: (input) => usageReport(db, read, input) },
  }
}
