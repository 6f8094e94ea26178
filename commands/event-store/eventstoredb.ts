import { randomUUID } from 'node:crypto'
import {
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type JSONType,
  type Position as EsdbPosition,
  type ReadPosition,
} from '@eventstore/db-client'
import {
  appendOneByOne,
  WrongExpectedRevisionError,
  recordedMetadata,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamWrite,
  type StreamWriteOutcome,
  type SubscribeOptions,
} from './port.js'

/** Events per `$all` page: system events are skipped client-side, so `maxCount` cannot be passed through. */
const READ_ALL_BATCH = 500

/**
 * Positions are the `$all` commit/prepare pair, `C:<commit>/P:<prepare>`. Every event written through gRPC
 * commits itself, so commit and prepare are both the event's log position; they are compared commit first.
 */
export function parseEsdbPosition(position: Position): EsdbPosition {
  const match = /^C:(\d+)\/P:(\d+)$/.exec(position)
  if (!match) throw new TypeError(`Not an EventStoreDB event-store position: ${position}`)
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) }
}

export function formatEsdbPosition(position: EsdbPosition): Position {
  return `C:${position.commit.toString()}/P:${position.prepare.toString()}`
}

export function compareEsdbPositions(a: EsdbPosition, b: EsdbPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1
  return 0
}

const BEGINNING: EsdbPosition = { commit: 0n, prepare: 0n }
/** What the server reports for an event whose commit position it does not know (Position.FromInt64(-1, -1)). */
const UNKNOWN: EsdbPosition = { commit: 0xffffffffffffffffn, prepare: 0xffffffffffffffffn }

/** The shape of a recorded event as the client hands it over (JSON or binary, read from a stream or `$all`). */
interface EsdbRecordedEvent {
  readonly streamId: string
  readonly id: string
  readonly revision: bigint
  readonly type: string
  readonly created: Date
  readonly data: unknown
  readonly metadata: unknown
  readonly isJson: boolean
  readonly position?: EsdbPosition | undefined
}

/** A streaming read or subscription of the client: a Readable with a way to stop the gRPC call. */
interface ClientStream {
  on(event: 'error', listener: (error: Error) => void): unknown
  destroy(): unknown
}

/** System events: `$`-prefixed types (`$metadata`, `$>` links, `$statsCollected`, …) or `$`-prefixed streams. */
function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$')
}

/** Binary payloads (not written by this adapter) are decoded as JSON when they are JSON, else kept as bytes. */
function decode(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value
  try {
    return JSON.parse(Buffer.from(value).toString('utf8'))
  } catch {
    return value
  }
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  return {
    id: event.id,
    type: event.type,
    data: decode(event.data),
    metadata: recordedMetadata(decode(event.metadata)),
    stream: event.streamId,
    revision: event.revision,
    position: formatEsdbPosition(event.position ?? UNKNOWN),
    recordedAt: event.created,
  }
}

function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError || (error as { type?: unknown } | null)?.type === ErrorType.WRONG_EXPECTED_VERSION
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || (error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND
}

/** `$all` reads and subscriptions start at a position; the very beginning is START. */
function readPositionFrom(after: EsdbPosition | undefined): ReadPosition {
  return after === undefined || compareEsdbPositions(after, BEGINNING) === 0 ? START : after
}

/** Stops a streaming read the caller no longer consumes: cancels the gRPC call and ends the Readable. */
async function release(stream: ClientStream & { cancel?(): Promise<void>; unsubscribe?(): Promise<void> }): Promise<void> {
  try {
    if (stream.unsubscribe) await stream.unsubscribe()
    else if (stream.cancel) await stream.cancel()
  } catch {
    // The call never started (connection refused) or has already ended.
  }
  stream.destroy()
}

/** A late error on a stream nobody reads any more must not become an uncaught 'error' event. */
function quiet<T extends ClientStream>(stream: T): T {
  stream.on('error', () => {})
  return stream
}

const STOPPED = Symbol('stopped')

