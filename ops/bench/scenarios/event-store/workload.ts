/**
 * The event-store bench's deterministic workload: event payloads, ids, and a closed-loop writer driver that
 * measures over a fixed window after a warm-up. Shared by our store, the peer (emmett) and the plain insert,
 * so all three do the same client-side work per append (build the event, serialize it).
 */

/** mulberry32: a small seeded PRNG, so every run generates the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

/** A v4-shaped uuid from the generator: random-looking (as real ids are in the unique index), yet deterministic. */
export function uuidFrom(next: () => number): string {
  const a = next()
  const b = next()
  const c = next()
  const d = next()
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b & 0xfff, 3)}-` + `${hex(0x8000 | (c >>> 18), 4)}-${hex(c & 0xffff, 4)}${hex(d, 8)}`
}

const ENGINES = ['chatgpt', 'perplexity', 'gemini', 'copilot'] as const
const SERVICES = ['emergency plumbing', 'boiler repair', 'roof inspection', 'solar panel installation'] as const

/** The data of a realistic event, ~300 bytes as JSON: an AEO capture recorded by an agent. */
export type EventData = {
  readonly client_id: number
  readonly run_id: string
  readonly engine: string
  readonly service: string
  readonly query: string
  readonly presence: boolean
  readonly named_first: boolean
  readonly position: number
  readonly excerpt: string
  readonly captured_at: string
}

/** A ring of distinct payloads, built once per scenario run so payload generation stays out of the window. */
export function eventPayloads(seed: number, count = 1024): EventData[] {
  const next = prng(seed)
  const payloads: EventData[] = []
  for (let i = 0; i < count; i++) {
    const service = SERVICES[next() % SERVICES.length]!
    const city = ['Leeds', 'Bristol', 'York', 'Bath'][next() % 4]!
    payloads.push({
      client_id: 1 + (next() % 5000),
      run_id: uuidFrom(next),
      engine: ENGINES[next() % ENGINES.length]!,
      service,
      query: `best ${service} near ${city}`,
      presence: next() % 3 !== 0,
      named_first: next() % 4 === 0,
      position: 1 + (next() % 10),
      excerpt: `Local firms for ${service} in ${city}, same-day slots`,
      captured_at: new Date(Date.UTC(2025, 0, 1) + (next() % 31_536_000) * 1000).toISOString(),
    })
  }
  return payloads
}

/** Realistic metadata (~220 bytes as JSON): tracing ids, the actor, the organization, the time. */
export function eventMetadata(next: () => number, orgId: number, correlationId: string): Record<string, unknown> {
  return {
    correlation_id: correlationId,
    causation_id: uuidFrom(next),
    actor: { kind: 'agent', id: `agent-${next() % 64}` },
    org_id: orgId,
    occurred_at: new Date().toISOString(),
    schema_version: 1,
  }
}

export const EVENT_TYPE = 'AeoCaptureRecorded'

/** One writer's work: one append (of any number of events); resolves to the number of events appended. */
export type AppendStep = () => Promise<number>

export interface WindowResult {
  /** Events whose append completed inside the window. */
  readonly events: number
  readonly seconds: number
  readonly perSecond: number
  /** Per event, over the contender's slices, when a probe was given (null where it could not tell). */
  readonly postgresCpuUsPerEvent?: number | null | undefined
  readonly walBytesPerEvent?: number | null | undefined
}

/** What one slice cost the database server: CPU ms of every server process, and WAL bytes written. */
export interface SliceCost {
  readonly postgresMs: number | null
  readonly walBytes: number | null
}

/** Opened just before a slice and stopped just after it. */
export type SliceProbe = () => Promise<{ stop(): Promise<SliceCost> }>

/**
 * Closed loop: each writer runs its next append as soon as the previous one returned. Appends completing
 * during the warm-up are not counted; the window then counts completions for `seconds`; writers stop issuing
 * appends at the end of the window (an append still in flight then finishes but is not counted).
 */
export async function measureWindow(steps: readonly AppendStep[], warmupSeconds: number, seconds: number): Promise<WindowResult> {
  const now = () => Number(process.hrtime.bigint()) / 1e9
  const started = now()
  const windowStart = started + warmupSeconds
  const windowEnd = windowStart + seconds
  let events = 0
  await Promise.all(
    steps.map(async (step) => {
      while (now() < windowEnd) {
        const n = await step()
        const t = now()
        if (t >= windowStart && t < windowEnd) events += n
      }
    }),
  )
  return { events, seconds, perSecond: events / seconds }
}

/** One side of a comparison: a label and its writers. */
export interface Contender {
  readonly label: string
  readonly steps: readonly AppendStep[]
}

export interface Interleaving {
  /** Per contender, once, before the first slice: not counted. */
  readonly warmupSeconds: number
  readonly sliceSeconds: number
  /** Slices per contender, in the order A B C, C B A, A B C…: a drift of the machine's speed over the run
   * (another process, a checkpoint) then weighs on every contender alike, and the ratios stay honest. */
  readonly rounds: number
}

/**
 * Measures the contenders in interleaved slices; returns each one's events per second over its slices and,
 * with a probe, its server CPU and WAL per event. Events per second swing with whatever shares the machine;
 * CPU and WAL per event much less, so they are what shows a change that does less work.
 */
export async function compareInterleaved(
  contenders: readonly Contender[],
  options: Interleaving,
  probe?: SliceProbe,
): Promise<Map<string, WindowResult>> {
  const run = (c: Contender, seconds: number) => measureWindow(c.steps, 0, seconds)
  for (const c of contenders) await run(c, options.warmupSeconds)
  const totals = new Map(
    contenders.map((c) => [c.label, { events: 0, seconds: 0, postgresMs: 0 as number | null, walBytes: 0 as number | null }]),
  )
  for (let round = 0; round < options.rounds; round++) {
    for (const c of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      const probing = await probe?.()
      const result = await run(c, options.sliceSeconds)
      const cost = await probing?.stop()
      const total = totals.get(c.label)!
      total.events += result.events
      total.seconds += result.seconds
      total.postgresMs = total.postgresMs === null || cost?.postgresMs == null ? null : total.postgresMs + cost.postgresMs
      total.walBytes = total.walBytes === null || cost?.walBytes == null ? null : total.walBytes + cost.walBytes
    }
  }
  const perEvent = (value: number | null, events: number, scale: number) =>
    probe === undefined ? undefined : value === null || events === 0 ? null : (value * scale) / events
  return new Map(
    [...totals].map(([label, t]) => [
      label,
      {
        events: t.events,
        seconds: t.seconds,
        perSecond: t.events / t.seconds,
        postgresCpuUsPerEvent: perEvent(t.postgresMs, t.events, 1000),
        walBytesPerEvent: perEvent(t.walBytes, t.events, 1),
      },
    ]),
  )
}
