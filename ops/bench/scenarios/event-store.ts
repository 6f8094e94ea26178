/**
 * Event-store scenarios: appends with 1 and 8 writers side by side with the peer
 * (`@event-driven-io/emmett-postgresql`) and a plain one-row INSERT per transaction, batched appends, and a
 * catch-up read of the whole log with concurrent writers (with a count of the events a reader missed).
 *
 * The append workload: each writer owns 64 streams and appends to them in turn, the first append of a
 * stream with `no_stream` and every later one with the exact revision the previous append returned (an
 * aggregate's command). Events are an AEO capture (~320 bytes of JSON data, ~220 bytes of metadata with
 * tracing ids, actor, org and time), with random-looking but deterministic v4 ids.
 *
 * Each contender (ours, the peer, the plain insert) has its own fresh database on the same server; after a
 * CHECKPOINT they run in interleaved half-second slices (A B C, C B A, …), so a change in the machine's speed
 * during the run (another process, the checkpointer) weighs on all of them alike and the ratios stay fair.
 */
import { STREAM_DOES_NOT_EXIST, type Event as EmmettEvent, type ExpectedStreamVersion } from '@event-driven-io/emmett'
import pg from 'pg'
import { PostgresEventStore } from '../../../commands/event-store/postgres.js'
import type { ExpectedRevision, NewEvent } from '../../../commands/event-store/port.js'
import type { BenchContext, BenchDatabase, Figure, Scenario } from '../types.js'
import { openPeer, type PeerStore } from './event-store/peer.js'
import { openServerCostProbe } from './event-store/server-cost.js'
import {
  EVENT_TYPE,
  eventMetadata,
  eventPayloads,
  compareInterleaved,
  prng,
  uuidFrom,
  type AppendStep,
  type Contender,
  type EventData,
  type Interleaving,
  type WindowResult,
} from './event-store/workload.js'

const STREAMS_PER_WRITER = 64
const ORG_ID = 42
const PAYLOAD_SEED = 3

const now = () => Number(process.hrtime.bigint()) / 1e9
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** A sleep that can be called off, so a safety limit does not outlive what it guarded. */
function timer(ms: number): { readonly elapsed: Promise<void>; cancel(): void } {
  let handle: NodeJS.Timeout | undefined
  const elapsed = new Promise<void>((resolve) => (handle = setTimeout(resolve, ms)))
  return { elapsed, cancel: () => clearTimeout(handle) }
}

/** Flushes dirty buffers, so the phase that follows starts from the same state as the others. */
async function checkpoint(context: BenchContext): Promise<void> {
  const client = new pg.Client({ connectionString: context.serverUrl })
  await client.connect()
  try {
    await client.query('checkpoint')
  } finally {
    await client.end()
  }
}

interface GeneratedEvent {
  readonly id: string
  readonly data: EventData
  readonly metadata: Record<string, unknown>
}

/** One writer's deterministic event source: payloads from the shared ring, fresh ids and metadata. */
function eventSource(seed: number, payloads: readonly EventData[]): (count: number) => GeneratedEvent[] {
  const next = prng(seed)
  let i = seed * 7919
  return (count) => {
    const correlationId = uuidFrom(next)
    const events: GeneratedEvent[] = []
    for (let j = 0; j < count; j++) {
      events.push({ id: uuidFrom(next), data: payloads[i++ % payloads.length]!, metadata: eventMetadata(next, ORG_ID, correlationId) })
    }
    return events
  }
}

type OnAppended = (events: readonly GeneratedEvent[]) => void

/** A writer on our store: round-robin over its streams, `no_stream` first, then exact revisions. */
function oursWriter(
  store: PostgresEventStore,
  writer: string,
  seed: number,
  batch: number,
  payloads: readonly EventData[],
  onAppended?: OnAppended,
): AppendStep {
  const source = eventSource(seed, payloads)
  const revisions: ExpectedRevision[] = Array.from({ length: STREAMS_PER_WRITER }, () => 'no_stream')
  let n = 0
  return async () => {
    const k = n++ % STREAMS_PER_WRITER
    const generated = source(batch)
    const events: NewEvent[] = generated.map((e) => ({ id: e.id, type: EVENT_TYPE, data: e.data, metadata: e.metadata }))
    const result = await store.append(`capture-${writer}-${k}`, events, revisions[k]!)
    revisions[k] = result.nextRevision
    onAppended?.(generated)
    return batch
  }
}