/**
 * The EventStoreDB adapter (selected by EVENTSTORE_URL, `esdb://…`). Streams, revisions and `$all` map
 * one-to-one; expected revisions are enforced by the server; `$`-prefixed (system) events are never returned
 * by readAll or subscribeToAll.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly #client: EventStoreDBClient
  /** Ends the live subscriptions when the store closes (disposing the client alone would leave them hanging). */
  readonly #stoppers = new Set<() => void>()
  #closed = false

  constructor(client: EventStoreDBClient) {
    this.#client = client
  }

  /** `esdb://host:2113?tls=false`, or any connection string the client accepts. */
  static fromConnectionString(url: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(url))
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (typeof expected === 'bigint' && expected < 0n) {
      throw new WrongExpectedRevisionError(stream, expected, await this.#currentRevision(stream))
    }
    if (events.length === 0) return this.#checkOnly(stream, expected)
    // The server is idempotent on re-appends of the same ids at the same place (exactly so for every mode but
    // `any`, where it checks a cache of recent writes), so deterministic ids make retries safe.
    const proposed = events.map((e) =>
      jsonEvent({
        id: e.id ?? randomUUID(),
        type: e.type,
        data: (e.data ?? null) as JSONType,
        metadata: e.metadata as JSONType,
      }),
    )
    let result
    try {
      result = await this.#client.appendToStream(stream, proposed, { expectedRevision: expected })
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error
      const actual = error.actualVersion
      throw new WrongExpectedRevisionError(stream, expected, typeof actual === 'bigint' && actual < 0n ? 'no_stream' : actual)
    }
    if (!result.success) {
      // Only when the connection string sets throwOnAppendFailure=false; the revision it reports is unreliable.
      throw new WrongExpectedRevisionError(stream, expected, await this.#currentRevision(stream))
    }
    const nextRevision = result.nextExpectedRevision
    const position = result.position ?? (await this.#positionOf(stream, nextRevision))
    return { nextRevision, position: formatEsdbPosition(position) }
  }

  /** One append per stream, concurrently: EventStoreDB has no multi-stream transaction (see EventStore.appendEach). */
  appendEach(writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
    return appendOneByOne(this, writes)
  }

  async #checkOnly(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const actual = await this.#currentRevision(stream)
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (expected === 'stream_exists' && actual !== 'no_stream') ||
      (typeof expected === 'bigint' && actual === expected)
    if (!ok) throw new WrongExpectedRevisionError(stream, expected, actual)
    return { nextRevision: actual === 'no_stream' ? -1n : actual, position: formatEsdbPosition(BEGINNING) }
  }

  /** The revision of the stream's last event, read backwards from its end. */
  async #currentRevision(stream: string): Promise<bigint | 'no_stream'> {
    const read = quiet(this.#client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }))
    try {
      for await (const resolved of read) {
        const event = resolved.event ?? resolved.link
        if (event) return event.revision
      }
      return 'no_stream'
    } catch (error) {
      if (isStreamNotFound(error)) return 'no_stream'
      throw error
    } finally {
      await release(read)
    }
  }

  /** Fallback for an append result without a position (the server sends none when it cannot tell). */
  async #positionOf(stream: string, revision: bigint): Promise<EsdbPosition> {
    for await (const event of this.#readStream(stream, revision, 1)) {
      if (event.position) return event.position
    }
    return UNKNOWN
  }

  async *readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    const from = options.fromRevision ?? 0n
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER
    for await (const event of this.#readStream(stream, from < 0n ? 0n : from, maxCount)) yield toRecorded(event)
  }

  async *#readStream(stream: string, from: bigint, maxCount: number): AsyncIterable<EsdbRecordedEvent> {
    if (maxCount <= 0) return
    const read = quiet(this.#client.readStream(stream, { fromRevision: from === 0n ? START : from, maxCount }))
    try {
      for await (const resolved of read) {
        if (resolved.event) yield resolved.event
      }
    } catch (error) {
      if (isStreamNotFound(error)) return
      throw error
    } finally {
      await release(read)
    }
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY
    if (remaining <= 0) return
    // `fromPosition` is inclusive: each page starts at the last event already seen, which is skipped.
    let after = options.after === undefined ? undefined : parseEsdbPosition(options.after)
    while (true) {
      const page = quiet(this.#client.readAll({ fromPosition: readPositionFrom(after), maxCount: READ_ALL_BATCH }))
      let read = 0
      let last: EsdbPosition | undefined
      try {
        for await (const resolved of page) {
          read++
          const event = resolved.event
          if (!event) continue
          last = event.position
          if (after !== undefined && compareEsdbPositions(event.position, after) <= 0) continue
          if (isSystemEvent(event)) continue
          yield toRecorded(event)
          if (--remaining <= 0) return
        }
      } finally {
        await release(page)
      }
      if (read < READ_ALL_BATCH || last === undefined) return
      after = last
    }
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const signal = options.signal
    if (signal?.aborted || this.#closed) return
    const after = options.after === undefined ? undefined : parseEsdbPosition(options.after)
    // Catch-up from `after`, then live, in `$all` order. The server leaves out `$`-typed events; events of
    // `$`-streams with other types are dropped here, as is the event at `after` itself.
    const subscription = quiet(this.#client.subscribeToAll({ fromPosition: readPositionFrom(after), filter: excludeSystemEvents() }))
    const iterator = subscription[Symbol.asyncIterator]()
    let stop!: () => void
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      stop = () => resolve(STOPPED)
    })
    signal?.addEventListener('abort', stop, { once: true })
    this.#stoppers.add(stop)
    try {
      while (!signal?.aborted && !this.#closed) {
        const pending = iterator.next()
        // Left unanswered when the subscription stops first; it then settles as the stream is destroyed.
        pending.catch(() => {})
        const next = await Promise.race([pending, stopped])
        if (next === STOPPED || next.done) return
        const event = next.value.event
        if (!event || isSystemEvent(event)) continue
        if (after !== undefined && compareEsdbPositions(event.position, after) <= 0) continue
        if (signal?.aborted) return
        yield toRecorded(event)
      }
    } finally {
      signal?.removeEventListener('abort', stop)
      this.#stoppers.delete(stop)
      await release(subscription)
    }
  }

  comparePositions(a: Position, b: Position): number {
    return compareEsdbPositions(parseEsdbPosition(a), parseEsdbPosition(b))
  }

  /** The last non-system event of `$all`, read backwards from the end. */
  async headPosition(): Promise<Position | null> {
    const read = quiet(this.#client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: READ_ALL_BATCH }))
    try {
      for await (const resolved of read) {
        const event = resolved.event
        if (event && !isSystemEvent(event)) return formatEsdbPosition(event.position)
      }
      return null
    } finally {
      await release(read)
    }
  }

  /** `$all` has no cheap count. */
  async countAfter(_after?: Position): Promise<number | null> {
    return null
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    for (const stop of this.#stoppers) stop()
    await this.#client.dispose()
  }
}
