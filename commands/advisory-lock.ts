import { sql, type Kysely } from 'kysely'

/**
 * Runs `work` while holding a PostgreSQL session advisory lock on `key`, on a connection of its own: every
 * process sharing the database waits its turn, whichever event store holds the log. For work whose outside
 * effect must not happen twice even though the event that records it is appended afterwards (publishing a
 * site edit, seeding the sandbox): the event store's expected revision would refuse the second record, but
 * only after the second effect. Keys are hashed to 64 bits (hashtextextended). Any kysely instance will do
 * (public schema or read models): the lock belongs to the connection, not to a table.
 */
export async function withAdvisoryLock<T, DB>(db: Kysely<DB>, key: string, work: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn)
    try {
      return await work()
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn).catch(() => {})
    }
  })
}