type PeerEvent = EmmettEvent<typeof EVENT_TYPE, EventData, Record<string, unknown>>

/** The same writer on the peer: STREAM_DOES_NOT_EXIST first, then the exact version it returned. */
function peerWriter(
  peer: PeerStore,
  writer: string,
  seed: number,
  batch: number,
  payloads: readonly EventData[],
  onAppended?: OnAppended,
): AppendStep {
  const source = eventSource(seed, payloads)
  const versions: (ExpectedStreamVersion | undefined)[] = Array.from({ length: STREAMS_PER_WRITER }, () => undefined)
  let n = 0
  return async () => {
    const k = n++ % STREAMS_PER_WRITER
    const generated = source(batch)
    // The id goes in as emmett's messageId (its message_id column), so a reader can compare ids.
    const events: PeerEvent[] = generated.map((e) => ({ type: EVENT_TYPE, data: e.data, metadata: { messageId: e.id, ...e.metadata } }))
    const result = await peer.store.appendToStream(`capture-${writer}-${k}`, events, {
      expectedStreamVersion: versions[k] ?? STREAM_DOES_NOT_EXIST,
    })
    versions[k] = result.nextExpectedStreamVersion
    onAppended?.(generated)
    return batch
  }
}

// ---------------------------------------------------------------------------------------------------------
// Append comparisons

const interleaving = (context: BenchContext): Interleaving =>
  context.quick ? { warmupSeconds: 0.2, sliceSeconds: 0.25, rounds: 4 } : { warmupSeconds: 0.5, sliceSeconds: 0.5, rounds: 8 }

/** Resources a contender holds until the comparison is over. */
type Opened = { readonly contender: Contender; close(): Promise<void> }

async function openOurs(db: BenchDatabase, writers: number, batch: number, payloads: readonly EventData[]): Promise<Opened> {
  const store = new PostgresEventStore({ connectionString: db.url, pool: db.pool })
  return {
    contender: { label: 'ours', steps: Array.from({ length: writers }, (_, w) => oursWriter(store, `w${w}`, 1000 + w, batch, payloads)) },
    close: () => store.close(),
  }
}

async function openPeerContender(db: BenchDatabase, writers: number, batch: number, payloads: readonly EventData[]): Promise<Opened> {
  const peer = await openPeer(db.url)
  return {
    contender: {
      label: 'peer',
      steps: Array.from({ length: writers }, (_, w) => peerWriter(peer, `w${w}`, 1000 + w, batch, payloads)),
    },
    close: () => peer.close(),
  }
}

/** The physical limit: one jsonb row per transaction (autocommit), a prepared statement, one client per writer. */
async function openPlainInsert(db: BenchDatabase, writers: number, payloads: readonly EventData[]): Promise<Opened> {
  await db.pool.query('create table bench_plain (id bigint generated always as identity primary key, data jsonb not null)')
  const clients = await Promise.all(Array.from({ length: writers }, () => db.pool.connect()))
  const steps: AppendStep[] = clients.map((client, w) => {
    let i = w * 7919
    return async () => {
      await client.query({
        name: 'bench-plain-insert',
        text: 'insert into bench_plain (data) values ($1)',
        values: [JSON.stringify(payloads[i++ % payloads.length])],
      })
      return 1
    }
  })
  return {
    contender: { label: 'plain', steps },
    close: async () => {
      for (const client of clients) client.release()
    },
  }
}

/** Each contender's server cost per event, for the log. */
function describeCost(results: Map<string, WindowResult>): string {
  const n = (v: number | null | undefined, digits = 0) => (v == null ? '?' : v.toFixed(digits))
  return [...results].map(([label, r]) => `${label} ${n(r.postgresCpuUsPerEvent)} µs, ${n(r.walBytesPerEvent)} B`).join('; ')
}

/**
 * Server CPU and WAL per event of the given contenders: robust to the machine's load where events/s is not,
 * so they show whether a change does less work. Informational (no target).
 */
