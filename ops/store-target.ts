import pg from 'pg'
import { PG_CONNECT_TIMEOUT_MS } from '../commands/postgres-connect-timeout.js'

/**
 * What an ops command works on, said before it works. An operator in a new shell without DATA_DIR once ran
 * `writes status` against a `./.data` the command had just created, and read the state of nothing: so every
 * ops command names its store on stderr (passwords never shown), and only `serve` or `--init` may create one.
 */

/** A connection URL as it may be shown: scheme, user, host, port and database; the password as ***, no query (it can carry one too). */
export function shownUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return '(an unparsable URL)'
  }
  if (url.password !== '') url.password = '***'
  url.search = ''
  url.hash = ''
  return url.toString()
}

/** There is no store where the command would work, and it may not create one. Printed as is; exit 1. */
export class NoStoreError extends Error {
  constructor(where: string, why: string) {
    super(
      `${where} holds no RankRelay store (${why}), and ops commands do not create one. ` +
        'Point DATA_DIR or DATABASE_URL at the service’s store, or start the service (npm start creates it), ' +
        'or give --init to create a new, empty store there.',
    )
    this.name = 'NoStoreError'
  }
}

/**
 * Whether the database at `url` holds a RankRelay store: the migrations table exists (kysely's, found on the
 * search path as the migrator finds it). Reads only; throws when the server cannot be reached.
 */
export async function isRankRelayDatabase(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS })
  await client.connect()
  try {
    const { rows } = await client.query<{ present: boolean }>(`select to_regclass('kysely_migration') is not null as present`)
    return rows[0]?.present === true
  } finally {
    await client.end()
  }
}
