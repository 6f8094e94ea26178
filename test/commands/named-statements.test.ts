/**
 * The pool client that runs registered statement texts as named (prepared) statements
 * (commands/named-statements.ts). What the hot paths rely on: a registered text gives the same answers as
 * before, is prepared once per connection, follows a schema rename (the read-model swap of a rebuild) at once,
 * and every other query runs unnamed as given.
 */
import t from 'tap'
import pg from 'pg'
import { NamedStatementClient, namedStatement } from '../../commands/named-statements.js'
import { createTestDatabase } from '../support/database.js'

t.test('a registered text runs as a named statement and follows a schema swap', async (t) => {
  const database = await createTestDatabase(t)
  const client = new NamedStatementClient({ connectionString: database.url })
  await client.connect()
  t.teardown(() => client.end().catch(() => {}))
  await client.query(`create schema swap_live; create table swap_live.t (v text); insert into swap_live.t values ('old')`)
  await client.query(`create schema swap_next; create table swap_next.t (v text); insert into swap_next.t values ('new')`)

  const text = namedStatement('select v from swap_live.t where v is distinct from $1::text')
  const prepared = async () =>
    (await client.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where statement = $1`, [text])).rows[0]!.n
  // More than five runs, so PostgreSQL has switched to a cached generic plan before the swap.
  for (let i = 0; i < 7; i++) t.same((await client.query(text, ['x'])).rows, [{ v: 'old' }])
  t.equal(await prepared(), 1, 'prepared once on this connection')

  // The rebuild's swap: the live schema is renamed away and the new one renamed into its place.
  await client.query('begin; alter schema swap_live rename to swap_retired; alter schema swap_next rename to swap_live; commit')
  t.same((await client.query(text, ['x'])).rows, [{ v: 'new' }], 'the next run reads the swapped-in table')

  const other = 'select v from swap_live.t'
  t.same((await client.query(other)).rows, [{ v: 'new' }], 'an unregistered text runs as given')
  t.equal(
    (await client.query(`select count(*)::int as n from pg_prepared_statements where statement = $1`, [other])).rows[0]!.n,
    0,
    'and is not prepared',
  )
})

t.test('a pool with the client answers registered texts through kysely-style calls and the pool', async (t) => {
  const database = await createTestDatabase(t)
  const pool = new pg.Pool({ connectionString: database.url, max: 1, Client: NamedStatementClient })
  t.teardown(() => pool.end())
  const text = namedStatement('select $1::int + $2::int as sum')
  t.same((await pool.query(text, [1, 2])).rows, [{ sum: 3 }])
  const client = await pool.connect()
  try {
    t.same((await client.query(text, [20, 22])).rows, [{ sum: 42 }])
    const names = await client.query<{ name: string }>(`select name from pg_prepared_statements where statement = $1`, [text])
    t.equal(names.rows.length, 1, 'one named statement on the pooled connection')
    t.match(names.rows[0]!.name, /^rr_[0-9a-f]{24}$/)
  } finally {
    client.release()
  }
  // The callback form is left alone.
  const viaCallback = await new Promise<number>((resolve, reject) =>
    pool.query('select 7 as n', (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows[0].n))),
  )
  t.equal(viaCallback, 7)
})
