import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { AeoSettings } from '../commands/aeo/settings.js'
import type { WriteDeps } from '../commands/command-handler.js'
import type { EventStore } from '../commands/event-store/port.js'
import type { ReadDb } from '../projections/tables.js'
import type { ProjectionWatermark } from '../projections/watermark.js'
import type { AeoProcessorSettings } from './aeo/settings.js'
import type { BlobStore } from '../commands/files/blob-store.js'
import type { LanguageModel } from './language-model/port.js'
import type { JobHandlers } from './jobs/handler.js'
import type { JobSettings } from './jobs/settings.js'
import type { WebhookProcessorSettings } from './webhooks/settings.js'
import type { WorkTables } from '../migrations/work-tables.js'
import type { ServiceKey } from '../commands/secrets/service-key.js'
import type { SearchProviderSettings } from './search/settings.js'
import type { MonitoringSettings } from './monitoring/settings.js'
import type { WordPressSettings } from '../commands/publishing/wordpress/settings.js'

/** A process manager or worker: started by the processors role (and `all`), stopped on shutdown. */
export interface Processor {
  readonly name: string
  start(): void
  /** Stops taking new work and waits for the work in hand; never throws. */
  stop(): Promise<void>
}

/** What processors are given: the write side (they act by commands), the read models, and their work tables. */
export interface ProcessorDeps {
  readonly store: EventStore
  readonly write: WriteDeps
  readonly read: ReadDb
  /** The database itself (public schema): processor work tables. */
  readonly db: Kysely<WorkTables>
  readonly watermark: ProjectionWatermark
  readonly log: Logger
  readonly aeo: AeoSettings
  readonly aeoProcessors: AeoProcessorSettings
  /** The job runner and watchdog settings. */
  readonly jobs: JobSettings
  /** The handler of each job kind; absent: processors/jobs/kinds (tests inject their own). */
  readonly jobHandlers?: JobHandlers | undefined
  /** Text generation for jobs; null when no provider is configured (kinds use their built-in writers). */
  readonly languageModel: LanguageModel | null
  /** Where jobs write files (exports, reports): any API process serves them. */
  readonly blobs: BlobStore
  /** The webhook dispatcher's settings; absent: no dispatcher in this process. */
  readonly webhooks?: WebhookProcessorSettings
  /** The search data providers (ranks, keyword metrics, Search Console) and their limits. */
  readonly search: SearchProviderSettings
  /** How the site monitor looks at clients' sites; `resolve` is always set here (the system's, or a test's). */
  readonly monitoring: MonitoringSettings & { readonly resolve: NonNullable<MonitoringSettings['resolve']> }
  /** The service key: unseals credentials stored sealed in the log (Search Console keys and grants). */
  readonly serviceKey: ServiceKey
  /** How the publisher talks to clients' WordPress sites (allow list, bounds, resolver); absent: no WordPress pushes here. */
  readonly publishing?: WordPressSettings
}
