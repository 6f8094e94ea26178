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

export interface RecordedEvent {
  readonly id: string
  readonly type: string
  readonly data: any
  readonly metadata: any
  readonly stream: string
  readonly revision: bigint
  readonly position: Position
  readonly recordedAt: Date
}

export interface AppendResult {
  /** Revision of the stream's last event after the append: pass it as `expected` for the next one. */
  readonly nextRevision: bigint
  /** Global position of the last appended event: what read-your-writes waits for. */
  readonly position: Position
}

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
}

export interface EventStore {
  /** Appends atomically. Throws WrongExpectedRevisionError when `expected` does not hold. */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>
  /** A missing stream yields nothing. */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>
  /** Global order; never skips an event that commits after a later one was visible. */
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>
  /** Catch-up, then live, strictly in global order, until the signal aborts. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>
  /** Negative when a is before b, 0 when equal, positive after. */
  comparePositions(a: Position, b: Position): number
  /** Position of the last event readAll can return now, or null for an empty log (read-your-writes, lag, ETA). */
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
