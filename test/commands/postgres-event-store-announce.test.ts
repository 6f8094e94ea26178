/**
 * How the PostgreSQL store tells other processes that the log grew. There is no trigger on es_events (a
 * transaction that sent a NOTIFY holds a cluster-wide lock while it commits, which serialized concurrent
 * appenders); each store instance announces its own appends after they commit, one NOTIFY in flight at a
 * time. What listeners rely on: a wake-up (the payload is empty; they read the log themselves) that comes
 * after the last append committed.
 */
import t, { type Test } from 'tap'
import pg from 'pg'
import { APPENDED_CHANNEL, PostgresEventStore } from '../../commands/event-store/postgres.js'
import type { NewEvent } from '../../commands/event-store/port.js'
import { createTestDatabase } from '../support/database.js'

const event = (n: number): NewEvent => ({
  type: 'ThingHappened',
  data: { n },
  metadata: { org_id: 7, actor: { kind: 'system', id: null }, occurred_at: '2026-01-01T00:00:00.000Z' },
})

/** A LISTEN connection of its own, as another process would have: records when each notification arrived. */
async function listen(t: Test, url: string): Promise<{ readonly arrivals: number[]; quiet(ms: number): Promise<void> }> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  t.teardown(() => client.end().catch(() => {}))
  const arrivals: number[] = []
  let last = Date.now()
  client.on('notification', (message) => {
    if (message.channel !== APPENDED_CHANNEL) return
    arrivals.push(performance.now())
    last = Date.now()
  })
  await client.query(`listen ${APPENDED_CHANNEL}`)
  return {
    arrivals,
    /** Resolves once no notification arrived for `ms`. */
    async quiet(ms) {
      last = Date.now()
      while (Date.now() - last < ms) await new Promise((r) => setTimeout(r, 20))
    },
  }
}

t.test('es_events has no NOTIFY trigger: an append commits without taking the notify queue lock', async (t) => {
  const { pool } = await createTestDatabase(t)
  const { rows } = await pool.query(`select tgname from pg_trigger where tgrelid = 'es_events'::regclass and not tgisinternal`)
  t.same(rows, [], 'no user trigger on es_events')
})

t.test('an append by one store instance wakes a listener on another connection, after it committed', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const listener = await listen(t, url)
  // A second pool stands for another process (the ops CLI, a second API process).
  const otherPool = new pg.Pool({ connectionString: url, max: 2 })
  otherPool.on('error', () => {})
  const other = new PostgresEventStore({ connectionString: url, pool: otherPool })
  t.teardown(async () => {
    await other.close()
    await otherPool.end().catch(() => {})
  })
  await other.append('thing-1', [event(1)], 'no_stream')
  await listener.quiet(200)
  t.equal(listener.arrivals.length, 1, 'one notification for one append')
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from es_events')
  t.equal(rows[0]!.n, 1, 'the announced event is committed and visible to the listening side')
})

t.test('a burst of appends costs a couple of notifications, and one comes after the last commit', async (t) => {
  const { url } = await createTestDatabase(t)
  const listener = await listen(t, url)
  // One connection: the pool queues statements in order, so the announcement of the first append is sent
  // while the others are still queued, and the coalescing is deterministic.
  const onePool = new pg.Pool({ connectionString: url, max: 1 })
  onePool.on('error', () => {})
  const store = new PostgresEventStore({ connectionString: url, pool: onePool })
  t.teardown(async () => {
    await store.close()
    await onePool.end().catch(() => {})
  })
  const appends = 20
  let lastCommitted = 0
  await Promise.all(
    Array.from({ length: appends }, (_, i) =>
      store.append(`burst-${i}`, [event(i)], 'no_stream').then(() => {
        lastCommitted = Math.max(lastCommitted, performance.now())
      }),
    ),
  )
  await listener.quiet(300)
  t.ok(listener.arrivals.length >= 1, 'at least one notification')
  t.ok(listener.arrivals.length <= 2, `coalesced: ${listener.arrivals.length} notifications for ${appends} appends`)
  t.ok(Math.max(...listener.arrivals) > lastCommitted, 'a notification arrived after the last append committed')
})