function costFigures(results: Map<string, WindowResult>, contenders: readonly (readonly [label: string, name: string])[]): Figure[] {
  return contenders.flatMap(([label, name]) => {
    const r = results.get(label)
    const figures: Figure[] = []
    if (r?.postgresCpuUsPerEvent != null)
      figures.push({ metric: `${name} PostgreSQL CPU per event`, value: r.postgresCpuUsPerEvent, unit: 'µs', better: 'lower' })
    if (r?.walBytesPerEvent != null)
      figures.push({ metric: `${name} WAL per event`, value: r.walBytesPerEvent, unit: 'B', better: 'lower' })
    return figures
  })
}

/** Opens the contenders (each on its own fresh database), checkpoints, compares, closes. */
async function compare(context: BenchContext, open: readonly (() => Promise<Opened>)[]): Promise<Map<string, WindowResult>> {
  const opened: Opened[] = []
  const cost = await openServerCostProbe(context.serverUrl)
  try {
    for (const o of open) opened.push(await o())
    await checkpoint(context)
    return await compareInterleaved(
      opened.map((o) => o.contender),
      interleaving(context),
      cost.probe,
    )
  } finally {
    for (const o of opened) await o.close()
    await cost.close().catch(() => {})
  }
}

function appendComparison(name: string, description: string, writers: number, plainRatioTarget: number): Scenario {
  return {
    name,
    description,
    async run(context) {
      const payloads = eventPayloads(PAYLOAD_SEED)
      const [plainDb, oursDb, peerDb] = [await context.createDatabase(), await context.createDatabase(), await context.createDatabase()]
      const results = await compare(context, [
        () => openPlainInsert(plainDb, writers, payloads),
        () => openOurs(oursDb, writers, 1, payloads),
        () => openPeerContender(peerDb, writers, 1, payloads),
      ])
      const plain = results.get('plain')!.perSecond
      const ours = results.get('ours')!.perSecond
      const peer = results.get('peer')!.perSecond
      context.log(`${name}: plain insert ${Math.round(plain)} rows/s, ours ${Math.round(ours)} events/s, peer ${Math.round(peer)} events/s`)
      context.log(`${name}: per event, PostgreSQL CPU and WAL: ${describeCost(results)}`)
      return [
        { metric: 'ours events/s', value: ours, unit: 'events/s', better: 'higher' },
        { metric: 'peer events/s', value: peer, unit: 'events/s', better: 'higher' },
        { metric: 'plain insert rows/s', value: plain, unit: 'rows/s', better: 'higher' },
        { metric: 'ratio to peer', value: ours / peer, unit: '×', target: { op: '>=', value: 2 }, better: 'higher' },
        {
          metric: 'ratio to plain insert',
          value: ours / plain,
          unit: '×',
          target: { op: '>=', value: plainRatioTarget },
          better: 'higher',
        },
        ...costFigures(results, [
          ['ours', 'ours'],
          ['peer', 'peer'],
          ['plain', 'plain insert'],
        ]),
      ] satisfies Figure[]
    },
  }
}

const batched: Scenario = {
  name: 'append-8-writers-batch-100',
  description: '8 concurrent writers, 100 events (~320-byte JSON data each) per append, exact revisions; the peer alongside',
  async run(context) {
    const payloads = eventPayloads(PAYLOAD_SEED)
    const [oursDb, peerDb] = [await context.createDatabase(), await context.createDatabase()]
    const results = await compare(context, [() => openOurs(oursDb, 8, 100, payloads), () => openPeerContender(peerDb, 8, 100, payloads)])
    const ours = results.get('ours')!.perSecond
    const peer = results.get('peer')!.perSecond
    context.log(`append-8-writers-batch-100: ours ${Math.round(ours)} events/s, peer ${Math.round(peer)} events/s`)
    context.log(`append-8-writers-batch-100: per event, PostgreSQL CPU and WAL: ${describeCost(results)}`)
    return [
      { metric: 'ours events/s', value: ours, unit: 'events/s', target: { op: '>=', value: 40_000 }, better: 'higher' },
      { metric: 'peer events/s', value: peer, unit: 'events/s', better: 'higher' },
    ]
  },
}

// ---------------------------------------------------------------------------------------------------------
// Catch-up read with concurrent writers

interface CatchUpSizes {
  /** Events in the log before the reader starts (appended in batches of 100 by 8 writers). */
  readonly prefill: number
  /** Concurrent single-event writers while the reader runs. */
  readonly writers: number
  /** How long the writers go on once the reader has caught up with the prefill (the reader is then live). */
  readonly liveSeconds: number
  /**
   * After the writers stop, the reader is done when it has delivered every appended id, or when it has
   * delivered nothing for this long (both stores poll at least every second when idle): what it lacks then
   * is missed, not late.
   */
  readonly quietSeconds: number
}

