import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import {
  appendEach,
  WrongExpectedRevisionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../commands/event-store/port.js'

interface ThingData {
  readonly n: number
  readonly text: string
}

/**
 * The one contract both event-store adapters must pass. Stream names are unique per run so the suite can
 * share an EventStoreDB server with other data.
 */
export function eventStoreContract(t: Test, makeStore: (t: Test) => Promise<EventStore>): void {
  const stream = (name: string) => `${name}-${randomUUID().replaceAll('-', '')}`
  const event = (n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
    type: 'ThingHappened',
    data: { n, text: 'héllo ✓' },
    metadata: { org_id: 7, actor: { kind: 'system', id: null }, occurred_at: '2026-01-01T00:00:00.000Z' },
    ...extra,
  })
  // The suite's streams hold only its own ThingHappened events, whose data it wrote: read back as such.
  const thing = (e: RecordedEvent) => e as RecordedEvent<{ type: string; data: ThingData }>
  const collect = async (iterable: AsyncIterable<RecordedEvent>) => {
    const out: RecordedEvent<{ type: string; data: ThingData }>[] = []
    for await (const e of iterable) out.push(thing(e))
    return out
  }
  const rejectsWrongRevision = async (t: Test, promise: Promise<unknown>, actual: bigint | 'no_stream') => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    )
    t.ok(error instanceof WrongExpectedRevisionError, 'throws WrongExpectedRevisionError')
    t.equal((error as WrongExpectedRevisionError).actual, actual, 'reports the actual revision')
  }

  t.test('no_stream creates a stream; events read back in order with data and metadata', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    const result = await store.append(s, [event(1), event(2), event(3)], 'no_stream')
    t.equal(result.nextRevision, 2n)
    const events = await collect(store.readStream(s))
    t.same(
      events.map((e) => e.revision),
      [0n, 1n, 2n],
    )
    t.same(
      events.map((e) => e.data.n),
      [1, 2, 3],
    )
    t.equal(events[0]!.data.text, 'héllo ✓')
    t.equal(events[0]!.metadata.org_id, 7)
    t.equal(events[0]!.type, 'ThingHappened')
    t.equal(events[2]!.stream, s)
    t.equal(store.comparePositions(events[2]!.position, result.position), 0, 'append returns the last position')
    t.ok(events[0]!.recordedAt instanceof Date)
  })

  t.test('no_stream on an existing stream is refused', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    await store.append(s, [event(1)], 'no_stream')
    await rejectsWrongRevision(t, store.append(s, [event(2)], 'no_stream'), 0n)
    t.equal((await collect(store.readStream(s))).length, 1, 'nothing appended')
  })

  t.test('exact revision: the current one appends, a stale one is refused', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    const first = await store.append(s, [event(1), event(2)], 'no_stream')
    const second = await store.append(s, [event(3)], first.nextRevision)
    t.equal(second.nextRevision, 2n)
    await rejectsWrongRevision(t, store.append(s, [event(4)], first.nextRevision), 2n)
    await rejectsWrongRevision(t, store.append(stream('missing'), [event(1)], 0n), 'no_stream')
  })

  t.test('stream_exists needs the stream; any takes both', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    await rejectsWrongRevision(t, store.append(s, [event(1)], 'stream_exists'), 'no_stream')
    const a = await store.append(s, [event(1)], 'any')
    t.equal(a.nextRevision, 0n)
    const b = await store.append(s, [event(2)], 'stream_exists')
    t.equal(b.nextRevision, 1n)
    const c = await store.append(s, [event(3)], 'any')
    t.equal(c.nextRevision, 2n)
  })

  t.test('re-appending the same event ids is idempotent', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    const batch = [event(1, { id: randomUUID() }), event(2, { id: randomUUID() })]
    const first = await store.append(s, batch, 'no_stream')
    const again = await store.append(s, batch, 'no_stream')
    t.equal(again.nextRevision, first.nextRevision)
    t.equal(store.comparePositions(again.position, first.position), 0)
    const againAny = await store.append(s, batch, 'any')
    t.equal(againAny.nextRevision, first.nextRevision)
    t.equal((await collect(store.readStream(s))).length, 2, 'no duplicates')
  })

  t.test('readStream honours fromRevision and maxCount; a missing stream is empty', async (t) => {
    const store = await makeStore(t)
    const s = stream('thing')
    await store.append(
      s,
      Array.from({ length: 10 }, (_, i) => event(i)),
      'no_stream',
    )
    const page = await collect(store.readStream(s, { fromRevision: 3n, maxCount: 4 }))
    t.same(
      page.map((e) => e.data.n),
      [3, 4, 5, 6],
    )
    t.same(await collect(store.readStream(stream('missing'))), [])
  })

  t.test('readAll is in global order, resumes after a position and honours maxCount', async (t) => {
    const store = await makeStore(t)
    const a = stream('a')
    const b = stream('b')
    const start = await store.append(stream('marker'), [event(0)], 'no_stream')
    await store.append(a, [event(1)], 'no_stream')
    await store.append(b, [event(2)], 'no_stream')
    await store.append(a, [event(3)], 0n)
    const mine = (await collect(store.readAll({ after: start.position }))).filter((e) => e.stream === a || e.stream === b)
    t.same(
      mine.map((e) => e.data.n),
      [1, 2, 3],
    )
    for (let i = 1; i < mine.length; i++) t.ok(store.comparePositions(mine[i - 1]!.position, mine[i]!.position) < 0)
    const resumed = (await collect(store.readAll({ after: mine[0]!.position }))).filter((e) => e.stream === a || e.stream === b)
    t.same(
      resumed.map((e) => e.data.n),
      [2, 3],
    )
    t.equal((await collect(store.readAll({ after: start.position, maxCount: 2 }))).length, 2)
    const head = await store.headPosition()
    t.ok(head !== null && store.comparePositions(head, mine[2]!.position) >= 0, 'headPosition is at or after the last append')
  })

  t.test('concurrent appends at the same revision: exactly one wins', async (t) => {
    const store = await makeStore(t)
    const s = stream('race')
    const created = await store.append(s, [event(0)], 'no_stream')
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.append(s, [event(i + 1)], created.nextRevision)))
    t.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1)
    t.ok(
      outcomes
        .filter((o) => o.status === 'rejected')
        .every((o) => (o as PromiseRejectedResult).reason instanceof WrongExpectedRevisionError),
    )
    t.equal((await collect(store.readStream(s))).length, 2)
  })

  t.test('appendEach: each stream checks its own revision; conflicts are returned, the others land', async (t) => {
    const store = await makeStore(t)
    const [a, b, c] = [stream('each'), stream('each'), stream('each')]
    const ra = await store.append(a, [event(0)], 'no_stream')
    const rb = await store.append(b, [event(0)], 'no_stream')
    const rc = await store.append(c, [event(0), event(1)], 'no_stream')
    const outcomes = await appendEach(store, [
      { stream: a, events: [event(1), event(2)], expected: ra.nextRevision },
      { stream: b, events: [event(1)], expected: rb.nextRevision + 1n },
      { stream: c, events: [event(2)], expected: rc.nextRevision },
    ])
    t.equal(outcomes.length, 3)
    const [oa, ob, oc] = outcomes
    t.ok(!(oa instanceof WrongExpectedRevisionError) && oa!.nextRevision === 2n, 'a: two events at revisions 1 and 2')
    t.ok(
      ob instanceof WrongExpectedRevisionError && ob.actual === 0n,
      'b: a stale expectation is a returned conflict with the actual revision',
    )
    t.ok(!(oc instanceof WrongExpectedRevisionError) && oc!.nextRevision === 2n, 'c: appended')
    t.same(
      (await collect(store.readStream(a))).map((e) => [e.revision, e.data.n]),
      [
        [0n, 0],
        [1n, 1],
        [2n, 2],
      ],
    )
    t.equal((await collect(store.readStream(b))).length, 1, 'nothing appended to the conflicting stream')
    const last = (await collect(store.readStream(c))).at(-1)!
    t.equal(store.comparePositions(last.position, (oc as { position: string }).position), 0, 'each outcome carries its last position')
    t.same(await appendEach(store, []), [], 'no writes, no call')
    t.throws(
      () =>
        appendEach(store, [
          { stream: a, events: [event(9)], expected: 2n },
          { stream: a, events: [event(9)], expected: 2n },
        ]),
      TypeError,
      'a stream at most once',
    )
  })

  t.test(
    'appendEach: no_stream beside exact revisions: new streams start at 0, an existing one conflicts, a re-append is idempotent',
    async (t) => {
      const store = await makeStore(t)
      const [a, b, c] = [stream('each-new'), stream('each-new'), stream('each-new')]
      const ra = await store.append(a, [event(0)], 'no_stream')
      const firstOfC = event(0, { id: randomUUID() })
      const outcomes = await appendEach(store, [
        { stream: a, events: [event(1)], expected: ra.nextRevision },
        { stream: b, events: [event(0), event(1)], expected: 'no_stream' },
        { stream: c, events: [firstOfC], expected: 'no_stream' },
      ])
      t.ok(
        outcomes.every((o) => !(o instanceof WrongExpectedRevisionError)),
        'all three land',
      )
      t.same(
        (await collect(store.readStream(b))).map((e) => [e.revision, e.data.n]),
        [
          [0n, 0],
          [1n, 1],
        ],
        'a new stream starts at revision 0',
      )
      t.equal((outcomes[1] as { nextRevision: bigint }).nextRevision, 1n)
      const again = await appendEach(store, [
        { stream: a, events: [event(9)], expected: 'no_stream' },
        { stream: c, events: [firstOfC], expected: 'no_stream' },
      ])
      t.ok(
        again[0] instanceof WrongExpectedRevisionError && again[0].actual === 1n,
        'no_stream on an existing stream is a returned conflict',
      )
      t.ok(!(again[1] instanceof WrongExpectedRevisionError) && again[1]!.nextRevision === 0n, 'the same first event again is idempotent')
      t.equal((await collect(store.readStream(a))).length, 2, 'nothing appended to the conflicting stream')
      t.equal((await collect(store.readStream(c))).length, 1, 'no duplicate')
    },
  )

  t.test('appendEach: re-appending the same ids is idempotent; other modes work too', async (t) => {
    const store = await makeStore(t)
    const [a, b] = [stream('each'), stream('each')]
    const created = await store.append(a, [event(0)], 'no_stream')
    const writes = [{ stream: a, events: [event(1, { id: randomUUID() })], expected: created.nextRevision }]
    const [first] = await appendEach(store, writes)
    const [again] = await appendEach(store, writes)
    t.ok(!(again instanceof WrongExpectedRevisionError) && !(first instanceof WrongExpectedRevisionError))
    t.equal((again as { nextRevision: bigint }).nextRevision, 1n)
    t.equal((await collect(store.readStream(a))).length, 2, 'no duplicate')
    const mixed = await appendEach(store, [
      { stream: b, events: [event(0)], expected: 'no_stream' },
      { stream: a, events: [event(2)], expected: 'stream_exists' },
    ])
    t.ok(mixed.every((o) => !(o instanceof WrongExpectedRevisionError)))
    t.equal((await collect(store.readStream(a))).length, 3)
  })

  t.test('appendEach: concurrent overlapping batches never deadlock, and each stream takes exactly one', async (t) => {
    const store = await makeStore(t)
    const streams = Array.from({ length: 12 }, () => stream('each-race'))
    for (const s of streams) await store.append(s, [event(0)], 'no_stream')
    // Eight batches over the same streams in different orders, all expecting revision 0.
    const batches = Array.from({ length: 8 }, (_, i) => {
      const order = [...streams].sort((x, y) => (x.charCodeAt(x.length - 1 - (i % 5)) ^ i) - (y.charCodeAt(y.length - 1 - (i % 5)) ^ i))
      return appendEach(
        store,
        (i % 2 === 0 ? order : order.reverse()).map((s) => ({ stream: s, events: [event(i + 1)], expected: 0n })),
      )
    })
    const outcomes = await Promise.all(batches)
    for (const s of streams) {
      const events = await collect(store.readStream(s))
      t.equal(events.length, 2, `${s.slice(0, 9)}…: exactly one batch appended`)
    }
    const wins = outcomes.flat().filter((o) => !(o instanceof WrongExpectedRevisionError)).length
    t.equal(wins, streams.length, 'one win per stream, every other write a returned conflict')
  })

  t.test('subscribeToAll catches up, then delivers live appends in order, and stops on abort', async (t) => {
    const store = await makeStore(t)
    const s = stream('live')
    const start = await store.append(stream('marker'), [event(0)], 'no_stream')
    await store.append(s, [event(1)], 'no_stream')
    const controller = new AbortController()
    const seen: number[] = []
    const done = (async () => {
      for await (const e of store.subscribeToAll({ after: start.position, signal: controller.signal })) {
        if (e.stream !== s) continue
        seen.push(thing(e).data.n)
        if (seen.length === 4) controller.abort()
      }
    })()
    await new Promise((r) => setTimeout(r, 100))
    await store.append(s, [event(2), event(3)], 0n)
    await store.append(s, [event(4)], 2n)
    await done
    t.same(seen, [1, 2, 3, 4])
  })
}
