/**
 * A JobContext for running one kind's handler straight against a test system (the job engine's runner
 * builds the same context): real store, read models, commands and blob store; progress recorded.
 */
import pino from 'pino'
import { systemContext } from '../../../commands/command-handler.js'
import { PostgresBlobStore } from '../../../commands/files/postgres-blob-store.js'
import type { JobKind, JobPayload } from '../../../domain/jobs/kinds.js'
import type { JobContext } from '../../../processors/jobs/handler.js'
import type { LanguageModel } from '../../../processors/language-model/port.js'
import type { TestSystem } from '../../support/system.js'
import type { ClientSites } from '../../../commands/publishing/client-sites.js'
import { sitePublisher } from '../../../processors/site-edits/site-publisher.js'
import { readModelsAt } from '../../support/read-models.js'

export interface TestJob<K extends JobKind> {
  readonly kind: K
  readonly jobId: number
  readonly orgId: number
  /** Null for a kind about a group (bulk_strategist), which names groupId instead. */
  readonly clientId: number | null
  readonly groupId?: number | null
  readonly payload: JobPayload<K>
  readonly languageModel?: LanguageModel | null
  readonly attempt?: number
  /** The clients' WordPress sites the job reaches (default none: every client gets the built-in publisher). */
  readonly sites?: ClientSites | null
}

export function jobContext<K extends JobKind>(
  ts: TestSystem,
  job: TestJob<K>,
): JobContext<K> & { readonly progressSeen: [number, number][] } {
  const progressSeen: [number, number][] = []
  const controller = new AbortController()
  return {
    job: {
      jobId: job.jobId,
      kind: job.kind,
      orgId: job.orgId,
      clientId: job.clientId,
      groupId: job.groupId ?? null,
      payload: job.payload,
      attempt: job.attempt ?? 1,
    },
    store: ts.system.store,
    write: ts.system.write,
    command: systemContext(`job-${job.jobId}`),
    read: ts.system.read,
    db: ts.system.database.db,
    blobs: new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
    languageModel: job.languageModel ?? null,
    sitePublisher: sitePublisher({ read: ts.system.read, sites: job.sites ?? null }),
    sites: job.sites ?? null,
    log: pino({ level: 'silent' }),
    clock: ts.system.write.clock,
    signal: controller.signal,
    async progress(done: number, total: number) {
      progressSeen.push([done, total])
    },
    cancelRequested: async () => false,
    async settle(position) {
      await readModelsAt(ts, position)
    },
    progressSeen,
  }
}