const catchUpSizes = (context: BenchContext, prefill: number): CatchUpSizes => ({
  prefill: context.quick ? prefill / 10 : prefill,
  writers: 4,
  liveSeconds: context.quick ? 1 : 2,
  quietSeconds: 2.5,
})

/** Our log: 100k events. The peer reads far slower (no index in log order: a scan and sort of the table per batch), so its log is 10k: the concurrent writers still append tens of thousands of events while it reads. */
const OURS_PREFILL = 100_000
const PEER_PREFILL = 10_000

interface CatchUpResult {
  /** Prefilled events read / seconds until the reader was past the prefill. */
  readonly perSecond: number
  readonly appended: number
  readonly missed: number
  readonly duplicates: number
}

/** Fills the log: `prefill` events in appends of 100, 8 writers, each append to its own stream. */
async function prefill(steps: readonly AppendStep[], events: number): Promise<void> {
  let remaining = Math.ceil(events / 100)
  await Promise.all(
    steps.map(async (step) => {
      while (remaining > 0) {
        remaining--
        await step()
      }
    }),
  )
}

/**
 * Runs one catch-up: the reader starts at the beginning of a log of `sizes.prefill` events while
 * `sizes.writers` writers append single events; the writers stop `liveSeconds` after the reader is past the
 * prefill (it has delivered all of it, or an event appended after it: a reader that skips events never
 * delivers all of it); then the reader goes on until it has every appended id or has gone quiet.
 */
async function catchUp(
  context: BenchContext,
  sizes: CatchUpSizes,
  appendStep: (writer: number, onAppended: OnAppended) => AppendStep,
  read: (onEvent: (id: string) => void, signal: AbortSignal) => Promise<void>,
): Promise<CatchUpResult> {
  const appended: string[] = []
  const record: OnAppended = (events) => {
    for (const e of events) appended.push(e.id)
  }
  await prefill(
    Array.from({ length: 8 }, (_, w) => appendStep(100 + w, record)),
    sizes.prefill,
  )
  const prefilled = new Set(appended)
  await checkpoint(context)

  const seen = new Set<string>()
  let received = 0
  let prefillRead = 0
  let lastReceivedAt = now()
  let caughtUpAt: number | undefined
  let writing = true
  const controller = new AbortController()
  let onCaughtUp: () => void = () => {}
  const caughtUp = new Promise<void>((resolve) => (onCaughtUp = resolve))

  const started = now()
  const reader = read((id) => {
    received++
    lastReceivedAt = now()
    const first = !seen.has(id)
    seen.add(id)
    const ofPrefill = prefilled.has(id)
    if (ofPrefill && first) prefillRead++
    if (caughtUpAt === undefined && (!ofPrefill || prefillRead === prefilled.size)) {
      caughtUpAt = lastReceivedAt
      onCaughtUp()
    }
  }, controller.signal)
  let readerFailed = false
  reader.catch(() => {
    readerFailed = true
  })
  const writers = Promise.all(
    Array.from({ length: sizes.writers }, async (_, w) => {
      const step = appendStep(200 + w, record)
      while (writing) await step()
    }),
  )
  // A reader that fails, or never gets past the prefill, must not hang the bench.
  const limit = timer(180_000)
  let live: ReturnType<typeof timer> | undefined
  try {
    await Promise.race([caughtUp, reader, limit.elapsed])
    live = timer(sizes.liveSeconds * 1000)
    await Promise.race([live.elapsed, reader])
  } finally {
    limit.cancel()
    live?.cancel()
    writing = false
    await writers
  }
  const deadline = now() + 120
  while (!readerFailed && seen.size < appended.length && now() - lastReceivedAt < sizes.quietSeconds && now() < deadline) {
    await sleep(50)
  }
  controller.abort()
  await reader

  let missed = 0
  for (const id of appended) if (!seen.has(id)) missed++
  const seconds = (caughtUpAt ?? now()) - started
  return {
    perSecond: caughtUpAt === undefined ? 0 : prefillRead / seconds,
    appended: appended.length,
    missed,
    duplicates: received - seen.size,
  }
}

