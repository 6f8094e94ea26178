import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import pg from 'pg'

const ROWS = 1000

/**
 * The floor of a route served from PostgreSQL: one POST route that reads one row by primary key (a named
 * statement, so PostgreSQL parses and plans it once per connection) and answers it as JSON, no hooks, no
 * logger, on a pool as large as the service's (ops/postgres.ts). What any read RPC costs beyond bare
 * fastify at the least: one round trip to PostgreSQL per request, ungathered, with nothing else to do.
 */
export async function startFastifyWithRead(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 })
  await pool.query('create table if not exists bench_floor (id int primary key, name text not null, data jsonb not null)')
  await pool.query(
    `insert into bench_floor select g, 'Bench Client ' || g, '{"tier": "gold"}' from generate_series(1, ${ROWS}) g on conflict do nothing`,
  )
  const app = Fastify()
  let next = 0
  app.post('/read', async () => {
    const { rows } = await pool.query({
      name: 'bench-floor-read',
      text: 'select id, name, data from bench_floor where id = $1',
      values: [1 + (next++ % ROWS)],
    })
    return { result: rows[0] }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/read`,
    close: async () => {
      await app.close()
      await pool.end()
    },
  }
}
