/**
 * The peer: `@event-driven-io/emmett-postgresql` (a dev dependency used only by the bench), on its own
 * database of the same server, over a pg pool the bench owns.
 *
 * Its connection layer (dumbo) installs process-wide pg type parsers the first time it is used: int8 as
 * BigInt, json and jsonb through its own reviver. Left in place they would change what every other pool of
 * this process returns (the service parses int8 as number), so they are taken back at once and given to the
 * peer's pool alone (pg's per-client `types`): the peer still sees exactly what it installed.
 */
import { getPostgreSQLEventStore, type PostgresEventStore as EmmettEventStore } from '@event-driven-io/emmett-postgresql'
import pg from 'pg'

const OIDS = [20, 114, 3802] as const
type Parser = (value: string) => unknown

function currentParsers(): Map<number, Parser> {
  return new Map(OIDS.map((oid) => [oid, pg.types.getTypeParser(oid, 'text') as Parser]))
}

function install(parsers: ReadonlyMap<number, Parser>): void {
  for (const [oid, parser] of parsers) pg.types.setTypeParser(oid, parser)
}

/** What dumbo installed, captured the first time (it installs them once per process). */
let peerParsers: Map<number, Parser> | undefined

const peerTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = format !== 'binary' ? peerParsers?.get(oid) : undefined
    return own ?? pg.types.getTypeParser(oid, format as 'text')
  },
} as unknown as pg.CustomTypesConfig

export interface PeerStore {
  readonly store: EmmettEventStore
  /** Closes the peer's pool. */
  close(): Promise<void>
}

/** Opens the peer on `url` (a pool of `max` connections) and creates its schema (tables, functions) there. */
export async function openPeer(url: string, max = 10): Promise<PeerStore> {
  const pool = new pg.Pool({ connectionString: url, max, types: peerTypes })
  // The bench drops the database with (force) at the end of a run: an idle client's error must not crash it.
  pool.on('error', () => {})
  const saved = currentParsers()
  let store: EmmettEventStore
  try {
    store = getPostgreSQLEventStore(url, { connectionOptions: { pool } })
    if (!peerParsers) {
      const installed = currentParsers()
      // Only what dumbo changed; anything it left alone keeps following this process's parsers.
      peerParsers = new Map([...installed].filter(([oid, parser]) => saved.get(oid) !== parser))
    }
  } finally {
    install(saved)
  }
  try {
    await store.schema.migrate()
  } catch (error) {
    await pool.end().catch(() => {})
    throw error
  }
  return {
    store,
    close: async () => {
      await store.close().catch(() => {})
      await pool.end()
    },
  }
}
