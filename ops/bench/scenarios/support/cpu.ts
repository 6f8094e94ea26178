import fs from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'

/**
 * CPU time spent over a measured window, by the service's main thread and by the bench's PostgreSQL server,
 * read from /proc (Linux). Throughput and latency swing with whatever else shares the cores; CPU per request
 * does much less, so it is what tells a change that does less work from a quieter minute.
 *
 * The main thread alone (`/proc/self/task/<pid>`): the load generator and the webhook receivers run in worker
 * threads of the same process, and process.cpuUsage() would count them with the service. PostgreSQL: the
 * postmaster and every process it started (backends, WAL writer, checkpointer), found through
 * `postmaster.pid` in the server's data directory; a backend that exits inside the window takes its time
 * with it, which the bench's long-lived pools make rare.
 */
export interface CpuWindow {
  /** CPU milliseconds since the window opened: the service's main thread, and PostgreSQL (null where /proc or the data directory cannot be read). */
  stop(): Promise<{ nodeMs: number | null; postgresMs: number | null }>
}

const TICK_MS = 10 // USER_HZ is 100 on Linux

/** utime + stime of a /proc stat file, in ms; null if it is gone. */
async function cpuOf(statPath: string): Promise<number | null> {
  const text = await fs.readFile(statPath, 'utf8').catch(() => null)
  if (text === null) return null
  // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

async function parentOf(pid: string): Promise<number | null> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
  if (text === null) return null
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1])
}

/** The postmaster's pid, from postmaster.pid in the data directory the server reports; null if unreadable. */
async function postmasterPid(serverUrl: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: serverUrl })
  try {
    await client.connect()
    const { rows } = await client.query<{ dir: string }>(`select current_setting('data_directory') as dir`)
    const text = await fs.readFile(path.join(rows[0]!.dir, 'postmaster.pid'), 'utf8')
    return Number(text.split('\n')[0])
  } catch {
    return null
  } finally {
    await client.end().catch(() => {})
  }
}

/** Per pid, CPU ms of the postmaster and its children. */
async function postgresCpu(postmaster: number): Promise<Map<number, number>> {
  const times = new Map<number, number>()
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid !== postmaster && (await parentOf(entry)) !== postmaster) continue
    const ms = await cpuOf(`/proc/${entry}/stat`)
    if (ms !== null) times.set(pid, ms)
  }
  return times
}

export async function openCpuWindow(serverUrl: string): Promise<CpuWindow> {
  const nodeStat = `/proc/self/task/${process.pid}/stat`
  const postmaster = await postmasterPid(serverUrl)
  const nodeBefore = await cpuOf(nodeStat)
  const postgresBefore = postmaster === null ? null : await postgresCpu(postmaster)
  return {
    async stop() {
      const nodeAfter = await cpuOf(nodeStat)
      let postgresMs: number | null = null
      if (postmaster !== null && postgresBefore !== null) {
        postgresMs = 0
        // Processes started inside the window count from zero.
        for (const [pid, ms] of await postgresCpu(postmaster)) postgresMs += ms - (postgresBefore.get(pid) ?? 0)
      }
      return { nodeMs: nodeBefore === null || nodeAfter === null ? null : nodeAfter - nodeBefore, postgresMs }
    },
  }
}
