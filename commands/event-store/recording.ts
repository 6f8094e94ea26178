import { appendEach, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent, type Position, type StreamWrite, type StreamWriteOutcome } from './port.js'

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

  async appendEach(writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
    const outcomes = await appendEach(this.#inner, writes)
    outcomes.forEach((outcome, i) => {
      if ('position' in outcome && writes[i]!.events.length > 0 && (this.#last === null || this.#inner.comparePositions(outcome.position, this.#last) > 0)) {
        this.#last = outcome.position
      }
    })
    return outcomes
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
