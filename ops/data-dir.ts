import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { isAlive, startEmbeddedPostgres } from './embedded-postgres.js'
import { ensureDatabase } from './postgres.js'
import { NoStoreError } from './store-target.js'

/**
 * The data directory of the embedded default: `pg/` (the PostgreSQL cluster), `credentials.json` (its
 * generated password) and `owner.json`, which names the one process that runs the cluster (and its port,
 * so ops commands can attach to it while the service runs).
 */
const DATABASE = 'rankrelay'

export interface DataDirDatabase {
  readonly url: string
  /** Stops the cluster when this process started it; leaves another process's cluster alone. */
  close(): Promise<void>
}

interface Owner {
  pid: number
  port?: number
  command: string
  started_at: string
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, owner: Owner) {
    super(
      `RankRelay is already running on ${dataDir} (pid ${owner.pid}, started ${owner.started_at} by "${owner.command}"). ` +
        'Stop it first, or set DATA_DIR to another directory. Ops commands (npm run ops -- …) can run beside it.',
    )
    this.name = 'DataDirInUseError'
  }
}

const ownerFile = (dataDir: string) => path.join(dataDir, 'owner.json')

async function readOwner(dataDir: string): Promise<Owner | null> {
  const text = await fs.readFile(ownerFile(dataDir), 'utf8').catch(() => null)
  if (text === null) return null
  try {
    return JSON.parse(text) as Owner
  } catch {
    return { pid: -1, command: 'unknown', started_at: 'unknown' } // a half-written file: treat as stale
  }
}

/** Takes ownership with an exclusive create, so two starts can never both win; a dead owner's file is stale. */
async function claim(dataDir: string, command: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner: Owner = { pid: process.pid, command, started_at: new Date().toISOString() }
    try {
      await fs.writeFile(ownerFile(dataDir), JSON.stringify(owner), { flag: 'wx' })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const current = await readOwner(dataDir)
    if (current && current.pid > 0 && current.pid !== process.pid && isAlive(current.pid)) throw new DataDirInUseError(dataDir, current)
    await fs.rm(ownerFile(dataDir), { force: true })
  }
  throw new Error(`Could not take ownership of ${dataDir}`)
}

async function password(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'credentials.json')
  const existing = await fs.readFile(file, 'utf8').catch(() => null)
  if (existing) return (JSON.parse(existing) as { password: string }).password
  const generated = randomBytes(18).toString('base64url')
  await fs.writeFile(file, JSON.stringify({ password: generated }), { mode: 0o600, flag: 'wx' }).catch(async () => {})
  return (JSON.parse(await fs.readFile(file, 'utf8')) as { password: string }).password
}

const urlFor = (port: number, secret: string) => `postgres://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`

/** For `serve`: own the data directory and run its PostgreSQL until close(). */
export async function startDataDir(dataDir: string, command: string, log: (line: string) => void): Promise<DataDirDatabase> {
  await fs.mkdir(dataDir, { recursive: true })
  await claim(dataDir, command)
  const release = () => fs.rm(ownerFile(dataDir), { force: true })
  try {
    const secret = await password(dataDir)
    const cluster = await startEmbeddedPostgres({ directory: path.join(dataDir, 'pg'), password: secret, log })
    const owner: Owner = { pid: process.pid, port: cluster.port, command, started_at: new Date().toISOString() }
    await fs.writeFile(ownerFile(dataDir), JSON.stringify(owner))
    await ensureDatabase(cluster.connectionString('postgres'), DATABASE)
    return {
      url: cluster.connectionString(DATABASE),
      close: async () => {
        await cluster.stop()
        await release()
      },
    }
  } catch (error) {
    await release()
    throw error
  }
}

export interface AttachedDataDir extends DataDirDatabase {
  /** How the command reached the cluster, for the line it prints (ops/store-target.ts). */
  readonly how: string
}

/** A cluster initdb finished: PostgreSQL writes PG_VERSION into every data directory it creates. */
const hasCluster = (dataDir: string) => existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))

/**
 * For ops commands: attach to the PostgreSQL of the service running on this data directory, or, when
 * none runs, start it for the duration of the command. A directory without a cluster is refused
 * (NoStoreError: a wrong or missing DATA_DIR must not become a new, empty store the command then reports
 * on) unless `init` is given; nothing is written to the directory before that decision.
 */
export async function attachDataDir(
  dataDir: string,
  command: string,
  log: (line: string) => void,
  options: { init: boolean },
): Promise<AttachedDataDir> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    const owner = await readOwner(dataDir)
    if (!owner || owner.pid <= 0 || !isAlive(owner.pid)) break
    if (owner.port)
      return {
        url: urlFor(owner.port, await password(dataDir)),
        close: async () => {},
        how: `the embedded PostgreSQL of the service running as pid ${owner.pid}`,
      }
    await new Promise((r) => setTimeout(r, 250)) // the owner is still starting its cluster
  }
  const existed = hasCluster(dataDir)
  if (!existed && !options.init) throw new NoStoreError(`DATA_DIR=${dataDir}`, 'no PostgreSQL cluster in it')
  const database = await startDataDir(dataDir, command, log)
  return { ...database, how: existed ? 'embedded PostgreSQL, started for this command' : 'embedded PostgreSQL, created by --init' }
}
