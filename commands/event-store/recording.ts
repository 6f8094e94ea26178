import {
  appendEach,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type StreamWrite,
  type StreamWriteOutcome,
} from './port.js'

/**
 * A view of a store that remembers the furthest position appended through it, so the HTTP edge knows
 * what a write RPC must wait for (read-your-writes) without any handler having to report it.
 */
export class RecordingEventStore implements EventStore {
  readonly #inner: EventStore
  #last: Position | null = null

  constructor(inner: EventStore) {
    this.#inner = inner
  }

  get underlying(): EventStore {
    return this.#inner
  }

  get lastAppended(): Position | null {
    return this.#last
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.#inner.append(stream, events, expected)
    if (events.length > 0 && (this.#last === null || this.#inner.comparePositions(result.position, this.#last) > 0)) {
      this.#last = result.position
    }
    return result
  }

  async appendEach(writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
    const outcomes = await appendEach(this.#inner, writes)
    outcomes.forEach((outcome, i) => {
      if (
        'position' in outcome &&
        writes[i]!.events.length > 0 &&
        (this.#last === null || this.#inner.comparePositions(outcome.position, this.#last) > 0)
      ) {
        this.#last = outcome.position
      }
    })
    return outcomes
  }

  // Methods, not arrow-function fields: every RPC call (reads too) makes one of these views, and fields would
  // allocate (and, under tsx's keepNames, name) six closures per request.
  readStream(...args: Parameters<EventStore['readStream']>): ReturnType<EventStore['readStream']> {
    return this.#inner.readStream(...args)
  }

  readAll(...args: Parameters<EventStore['readAll']>): ReturnType<EventStore['readAll']> {
    return this.#inner.readAll(...args)
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>): ReturnType<EventStore['subscribeToAll']> {
    return this.#inner.subscribeToAll(...args)
  }

  comparePositions(...args: Parameters<EventStore['comparePositions']>): ReturnType<EventStore['comparePositions']> {
    return this.#inner.comparePositions(...args)
  }

  countAfter(...args: Parameters<EventStore['countAfter']>): ReturnType<EventStore['countAfter']> {
    return this.#inner.countAfter(...args)
  }

  headPosition(): ReturnType<EventStore['headPosition']> {
    return this.#inner.headPosition()
  }

  /** The view does not own the store. */
  async close(): Promise<void> {}
}
