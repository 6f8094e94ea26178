/**
 * Which failures mean "the store cannot be reached right now" (503 store_unavailable, logged once per outage)
 * and which are faults (500, logged each time). The errors are the real ones: node-postgres against a port
 * nothing listens on, a session the server terminates, and the service's own pool against a server that
 * accepts and never answers (a network that drops packets).
 */
import net, { type AddressInfo } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import pg from 'pg'
import t from 'tap'
import { WrongExpectedRevisionError } from '../../commands/event-store/port.js'
import { isStoreUnavailable } from '../../commands/event-store/unavailable.js'
import { PG_CONNECT_TIMEOUT_MS } from '../../commands/postgres-connect-timeout.js'
import { freePort } from '../../ops/embedded-postgres.js'
import { openPool } from '../../ops/postgres.js'
import { createTestDatabase } from '../support/database.js'

t.test('a refused connection and a terminated session are the store being unavailable', async (t) => {
  const port = await freePort()
  const refused = await new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${port}/z` }).connect().then(
    () => null,
    (error: unknown) => error,
  )
  t.ok(refused, 'connecting to a closed port fails')
  t.ok(isStoreUnavailable(refused), `ECONNREFUSED (${(refused as Error).message})`)

  const database = await createTestDatabase(t)
  const victim = new pg.Client({ connectionString: database.url })
  victim.on('error', () => {})
  await victim.connect()
  const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid')
  const pending = victim.query('select pg_sleep(30)').then(
    () => null,
    (error: unknown) => error,
  )
  await database.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid])
  const terminated = await pending
  t.ok(isStoreUnavailable(terminated), `a terminated session (${(terminated as { code?: string }).code}: ${(terminated as Error).message})`)
  const after = await victim.query('select 1').then(
    () => null,
    (error: unknown) => error,
  )
  t.ok(isStoreUnavailable(after), `the dead client's next query (${(after as Error).message})`)
  await victim.end().catch(() => {})

  t.ok(isStoreUnavailable(new Error('wrapped', { cause: refused })), 'a wrapped cause counts')
  t.ok(isStoreUnavailable(new AggregateError([refused], 'every address refused')), "Node's AggregateError of refusals counts")
})

t.test('faults in the request or the code are not', async (t) => {
  const database = await createTestDatabase(t)
  const syntax = await database.pool.query('selec 1').then(
    () => null,
    (error: unknown) => error,
  )
  t.notOk(isStoreUnavailable(syntax), `a syntax error (${(syntax as { code?: string }).code})`)
  const unique = await database.pool.query('create temp table u (x int primary key); insert into u values (1), (1)').then(
    () => null,
    (error: unknown) => error,
  )
  t.notOk(isStoreUnavailable(unique), `a unique violation (${(unique as { code?: string }).code})`)
  t.notOk(isStoreUnavailable(new WrongExpectedRevisionError('client-1', 3n, 4n)), 'a lost race (409, not 503)')
  t.notOk(isStoreUnavailable(new TypeError('x is undefined')), 'a bug')
  t.notOk(isStoreUnavailable(undefined), 'nothing')
  t.notOk(isStoreUnavailable('Connection terminated'), 'a string is not an error')
})

t.test("the service's pool gives up on a server that accepts and never answers, as the store being unavailable", async (t) => {
  // A network that drops packets looks like this from the client: the TCP handshake may be done (by a
  // middlebox, or here by a listener that reads nothing), and then silence. Without a connect timeout every
  // request waited for good instead of answering 503 store_unavailable.
  const sockets = new Set<net.Socket>()
  const silent = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  // One connection, two queries: the first waits on the connect, the second in the pool's queue behind it.
  const database = openPool(`postgres://x:y@127.0.0.1:${(silent.address() as AddressInfo).port}/z`, { max: 1 })
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
    await database.close().catch(() => {})
  })

  const started = Date.now()
  const bound = PG_CONNECT_TIMEOUT_MS + 5000
  const query = () =>
    Promise.race([
      database.db
        .selectNoFrom((eb) => eb.lit(1).as('one'))
        .execute()
        .then(
          () => 'answered',
          (error: unknown) => error,
        ),
      delay(bound, 'still waiting'),
    ])
  const outcomes = await Promise.all([query(), query()])
  const elapsed = Date.now() - started
  for (const [i, outcome] of outcomes.entries()) {
    const which = i === 0 ? 'connecting' : 'queued'
    t.ok(outcome instanceof Error, `${which}: the query fails instead of waiting (${String(outcome)})`)
    t.ok(isStoreUnavailable(outcome), `${which}: as the store being unavailable (${(outcome as Error).message})`)
  }
  t.ok(
    elapsed >= PG_CONNECT_TIMEOUT_MS - 100 && elapsed < PG_CONNECT_TIMEOUT_MS + 2000,
    `after about the connect timeout, ${PG_CONNECT_TIMEOUT_MS} ms (${elapsed} ms)`,
  )
})
