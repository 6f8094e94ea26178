import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { AeoSettings } from '../commands/aeo/settings.js'
import type { WriteDeps } from '../commands/command-handler.js'
import type { EventStore } from '../commands/event-store/port.js'
import type { ReadDb } from '../projections/tables.js'
import type { ProjectionWatermark } from '../projections/watermark.js'
import type { AeoProcessorSettings } from './aeo/settings.js'
import type { WebhookProcessorSettings } from './webhooks/settings.js'

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
  readonly db: Kysely<any>
  readonly watermark: ProjectionWatermark
  readonly log: Logger
  readonly aeo: AeoSettings
  readonly aeoProcessors: AeoProcessorSettings
  /** The webhook dispatcher's settings; absent: no dispatcher in this process. */
  readonly webhooks?: WebhookProcessorSettings
}
