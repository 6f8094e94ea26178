import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import pg from 'pg'
import { namedStatement } from '../named-statements.js'
import { PG_CONNECT_TIMEOUT_MS } from '../postgres-connect-timeout.js'
import {
  appendOneByOne,
  DuplicateEventIdError,
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

/**
 * NOTIFY channel that announces appends to other processes. Sent after the append committed, by the
 * appending process, outside the append's transaction (see migrations/0007-notify-after-commit.ts).
 */
export const APPENDED_CHANNEL = 'rr_es_appended'
const ANNOUNCE_SQL = `select pg_notify('${APPENDED_CHANNEL}', '')`

const BATCH = 500
/** Polling fallback when no NOTIFY arrives (lost listener connection, or an unrelated open transaction). */
const IDLE_POLL_MS = 1000
/** After a wake-up that showed nothing, an older transaction may still hold the snapshot back: poll soon. */
const PENDING_POLL_MS = 25
/**
 * The shortest gap between two announcements (NOTIFYs) of one process: under a stream of appends, other
 * processes hear about them at most this much later; an isolated append is announced at once.
 */
const ANNOUNCE_INTERVAL_MS = 5
const FAST_POLLS_AFTER_WAKE = 40

/**
 * Positions are `<transaction id>/<global position>`: the log's order is (transaction_id, global_position),
 * and readers only see transactions below pg_snapshot_xmin, so an append that commits late is never skipped.
 */
export function parsePosition(position: Position): { txid: string; seq: string } {
  const match = /^(\d+)\/(\d+)$/.exec(position)
  if (!match) throw new TypeError(`Not a PostgreSQL event-store position: ${position}`)
  return { txid: match[1]!, seq: match[2]! }
}

function formatPosition(txid: string, seq: string): Position {
  return `${txid}/${seq}`
}

/** The CAS on `es_streams` for each expected-revision mode; each returns the revision before the append. */
const casByMode = {
  any: `insert into es_streams (stream_name, revision) values ($1, $2 - 1)
        on conflict (stream_name) do update set revision = es_streams.revision + $2
        returning revision - $2 as prev`,
  no_stream: `insert into es_streams (stream_name, revision) values ($1, $2 - 1)
              on conflict (stream_name) do nothing returning revision - $2 as prev`,
  stream_exists: `update es_streams set revision = revision + $2 where stream_name = $1
                  returning revision - $2 as prev`,
  exact: `update es_streams set revision = revision + $2 where stream_name = $1 and revision = $3::bigint
          returning revision - $2 as prev`,
} as const

type AppendMode = keyof typeof casByMode

function appendSql(mode: AppendMode): string {
  // One statement per batch: the CAS and the inserts commit together or not at all. The events come as one
  // jsonb array (one JSON.stringify, one parse on the server): cheaper on both sides than four arrays of
  // escaped strings. `->` keeps a JSON null as jsonb 'null', never SQL NULL.
  return `with s as (${casByMode[mode]}),
  e as (
    insert into es_events (event_id, stream_name, stream_revision, type, data, metadata)
    select (x.e->>'id')::uuid, $1, s.prev + x.ord, x.e->>'type', x.e->'data', x.e->'metadata'
    from s, jsonb_array_elements($4::jsonb) with ordinality as x(e, ord)
    order by x.ord
    returning global_position, transaction_id, stream_revision
  )
  select $3::bigint as expected, max(stream_revision)::text as revision, max(global_position)::text as seq,
         max(transaction_id::text) as txid
  from e`
}

/**
 * The CAS for a single-event append (the common case): each returns the stream's new revision, which is the
 * event's. No arrays, no aggregate: about half the server time of the batch statement for one event.
 */
const casOneByMode = {
  any: `insert into es_streams (stream_name, revision) values ($1, 0)
        on conflict (stream_name) do update set revision = es_streams.revision + 1
        returning revision`,
  no_stream: `insert into es_streams (stream_name, revision) values ($1, 0)
              on conflict (stream_name) do nothing returning revision`,
  stream_exists: `update es_streams set revision = revision + 1 where stream_name = $1 returning revision`,
  exact: `update es_streams set revision = revision + 1 where stream_name = $1 and revision = $6::bigint
          returning revision`,
} as const

function appendOneSql(mode: AppendMode): string {
  // No row when the CAS fails: the caller then tells a conflict from an idempotent re-append.
  return `with s as (${casOneByMode[mode]})
  insert into es_events (event_id, stream_name, stream_revision, type, data, metadata)
  select $2::uuid, $1, s.revision, $3, $4::jsonb, $5::jsonb from s
  returning stream_revision::text as revision, global_position::text as seq, transaction_id::text as txid`
}

const MODES = Object.keys(casByMode) as AppendMode[]

/**
 * appendEach with exact expected revisions or `no_stream` (expected −1 here): one statement for every
 * stream. The existing stream rows are locked in stream-name order first (`locked`), so two such statements
 * over overlapping streams wait for each other instead of deadlocking; a stream whose revision moved (now,
 * or while waiting for its lock) drops out of the CAS and gets no events. New streams are inserted in
 * stream-name order (`created`, as the no_stream append does: `on conflict do nothing`), so a stream that
 * exists by then gets no events either. Returns one row per stream that was appended to.
 */
const APPEND_EACH_STATEMENT = {
  name: 'rr_es_append_each',
  text: `with w as (
    select x.ord, x.w->>'stream' as stream, (x.w->>'expected')::bigint as expected,
           jsonb_array_length(x.w->'events') as n, x.w->'events' as events
    from jsonb_array_elements($1::jsonb) with ordinality as x(w, ord)
  ),
  locked as (
    select st.stream_name from es_streams st join w on w.stream = st.stream_name and st.revision = w.expected
    order by st.stream_name
    for update of st
  ),
  updated as (
    update es_streams st set revision = st.revision + w.n
    from w, locked
    where st.stream_name = w.stream and locked.stream_name = st.stream_name and st.revision = w.expected
    returning st.stream_name, st.revision - w.n as prev, w.events, w.ord
  ),
  created as (
    insert into es_streams (stream_name, revision)
    select w.stream, w.n - 1 from w where w.expected = -1 order by w.stream
    on conflict (stream_name) do nothing
    returning stream_name, -1::bigint as prev
  ),
  s as (
    select stream_name, prev, events, ord from updated
    union all
    select c.stream_name, c.prev, w.events, w.ord from created c join w on w.stream = c.stream_name
  ),
  e as (
    insert into es_events (event_id, stream_name, stream_revision, type, data, metadata)
    select (x.e->>'id')::uuid, s.stream_name, s.prev + x.ord, x.e->>'type', x.e->'data', x.e->'metadata'
    from s cross join lateral jsonb_array_elements(s.events) with ordinality as x(e, ord)
    order by s.ord, x.ord
    returning stream_name, stream_revision, global_position, transaction_id
  )
  select stream_name, max(stream_revision)::text as revision, max(global_position)::text as seq, max(transaction_id::text) as txid
  from e group by stream_name`,
} as const

/**
 * Named statements: each connection parses and plans them once, then only binds and executes (an unnamed
 * statement is parsed and planned on every append, which cost more than the append itself).
 */
const APPEND_STATEMENTS = Object.fromEntries(
  MODES.map((mode) => [mode, { name: `rr_es_append_${mode}`, text: appendSql(mode) }]),
) as Record<AppendMode, { readonly name: string; readonly text: string }>
const APPEND_ONE_STATEMENTS = Object.fromEntries(
  MODES.map((mode) => [mode, { name: `rr_es_append_one_${mode}`, text: appendOneSql(mode) }]),
) as Record<AppendMode, { readonly name: string; readonly text: string }>

// recorded_at as whole milliseconds since the epoch (exact: extract gives a numeric), which becomes a Date
// without pg parsing a timestamp's text per row (about 1 µs each; a rebuild reads a million rows).
const SELECT_COLUMNS = `event_id, type, data, metadata, stream_name, stream_revision::text as stream_revision,
  transaction_id::text as txid, global_position::text as seq,
  (extract(epoch from date_trunc('milliseconds', recorded_at)) * 1000)::float8 as recorded_ms`

/**
 * The two reads every write pays for (the command handler's stream read; the projection runner's page of the
 * log), as named statements (commands/named-statements.ts): PostgreSQL spent as long planning the stream read
 * as running it. Qualified `es_events.stream_revision`: the select list's text alias `stream_revision` would
 * otherwise sort as text (0, 1, 10, 2).
 */
const READ_STREAM_SQL = namedStatement(`select ${SELECT_COLUMNS} from es_events where stream_name = $1 and stream_revision >= $2
         order by es_events.stream_revision limit $3`)
const READ_PAGE_SQL = namedStatement(`select ${SELECT_COLUMNS} from es_events
       where (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
         and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id, global_position
       limit $3`)

interface EventRow {
  event_id: string
  type: string
  data: unknown
  metadata: unknown
  stream_name: string
  stream_revision: string
  txid: string
  seq: string
  recorded_ms: number
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: recordedMetadata(row.metadata),
    stream: row.stream_name,
    revision: BigInt(row.stream_revision),
    position: formatPosition(row.txid, row.seq),
    recordedAt: new Date(row.recorded_ms),
  }
}

