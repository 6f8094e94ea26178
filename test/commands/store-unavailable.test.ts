/**
 * Which failures mean "the store cannot be reached right now" (503 store_unavailable, logged once per outage)
 * and which are faults (500, logged each time). The errors are the real ones: node-postgres against a port
 * nothing listens on, and a session the server terminates.
 */
import pg from 'pg'
import t from 'tap'
import { WrongExpectedRevisionError } from '../../commands/event-store/port.js'
import { isStoreUnavailable } from '../../commands/event-store/unavailable.js'
import { freePort } from '../../ops/embedded-postgres.js'
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
  const unique = await database.pool
    .query("create temp table u (x int primary key); insert into u values (1), (1)")
    .then(
      () => null,
      (error: unknown) => error,
    )
  t.notOk(isStoreUnavailable(unique), `a unique violation (${(unique as { code?: string }).code})`)
  t.notOk(isStoreUnavailable(new WrongExpectedRevisionError('client-1', 3n, 4n)), 'a lost race (409, not 503)')
  t.notOk(isStoreUnavailable(new TypeError('x is undefined')), 'a bug')
  t.notOk(isStoreUnavailable(undefined), 'nothing')
  t.notOk(isStoreUnavailable('Connection terminated'), 'a string is not an error')
})
