import type { ClientSites } from '../../commands/publishing/client-sites.js'
import type { SitePublisher } from '../../commands/site-edits-publisher.js'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import type { EventStore, Position } from '../../commands/event-store/port.js'
import type { BlobStore } from '../../commands/files/blob-store.js'
import type { JobKind, JobPayload } from '../../domain/jobs/kinds.js'
import type { ReadDb } from '../../projections/tables.js'
import type { LanguageModel } from '../language-model/port.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/** The job a handler runs, as accepted by POST /api/v1/jobs. */
export interface JobRun<K extends JobKind = JobKind> {
  readonly jobId: number
  readonly kind: K
  readonly orgId: number
  /** Null only for kinds without a client (export_org, and bulk_strategist, which targets a group). */
  readonly clientId: number | null
  /** The target group of a kind about a group (bulk_strategist: its active clients are read from the group); null otherwise. */
  readonly groupId: number | null
  readonly payload: JobPayload<K>
  /** The attempt number: > 1 when the job is resumed after a restart. Handlers must be safe to re-run. */
  readonly attempt: number
}

/** What a kind's handler is given. It acts by commands (context `command`, actor system job-<id>). */
export interface JobContext<K extends JobKind = JobKind> {
  readonly job: JobRun<K>
  readonly store: EventStore
  readonly write: WriteDeps
  readonly command: CommandContext
  readonly read: ReadDb
  /** The database itself (public schema). */
  readonly db: Kysely<WorkTables>
  readonly blobs: BlobStore
  /** Null when no provider key is configured: use the kind's deterministic built-in writer. */
  readonly languageModel: LanguageModel | null
  /** Where the job's site edits are applied: the client's WordPress site when connected, else the built-in publisher. */
  readonly sitePublisher: SitePublisher
  /** The clients' connected WordPress sites (prompted_edit reads the live page); null: this process reaches none. */
  readonly sites: ClientSites | null
  readonly log: Logger
  readonly clock: () => Date
  /** Aborted when the job is cancelled or the process shuts down: stop promptly (throwing is fine). */
  readonly signal: AbortSignal
  /** Reports progress (shown by GET /api/v1/jobs/<id> while running); also a heartbeat. */
  progress(done: number, total: number, message?: string): Promise<void>
  /** Whether a cancel was requested (is_job_cancel_requested); checked between units of work. */
  cancelRequested(): Promise<boolean>
  /** Waits until the read models have reached `position` (after the handler's own commands). */
  settle(position: Position | null): Promise<void>
}

/**
 * One kind's work. Returns the job's `result` (a JSON object; job.completed carries it). Throwing fails the
 * job with the error's message; a JobCancelledError (or an abort) after a cancel ends it cancelled.
 */
export type JobHandler<K extends JobKind = JobKind> = (context: JobContext<K>) => Promise<Record<string, unknown>>

/** The handler of each kind a process runs; a kind without one is never claimed there. */
export type JobHandlers = { readonly [K in JobKind]?: JobHandler<K> }

/**
 * Thrown by a handler that stops because it was cancelled (or by the runner's abort signal). The job then
 * ends JobCancelled when a cancel was requested, and is queued again when the process is shutting down.
 */
export class JobCancelledError extends Error {
  constructor(message = 'the job was cancelled') {
    super(message)
    this.name = 'JobCancelledError'
  }
}