export interface PostgresEventStoreOptions {
  /** Used for the LISTEN connection of live subscriptions. */
  readonly connectionString: string
  readonly pool: pg.Pool
}

export class PostgresEventStore implements EventStore {
  readonly #pool: pg.Pool
  readonly #connectionString: string
  /** In-process wake-ups: local appends and NOTIFYs from other processes both land here. */
  readonly #wake = new EventEmitter()
  #listener: pg.Client | undefined
  #listening: Promise<void> | undefined
  #closed = false
  /** Counts wake-ups, so a wake that lands while a page is being read is not lost. */
  #wakes = 0
  /** An announcement is being sent; `#announceAgain` asks for one more after it (appends it did not cover). */
  #announcing = false
  #announceAgain = false
  /** When the last announcement was sent (performance.now()), and the trailing one waiting for its turn. */
  #lastAnnounced = -Infinity
  #announceTimer: NodeJS.Timeout | undefined
  #inFlight: Promise<void> = Promise.resolve()

  constructor(options: PostgresEventStoreOptions) {
    this.#pool = options.pool
    this.#connectionString = options.connectionString
    this.#wake.setMaxListeners(0)
    this.#wake.on('appended', () => {
      this.#wakes++
    })
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.#checkOnly(stream, expected)
    const ids = events.map((e) => e.id ?? randomUUID())
    const mode: AppendMode = typeof expected === 'bigint' ? 'exact' : expected
    let values: unknown[]
    let statement: { readonly name: string; readonly text: string }
    if (events.length === 1) {
      const event = events[0]!
      statement = APPEND_ONE_STATEMENTS[mode]
      values = [stream, ids[0], event.type, JSON.stringify(event.data ?? null), JSON.stringify(event.metadata)]
      if (typeof expected === 'bigint') values.push(expected.toString())
    } else {
      statement = APPEND_STATEMENTS[mode]
      values = [
        stream,
        events.length,
        typeof expected === 'bigint' ? expected.toString() : null,
        JSON.stringify(events.map((e, i) => ({ id: ids[i], type: e.type, data: e.data ?? null, metadata: e.metadata }))),
      ]
    }
    let row: { revision: string | null; seq: string | null; txid: string | null } | undefined
    try {
      const result = await this.#pool.query({ name: statement.name, text: statement.text, values })
      row = result.rows[0]
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error
      // A unique violation: either these exact ids were appended before (idempotent), or a race.
      return this.#afterConflict(stream, ids, expected)
    }
    if (!row || row.seq === null || row.revision === null || row.txid === null) {
      return this.#afterConflict(stream, ids, expected)
    }
    this.#wake.emit('appended')
    this.#announce()
    return { nextRevision: BigInt(row.revision), position: formatPosition(row.txid, row.seq) }
  }

  /**
   * Exact expected revisions (a claim's runs) and no_stream (a delivery's first attempt): one statement, one
   * commit for every stream. Other modes, and batches that hit a duplicate event id, go one stream at a time.
   */
  async appendEach(writes: readonly StreamWrite[]): Promise<StreamWriteOutcome[]> {
    if (writes.length === 0) return []
    if (writes.some((w) => (typeof w.expected !== 'bigint' && w.expected !== 'no_stream') || w.events.length === 0))
      return appendOneByOne(this, writes)
    const ids = writes.map((w) => w.events.map((e) => e.id ?? randomUUID()))
    const payload = JSON.stringify(
      writes.map((w, i) => ({
        stream: w.stream,
        expected: w.expected === 'no_stream' ? '-1' : (w.expected as bigint).toString(),
        events: w.events.map((e, j) => ({ id: ids[i]![j], type: e.type, data: e.data ?? null, metadata: e.metadata })),
      })),
    )
    let rows: { stream_name: string; revision: string; seq: string; txid: string }[]
    try {
      ;({ rows } = await this.#pool.query({ name: APPEND_EACH_STATEMENT.name, text: APPEND_EACH_STATEMENT.text, values: [payload] }))
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error
      // An event id used before: sort out which write is an idempotent re-append and which a conflict, one by one.
      return appendOneByOne(
        this,
        writes.map((w, i) => ({ ...w, events: w.events.map((e, j) => ({ ...e, id: ids[i]![j]! })) })),
      )
    }
    if (rows.length > 0) {
      this.#wake.emit('appended')
      this.#announce()
    }
    const appended = new Map(rows.map((r) => [r.stream_name, r]))
    return Promise.all(
      writes.map(async (w, i): Promise<StreamWriteOutcome> => {
        const row = appended.get(w.stream)
        if (row) return { nextRevision: BigInt(row.revision), position: formatPosition(row.txid, row.seq) }
        try {
          // Refused by the CAS: a conflict, unless these very events were appended before (a retry).
          return await this.#afterConflict(w.stream, ids[i]!, w.expected)
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) return error
          throw error
        }
      }),
    )
  }

  async #checkOnly(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const actual = await this.#currentRevision(stream)
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (expected === 'stream_exists' && actual !== 'no_stream') ||
      (typeof expected === 'bigint' && actual === expected)
    if (!ok) throw new WrongExpectedRevisionError(stream, expected, actual)
    return { nextRevision: actual === 'no_stream' ? -1n : actual, position: formatPosition('0', '0') }
  }

  async #currentRevision(stream: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.#pool.query<{ revision: string }>(
      'select revision::text as revision from es_streams where stream_name = $1',
      [stream],
    )
    return rows[0] ? BigInt(rows[0].revision) : 'no_stream'
  }

  /** Decides between an idempotent re-append, a duplicate id used elsewhere, and a revision conflict. */
  async #afterConflict(stream: string, ids: readonly string[], expected: ExpectedRevision): Promise<AppendResult> {
    const { rows } = await this.#pool.query<EventRow>(
      `select ${SELECT_COLUMNS} from es_events where event_id = any($1::uuid[]) order by es_events.stream_revision`,
      [ids],
    )
    if (rows.length === ids.length && rows.every((r) => r.stream_name === stream)) {
      const last = rows[rows.length - 1]!
      const revisions = rows.map((r) => BigInt(r.stream_revision))
      const contiguous = revisions.every((r, i) => i === 0 || r === revisions[i - 1]! + 1n)
      if (contiguous) return { nextRevision: BigInt(last.stream_revision), position: formatPosition(last.txid, last.seq) }
    }
    if (rows.length > 0)
      throw new DuplicateEventIdError(
        stream,
        rows.map((r) => r.event_id),
      )
    throw new WrongExpectedRevisionError(stream, expected, await this.#currentRevision(stream))
  }

  async *readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    let from = options.fromRevision ?? 0n
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY
    while (remaining > 0) {
      const limit = Math.min(BATCH, remaining)
      const { rows } = await this.#pool.query<EventRow>(READ_STREAM_SQL, [stream, from.toString(), limit])
      for (const row of rows) yield toRecorded(row)
      if (rows.length < limit) return
      remaining -= rows.length
      from = BigInt(rows[rows.length - 1]!.stream_revision) + 1n
    }
  }

  /** One page of the global log after `after`, limited to transactions every reader can already see. */
  async readPage(after: Position | undefined, limit: number): Promise<RecordedEvent[]> {
    const { txid, seq } = after ? parsePosition(after) : { txid: '0', seq: '0' }
    const { rows } = await this.#pool.query<EventRow>(READ_PAGE_SQL, [txid, seq, limit])
    return rows.map(toRecorded)
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    let after = options.after
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY
    while (remaining > 0) {
      const limit = Math.min(BATCH, remaining)
      const page = await this.readPage(after, limit)
      for (const event of page) yield event
      if (page.length < limit) return
      remaining -= page.length
      after = page[page.length - 1]!.position
    }
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const signal = options.signal
    let after = options.after
    // Empty reads left to do quickly after a wake-up: an older transaction (or an unrelated one) may still
    // hold pg_snapshot_xmin back, and when that one is not an append no NOTIFY will announce its end.
    let fastPolls = 0
    await this.#ensureListening()
    let catchingUp = false
    while (!signal?.aborted && !this.#closed) {
      // A read sees only transactions below the snapshot's xmin, so one made while the reader's own batch
      // transaction is open (it has an xid) misses every append that committed meanwhile: the next batch
      // then started without them and they waited for the one after (most of write-rpc's
      // writes, when traced). Live reads wait until that transaction ended; a catch-up's next page does not.
      if (!catchingUp && options.beforeLiveRead) {
        await options.beforeLiveRead()
        if (signal?.aborted || this.#closed) return
      }
      const wakesBefore = this.#wakes
      const page = await this.readPage(after, BATCH)
      catchingUp = page.length === BATCH
      for (const event of page) {
        if (signal?.aborted) return
        yield event
        after = event.position
      }
      if (page.length === BATCH) continue
      if (page.length === 0 && fastPolls > 0) fastPolls--
      if (this.#wakes !== wakesBefore) {
        fastPolls = FAST_POLLS_AFTER_WAKE
        continue
      }
      // The LISTEN connection was lost (a restarted server) while this subscription lived on: listen again, in
      // the background, so other processes' appends wake it without a poll's delay once the server is back.
      if (!this.#listening) void this.#ensureListening().catch(() => {})
      const reason = await this.#waitForWake(fastPolls > 0 ? PENDING_POLL_MS : IDLE_POLL_MS, signal)
      if (reason === 'wake') fastPolls = FAST_POLLS_AFTER_WAKE
    }
  }

  #waitForWake(timeoutMs: number, signal?: AbortSignal): Promise<'wake' | 'timeout' | 'abort'> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve('abort')
      const finish = (reason: 'wake' | 'timeout' | 'abort') => {
        clearTimeout(timer)
        this.#wake.off('appended', onWake)
        signal?.removeEventListener('abort', onAbort)
        resolve(reason)
      }
      const onWake = () => finish('wake')
      const onAbort = () => finish('abort')
      const timer = setTimeout(() => finish('timeout'), timeoutMs)
      this.#wake.once('appended', onWake)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /**
   * Tells subscribers in other processes that the log grew. An announcement is a transaction of its own (a
   * NOTIFY commits like a write: it takes an xid and a commit record), which cost about a third of a
   * one-event append's server time when every append sent one. So: one NOTIFY in flight per process, and at
   * most one every ANNOUNCE_INTERVAL_MS; appends that commit meanwhile are covered by one more NOTIFY at the
   * end of the interval (trailing edge), so the last append is always announced after it committed. An
   * append after a quiet spell is announced at once. A lost announcement only delays readers until their
   * polling fallback; it never loses an event. Subscribers in this process are woken directly, at once.
   */
  #announce(): void {
    if (this.#closed) return
    if (this.#announcing || this.#announceTimer) {
      this.#announceAgain = true
      return
    }
    const wait = this.#lastAnnounced + ANNOUNCE_INTERVAL_MS - performance.now()
    if (wait > 0) {
      // Node's timers may fire up to a millisecond early (they count from the loop's cached clock): the
      // callback checks the interval again instead of trusting it.
      this.#announceTimer = setTimeout(() => {
        this.#announceTimer = undefined
        this.#announce()
      }, Math.ceil(wait))
      this.#announceTimer.unref()
      return
    }
    this.#sendAnnouncement()
  }

  #sendAnnouncement(): void {
    if (this.#closed) return
    this.#announcing = true
    this.#announceAgain = false
    this.#lastAnnounced = performance.now()
    this.#inFlight = this.#pool
      .query({ name: 'rr_es_announce', text: ANNOUNCE_SQL })
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.#announcing = false
        if (this.#announceAgain) this.#announce()
      })
  }

  /** On close: the announcement in flight finishes, and appends still waiting for theirs get it now. */
  async #flushAnnouncements(): Promise<void> {
    for (;;) {
      await this.#inFlight
      if (this.#announcing) continue
      if (!this.#announceTimer && !this.#announceAgain) return
      clearTimeout(this.#announceTimer)
      this.#announceTimer = undefined
      this.#sendAnnouncement()
    }
  }

  #ensureListening(): Promise<void> {
    this.#listening ??= this.#listen()
    const listening = this.#listening
    // A connect that failed (the database was down) must not be remembered: every later subscription would
    // fail on the same rejected promise, and the projection runner and processors never resumed.
    listening.catch(() => {
      if (this.#listening === listening) this.#listening = undefined
    })
    return listening
  }

  async #listen(): Promise<void> {
    // Subscribers poll meanwhile; a LISTEN connect that hangs must fail, so the next idle wait tries again.
    const client = new pg.Client({ connectionString: this.#connectionString, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS })
    client.on('notification', () => this.#wake.emit('appended'))
    client.on('error', () => {
      // Subscribers fall back to polling and listen again at their next idle wait (subscribeToAll).
      this.#listener = undefined
      this.#listening = undefined
      client.end().catch(() => {})
    })
    try {
      await client.connect()
      await client.query(`listen ${APPENDED_CHANNEL}`)
    } catch (error) {
      client.end().catch(() => {})
      throw error
    }
    if (this.#closed) {
      await client.end().catch(() => {})
      return
    }
    this.#listener = client
  }

  comparePositions(a: Position, b: Position): number {
    const pa = parsePosition(a)
    const pb = parsePosition(b)
    const byTx = BigInt(pa.txid) - BigInt(pb.txid)
    if (byTx !== 0n) return byTx < 0n ? -1 : 1
    const bySeq = BigInt(pa.seq) - BigInt(pb.seq)
    return bySeq === 0n ? 0 : bySeq < 0n ? -1 : 1
  }

  /**
   * The last committed event, not only the last one readers may see now: readAll stops below any transaction
   * still open anywhere on the server (pg_snapshot_xmin), and a caller waiting for the read models to reach
   * "the head" after its own writes must wait for those writes, even while an older transaction holds the
   * readers back (the sandbox seed rendered a report from read models missing its last writes that way).
   */
  async headPosition(): Promise<Position | null> {
    const { rows } = await this.#pool.query<{ txid: string; seq: string }>(
      `select transaction_id::text as txid, global_position::text as seq from es_events
       order by transaction_id desc, global_position desc limit 1`,
    )
    return rows[0] ? formatPosition(rows[0].txid, rows[0].seq) : null
  }

  async countAfter(after?: Position): Promise<number> {
    const { txid, seq } = after ? parsePosition(after) : { txid: '0', seq: '0' }
    const { rows } = await this.#pool.query<{ n: string }>(
      `select count(*)::text as n from es_events where (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
      [txid, seq],
    )
    return Number(rows[0]?.n ?? 0)
  }

  async close(): Promise<void> {
    await this.#flushAnnouncements()
    this.#closed = true
    this.#wake.emit('appended')
    const listener = this.#listener
    this.#listener = undefined
    if (listener) await listener.end().catch(() => {})
  }
}
