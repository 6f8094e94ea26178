import pg from 'pg'
import { openCpuWindow } from '../support/cpu.js'
import type { SliceProbe } from './workload.js'

/**
 * A slice probe for the append comparisons: the bench server's CPU (every PostgreSQL process, from /proc)
 * and the WAL it wrote (pg_current_wal_lsn before and after) while one contender ran. Contenders take turns
 * on the same server, so a slice's cost is its contender's. `close` ends the probe's connection.
 */
export async function openServerCostProbe(serverUrl: string): Promise<{ probe: SliceProbe; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  const lsn = async () => (await client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]!.lsn
  const probe: SliceProbe = async () => {
    const cpu = await openCpuWindow(serverUrl)
    const before = await lsn()
    return {
      async stop() {
        const { rows } = await client.query<{ bytes: string }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text as bytes', [before])
        const { postgresMs } = await cpu.stop()
        return { postgresMs, walBytes: Number(rows[0]!.bytes) }
      },
    }
  }
  return { probe, close: () => client.end() }
}