t.test('appends that commit while an announcement is in flight get one more after it', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const listener = await listen(t, url)
  // Holds the store's announcements at a gate, so later appends commit while the first is still in flight.
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  let announcesSent = 0
  const gated = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query') {
        return async (query: unknown, values?: unknown[]) => {
          if ((query as { name?: string }).name === 'rr_es_announce') {
            announcesSent++
            await gate
          }
          return target.query(query as pg.QueryConfig, values)
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const store = new PostgresEventStore({ connectionString: url, pool: gated })
  t.teardown(() => store.close())
  await store.append('late-1', [event(1)], 'no_stream')
  await store.append('late-2', [event(2)], 'no_stream')
  await store.append('late-3', [event(3)], 'no_stream')
  const lastCommitted = performance.now()
  t.equal(announcesSent, 1, 'one announcement in flight; the later appends did not start their own')
  open()
  await listener.quiet(300)
  t.equal(listener.arrivals.length, 2, 'the held announcement, then exactly one more for the appends it may not cover')
  t.ok(Math.max(...listener.arrivals) > lastCommitted, 'the last notification came after the last append committed')
})

t.test('appendEach announces too', async (t) => {
  const { url } = await createTestDatabase(t)
  const listener = await listen(t, url)
  const otherPool = new pg.Pool({ connectionString: url, max: 2 })
  otherPool.on('error', () => {})
  const store = new PostgresEventStore({ connectionString: url, pool: otherPool })
  t.teardown(async () => {
    await store.close()
    await otherPool.end().catch(() => {})
  })
  await store.append('each-1', [event(0)], 'no_stream')
  await store.append('each-2', [event(0)], 'no_stream')
  await listener.quiet(200)
  const before = listener.arrivals.length
  await store.appendEach([
    { stream: 'each-1', events: [event(1)], expected: 0n },
    { stream: 'each-2', events: [event(1)], expected: 0n },
  ])
  await listener.quiet(200)
  t.equal(listener.arrivals.length, before + 1, 'one notification for one appendEach')
})

/** A pool that counts the store's announcements (NOTIFY statements) and when each was sent. */
function countingAnnouncements(pool: pg.Pool): { readonly pool: pg.Pool; readonly sent: number[] } {
  const sent: number[] = []
  const counting = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query') {
        return (query: unknown, values?: unknown[]) => {
          if ((query as { name?: string }).name === 'rr_es_announce') sent.push(performance.now())
          return target.query(query as pg.QueryConfig, values)
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { pool: counting, sent }
}

t.test('a stream of one-at-a-time appends is announced at most once per interval, the last after it committed', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const listener = await listen(t, url)
  const { pool: counting, sent } = countingAnnouncements(pool)
  const store = new PostgresEventStore({ connectionString: url, pool: counting })
  t.teardown(() => store.close())
  const appends = 60
  const started = performance.now()
  for (let i = 0; i < appends; i++) await store.append(`stream-${i}`, [event(i)], 'no_stream')
  const lastCommitted = performance.now()
  await listener.quiet(300)
  // Each append waits for the previous one, so without the interval every append would send its own NOTIFY
  // (the in-flight rule alone coalesces only appends that overlap).
  const gaps = sent.slice(1).map((at, i) => at - sent[i]!)
  // How many that saves depends on how fast the appends run (the machine's load), so it is only reported.
  t.comment(`${sent.length} announcements for ${appends} appends in ${Math.round(lastCommitted - started)} ms`)
  t.ok(sent.length >= 1, 'announced')
  t.ok(Math.min(...gaps) >= 4.5, `announcements at least the interval apart (closest ${Math.min(...gaps).toFixed(1)} ms)`)
  t.ok(Math.max(...listener.arrivals) > lastCommitted, 'the last notification came after the last append committed')
})

t.test('closing the store sends the announcement still waiting for its interval', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const listener = await listen(t, url)
  const { pool: counting, sent } = countingAnnouncements(pool)
  const store = new PostgresEventStore({ connectionString: url, pool: counting })
  await store.append('first', [event(1)], 'no_stream')
  await store.append('second', [event(2)], 'no_stream')
  const lastCommitted = performance.now()
  await store.close()
  await listener.quiet(300)
  t.equal(sent.length, 2, 'the first append announced at once, the second on close')
  t.ok(Math.max(...listener.arrivals) > lastCommitted, 'the last notification came after the last append committed')
})
