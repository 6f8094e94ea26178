import type { EventStore } from './event-store/port.js'

/**
 * Aggregate states the command handler folded or wrote, kept per event store so the next command on the
 * same stream need not read and fold the stream again (every write read its whole stream before: the
 * write RPC's streams grow by one event per write, so long-lived streams got slower to write).
 *
 * Why a possibly stale entry is safe: an entry is (state, revision) where state is exactly the fold of the
 * stream's events 0..revision, and revisions are never reused (nothing deletes, truncates or rewrites a
 * stream; the sandbox reset and every other "delete" are events). The handler appends with the entry's
 * revision as the expected revision, so a decision made on a state another writer (this process or any
 * other) has moved past is refused by the store (WrongExpectedRevisionError); the handler then reads the
 * stream forward from the entry's revision and decides again. An answer that appends nothing (a no-op, a
 * domain error) is only given from a state read forward first. States are shared between commands, so they
 * must never be mutated: every aggregate's evolve and decide build new objects (domain/**), as the
 * Aggregate contract says.
 *
 * Bounded twice, evicting the least recently used: at most MAX_STREAMS entries, and at most MAX_EVENTS
 * events folded into all entries together (a state's size grows at worst with its events; a stream with
 * more events than that is never kept). 10,000 streams covers every client, key and set a busy process
 * writes to within minutes; 200,000 events of a few hundred bytes each caps the worst case near 100 MiB,
 * while typical states (a client: a few KiB whatever its history) keep it to tens of MiB.
 */
export const MAX_STREAMS = 10_000
export const MAX_EVENTS = 200_000

/**
 * Set by `npm test` (test/run.ts): every state put in the cache is deep-frozen, so an aggregate whose evolve or
 * decide mutates a state it was given throws (modules are strict) in whichever test writes to it twice, instead
 * of silently corrupting the state later commands decide on. Off in production: freezing costs a walk per write.
 */
const FREEZE_STATES = process.env.RR_FREEZE_AGGREGATE_STATES === '1'

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return
  // Object.freeze does not stop a Map's or Set's own methods: shadow them on the instance.
  if (value instanceof Map || value instanceof Set) {
    for (const method of ['set', 'add', 'delete', 'clear']) {
      if (method in value) Object.defineProperty(value, method, { value: () => refuseMutation(method) })
    }
  }
  Object.freeze(value)
  if (value instanceof Map) {
    for (const [key, item] of value) {
      deepFreeze(key)
      deepFreeze(item)
    }
  } else if (value instanceof Set) for (const item of value) deepFreeze(item)
  else for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
}

function refuseMutation(method: string): never {
  throw new TypeError(`A cached aggregate state was mutated (${method}): evolve and decide must build new states`)
}

export interface KnownState<TState> {
  readonly state: TState
  /** Revision of the last event folded into `state`. */
  readonly revision: bigint
}

interface Entry {
  /** The aggregate that folded it: a stream read by another aggregate is another state. */
  readonly aggregate: object
  readonly state: unknown
  readonly revision: bigint
  /** Events folded into the state (revision + 1): the weight counted against MAX_EVENTS. */
  readonly weight: number
}

export class AggregateStateCache {
  readonly #maxStreams: number
  readonly #maxEvents: number
  /** A Map iterates in insertion order: re-inserting on use keeps the least recently used first. */
  readonly #entries = new Map<string, Entry>()
  #events = 0

  constructor(maxStreams = MAX_STREAMS, maxEvents = MAX_EVENTS) {
    this.#maxStreams = maxStreams
    this.#maxEvents = maxEvents
  }

  get size(): number {
    return this.#entries.size
  }

  get events(): number {
    return this.#events
  }

  get<TState>(stream: string, aggregate: object): KnownState<TState> | undefined {
    const entry = this.#entries.get(stream)
    if (entry === undefined || entry.aggregate !== aggregate) return undefined
    this.#entries.delete(stream)
    this.#entries.set(stream, entry)
    return entry as KnownState<TState>
  }

  /** Keeps the newest: an older revision (a slower command finishing late) never replaces a newer one. */
  put(stream: string, aggregate: object, state: unknown, revision: bigint): void {
    const existing = this.#entries.get(stream)
    if (existing !== undefined && existing.aggregate === aggregate && existing.revision > revision) return
    const weight = Number(revision) + 1
    this.drop(stream)
    if (weight > this.#maxEvents) return
    if (FREEZE_STATES) deepFreeze(state)
    this.#entries.set(stream, { aggregate, state, revision, weight })
    this.#events += weight
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxStreams && this.#events <= this.#maxEvents) break
      this.#entries.delete(oldest)
      this.#events -= entry.weight
    }
  }

  drop(stream: string): void {
    const entry = this.#entries.get(stream)
    if (entry === undefined) return
    this.#entries.delete(stream)
    this.#events -= entry.weight
  }
}

/** Keyed by the store that owns the log (not a per-request view of it): tests open many stores, each its own database. */
const caches = new WeakMap<EventStore, AggregateStateCache>()

/** The cache of the store beneath `store`'s views (EventStore.underlying), made on first use. */
export function aggregateStateCacheOf(store: EventStore): AggregateStateCache {
  let owner = store
  while (owner.underlying !== undefined) owner = owner.underlying
  let cache = caches.get(owner)
  if (cache === undefined) {
    cache = new AggregateStateCache()
    caches.set(owner, cache)
  }
  return cache
}