async function catchUpOurs(context: BenchContext, sizes: CatchUpSizes, payloads: readonly EventData[]): Promise<CatchUpResult> {
  const db = await context.createDatabase()
  const store = new PostgresEventStore({ connectionString: db.url, pool: db.pool })
  try {
    return await catchUp(
      context,
      sizes,
      (writer, onAppended) => oursWriter(store, `w${writer}`, writer, writer < 200 ? 100 : 1, payloads, onAppended),
      async (onEvent, signal) => {
        for await (const event of store.subscribeToAll({ signal })) onEvent(event.id)
      },
    )
  } finally {
    await store.close()
  }
}

/** The peer's own subscription: a consumer with one reactor, reading batches of 500 as fast as it can. */
async function catchUpPeer(context: BenchContext, sizes: CatchUpSizes, payloads: readonly EventData[]): Promise<CatchUpResult> {
  const db = await context.createDatabase()
  const peer = await openPeer(db.url)
  try {
    return await catchUp(
      context,
      sizes,
      (writer, onAppended) => peerWriter(peer, `w${writer}`, writer, writer < 200 ? 100 : 1, payloads, onAppended),
      async (onEvent, signal) => {
        const consumer = peer.store.consumer({ pulling: { batchSize: 500, pullingFrequencyInMs: 1 } })
        consumer.reactor<PeerEvent>({
          processorId: 'bench-catch-up',
          startFrom: 'BEGINNING',
          // Checkpoints in memory: a stored checkpoint per message would measure checkpoint writes, not reads.
          checkpoints: {
            read: async () => ({ lastCheckpoint: null }),
            store: async ({ message }) => ({ success: true, newCheckpoint: message.metadata.globalPosition }),
          },
          eachMessage: (message) => {
            onEvent(String(message.metadata.messageId))
          },
        })
        const running = consumer.start()
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
        await consumer.stop()
        await running
        await consumer.close()
      },
    )
  } finally {
    await peer.close()
  }
}

const catchUpRead: Scenario = {
  name: 'catch-up-read',
  description:
    'a subscriber reads the whole log from the start (ours 100k events, the peer 10k; quick: a tenth) while 4 writers append; every appended id is checked',
  async run(context) {
    const payloads = eventPayloads(PAYLOAD_SEED)
    const ours = await catchUpOurs(context, catchUpSizes(context, OURS_PREFILL), payloads)
    context.log(
      `catch-up-read: ours ${Math.round(ours.perSecond)} events/s, ${ours.missed} missed of ${ours.appended}, ${ours.duplicates} duplicates`,
    )
    const peerSizes = catchUpSizes(context, PEER_PREFILL)
    const peer = await catchUpPeer(context, peerSizes, payloads)
    context.log(
      `catch-up-read: peer ${Math.round(peer.perSecond)} events/s, ${peer.missed} missed of ${peer.appended}, ${peer.duplicates} duplicates`,
    )
    return [
      { metric: 'events/s', value: ours.perSecond, unit: 'events/s', target: { op: '>=', value: 25_000 }, better: 'higher' },
      { metric: 'missed', value: ours.missed, unit: 'events', target: { op: '<=', value: 0 }, better: 'lower' },
      { metric: 'duplicates', value: ours.duplicates, unit: 'events', better: 'lower' },
      { metric: 'appended and checked', value: ours.appended, unit: 'events' },
      { metric: `peer events/s (${peerSizes.prefill / 1000}k log)`, value: peer.perSecond, unit: 'events/s', better: 'higher' },
      { metric: 'peer missed', value: peer.missed, unit: 'events', better: 'lower' },
      { metric: 'peer duplicates', value: peer.duplicates, unit: 'events', better: 'lower' },
      { metric: 'peer appended and checked', value: peer.appended, unit: 'events' },
    ]
  },
}

export const eventStoreScenarios: readonly Scenario[] = [
  appendComparison(
    'append-1-writer',
    '1 writer, 1 event (~320-byte JSON data) per append, exact revisions over 64 streams: ours vs emmett-postgresql vs a plain INSERT',
    1,
    0.75,
  ),
  appendComparison(
    'append-8-writers',
    '8 concurrent writers, 1 event per append, exact revisions over 64 streams each: ours vs emmett-postgresql vs a plain INSERT',
    8,
    0.7,
  ),
  batched,
  catchUpRead,
]
