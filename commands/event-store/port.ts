import type { EventMetadata } from '../../domain/shared/event.js'

/**
 * The event store port. Two adapters implement it (PostgreSQL by default, EventStoreDB when
 * EVENTSTORE_URL is set) and both pass the one contract suite in test/commands/event-store-contract.ts.
 */

/** Opaque, adapter-specific global position. Compare with `EventStore.comparePositions`, never as strings. */
export type Position = string

/** `any`, `no_stream`, `stream_exists`, or the exact revision of the stream's last event (0-based). */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint

export interface NewEvent {
  /** Deterministic where a retry can happen: re-appending the same ids to the same stream is a no-op. */
  readonly id?: string
  readonly type: string
  readonly data: unknown
  readonly metadata: Record<string, unknown>
}

/** Where and when an event was recorded: everything of a recorded event but its type, data and metadata. */
export interface RecordedEnvelope {
  readonly id: string
  readonly stream: string
  readonly revision: bigint
  readonly position: Position
  readonly recordedAt: Date
}

/**
 * An event as the store returns it. Its data is what was appended, at the schema_version it was written
 * with, and unknown until read through `decode` (commands/event-store/decode.ts), which narrows the type and
 * lifts old versions; a reader that only passes it on (an export, a replay) keeps it unknown. Metadata is
 * typed by the fields every event carries, but partial: a log may hold events written by tools and tests
 * that set only some of them.
 */
export type RecordedEvent<E extends { readonly type: string; readonly data: unknown } = { readonly type: string; readonly data: unknown }> =
  RecordedEnvelope & {
    readonly metadata: RecordedMetadata
  } & E

/** The metadata of a recorded event (see RecordedEvent). */
export type RecordedMetadata = Readonly<Partial<EventMetadata>>

/**
 * What an adapter read back as an event's metadata, as RecordedMetadata: an object is taken as written (every
 * append writes one, from the command context), anything else (a foreign writer's bytes) as no metadata.
 */
export function recordedMetadata(stored: unknown): RecordedMetadata {
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as RecordedMetadata) : {}
}

export interface AppendResult {
  /** Revision of the stream's last event after the append: pass it as `expected` for the next one. */
  readonly nextRevision: bigint
  /** Global position of the last appended event: what read-your-writes waits for. */
  readonly position: Position
}

/** One stream's part of an appendEach: its events and the revision they expect. */
export interface StreamWrite {
  readonly stream: string
  readonly events: readonly NewEvent[]
  readonly expected: ExpectedRevision
}

/** Per write of an appendEach, in order: its result, or the conflict that refused it (nothing appended there). */
export type StreamWriteOutcome = AppendResult | WrongExpectedRevisionError

export interface ReadStreamOptions {
  readonly fromRevision?: bigint
  readonly maxCount?: number
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Absent means from the beginning. */
  readonly after?: Position | undefined
  readonly maxCount?: number
}

export interface SubscribeOptions {
  readonly after?: Position | undefined
  /** Ends the subscription; the iterator then returns. */
  readonly signal?: AbortSignal
  /**
   * Awaited before each live read (not before the next page of a catch-up): the projection runner holds
   * reads while its batch's transaction is open. A store may ignore it.
   */
  readonly beforeLiveRead?: () => Promise<void> | undefined
}

export interface EventStore {
  /**
   * Set by a view over another store (RecordingEventStore, one per RPC call): the store it forwards to, so
   * memory kept per store (the command handler's aggregate state cache) belongs to the store that owns the log.
   */
  readonly underlying?: EventStore
  /** Appends atomically. Throws WrongExpectedRevisionError when `expected` does not hold. */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>
  /**
   * Appends to several streams in one call: each write is atomic on its own and checks its own expected
   * revision, but the writes are NOT atomic together (EventStoreDB cannot append to two streams in one
   * transaction), so a caller must be content with some writes landing and others conflicting. A
   * conflict is returned, never thrown; any other error is thrown, and then some writes may have landed.
   * Each stream at most once per call. Optional: callers use `appendEach(store, writes)`, which falls back
   * to one append per stream for a store without it. The PostgreSQL adapter does it in one statement
   * (one round trip, one commit), which is what makes a claim of many runs cheap.
   */
  appendEach?(writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]>
  /** A missing stream yields nothing. */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>
  /** Global order; never skips an event that commits after a later one was visible. */
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>
  /** Catch-up, then live, strictly in global order, until the signal aborts. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>
  /** Negative when a is before b, 0 when equal, positive after. */
  comparePositions(a: Position, b: Position): number
  /**
   * Position of the last event committed to the log, or null for an empty log (read-your-writes, lag, ETA).
   * readAll may not return it yet (an older transaction still open holds readers back), but will.
   */
  headPosition(): Promise<Position | null>
  /** Events after `after`, or null when the store cannot tell cheaply (used for progress and ETA). */
  countAfter(after?: Position): Promise<number | null>
  close(): Promise<void>
}

export class WrongExpectedRevisionError extends Error {
  readonly stream: string
  readonly expected: ExpectedRevision
  readonly actual: bigint | 'no_stream'

  constructor(stream: string, expected: ExpectedRevision, actual: bigint | 'no_stream') {
    super(`Stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`)
    this.name = 'WrongExpectedRevisionError'
    this.stream = stream
    this.expected = expected
    this.actual = actual
  }
}

/** The same event ids were appended before, but not as this exact batch on this stream. */
export class DuplicateEventIdError extends Error {
  constructor(stream: string, ids: readonly string[]) {
    super(`Stream ${stream}: event ids already used elsewhere: ${ids.join(', ')}`)
    this.name = 'DuplicateEventIdError'
  }
}

/** Per-stream appends, one call per stream: what appendEach amounts to for a store that has no cheaper way. */
export async function appendOneByOne(store: EventStore, writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
  return Promise.all(
    writes.map(async (w) => {
      try {
        return await store.append(w.stream, w.events, w.expected)
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) return error
        throw error
      }
    }),
  )
}

/** `store.appendEach(writes)` where the store has it, else one append per stream (see EventStore.appendEach). */
export function appendEach(store: EventStore, writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
  const streams = new Set(writes.map((w) => w.stream))
  if (streams.size !== writes.length) throw new TypeError('appendEach: each stream at most once per call')
  if (writes.length === 0) return Promise.resolve([])
  return store.appendEach ? store.appendEach(writes) : appendOneByOne(store, writes)
}
