import type { AppendResult, EventStore, ExpectedRevision, NewEvent, Position } from './port.js'

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

  readStream: EventStore['readStream'] = (stream, options) => this.#inner.readStream(stream, options)
  readAll: EventStore['readAll'] = (options) => this.#inner.readAll(options)
  subscribeToAll: EventStore['subscribeToAll'] = (options) => this.#inner.subscribeToAll(options)
  comparePositions: EventStore['comparePositions'] = (a, b) => this.#inner.comparePositions(a, b)
  countAfter: EventStore['countAfter'] = (after) => this.#inner.countAfter(after)
  headPosition: EventStore['headPosition'] = () => this.#inner.headPosition()

  /** The view does not own the store. */
  async close(): Promise<void> {}
}
