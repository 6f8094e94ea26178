/**
 * Runs the real ops CLI (`tsx ops/cli.ts …`) as child processes against a temporary DATA_DIR of their own,
 * so each test starts its own embedded PostgreSQL, and talks to a served instance over real HTTP.
 *
 * Cleanup is the point of this file: every child runs in a process group of its own and is stopped in
 * t.teardown (SIGTERM to the server process under tsx, SIGKILL to the whole group after a grace period);
 * then any PostgreSQL still running on the data directory (orphaned by a SIGKILL) is stopped and the
 * directory is removed. If the test process dies first, an exit hook SIGKILLs the groups.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, isAlive } from '../../ops/embedded-postgres.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')

/** Settings the service reads; stripped from the inherited environment so a developer's shell can't leak in. */
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'BASE_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'EVENTSTORE_URL',
  'LOG_LEVEL',
  'PLATFORM_KEY',
  'READ_YOUR_WRITES_TIMEOUT_MS',
  'BODY_LIMIT_BYTES',
  // Engine keys above all: a developer's real key must never send a test's traffic to a provider.
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'GEMINI_API_KEY',
  'GEMINI_BASE_URL',
  'GEMINI_MODEL',
  'DATAFORSEO_LOGIN',
  'DATAFORSEO_PASSWORD',
  'DATAFORSEO_BASE_URL',
  'SERPAPI_KEY',
  'SERPAPI_BASE_URL',
  'GSC_BASE_URL',
  'GSC_TOKEN_URL',
  'AEO_CLAIM_LEASE_SECONDS',
  'AEO_MAX_ATTEMPTS',
  'AEO_RECORD_RETENTION_DAYS',
  'AEO_AGENT_ONLINE_SECONDS',
  'AEO_SWEEP_INTERVAL_MS',
  'AEO_AGENT_POLL_MS',
  'AEO_AGENT_CONCURRENCY',
  'SANDBOX_ENABLED',
  'SANDBOX_RESET_INTERVAL_HOURS',
  'WRITES_ENABLED',
  'IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS',
  'JOB_WORKER_CONCURRENCY',
  'JOB_HEARTBEAT_SECONDS',
  'JOB_STALE_SECONDS',
  'SERVICE_ENCRYPTION_KEY',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_BACKOFF_BASE_MS',
  'SSO_ALLOWED_HOSTS',
  'SITE_ALLOWED_HOSTS',
  'CHROMIUM_PATH',
]

interface TestContext {
  teardown(fn: () => unknown): void
}

export type Env = Record<string, string | undefined>

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** Milliseconds from spawn to exit. */
  readonly ms: number
}

export interface Served {
  readonly child: ChildProcess
  readonly port: number
  /** From the "RankRelay is serving on <url>" line. */
  readonly baseUrl: string
  /** The platform key printed on a first start, or null. */
  readonly mintedKey: string | null
  stdout(): string
  stderr(): string
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Sends the signal to the server process (see serverPid); SIGKILLs the whole group after graceMs. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface Sandbox {
  readonly dataDir: string
  /** The environment a child gets: the inherited one minus tap's and the service's settings, plus these. */
  env(extra?: Env): NodeJS.ProcessEnv
  /** Runs `tsx ops/cli.ts …args` to completion (killed after timeoutMs). */
  run(args: string[], extra?: Env, timeoutMs?: number): Promise<CliResult>
  /** Starts `tsx ops/cli.ts serve` (or options.command) and waits for its "serving" output (up to 60 s). */
  serve(extra?: Env, options?: ServeOptions): Promise<Served>
}

export interface ServeOptions {
  /** The whole argv to run instead of `tsx ops/cli.ts serve`, e.g. startScriptCommand(). */
  readonly command?: string[]
}

const live = new Set<ChildProcess>()
const directories = new Set<string>()
let exitHookInstalled = false

/** Last resort if the test process ends without its teardowns: kill every child's process group. */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL')
    for (const directory of directories) {
      try {
        rmSync(directory, { recursive: true, force: true })
      } catch {
        // best effort
      }
    }
  })
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal) // detached: the child leads its own group (tsx, the server, postgres)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (hasExited(child)) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/**
 * The process tsx runs the CLI in. `tsx file.ts` is a parent that spawns node with tsx's loader; on SIGTERM
 * the parent relays the signal but SIGKILLs the child when it does not acknowledge within 30 ms (easily
 * missed on a loaded machine), so a clean stop signals the server process itself.
 */
export function serverPid(child: ChildProcess): number | undefined {
  if (child.pid === undefined) return undefined
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  // The tsx parent has two children, esbuild's service and node running ops/cli.ts; find the latter by ppid.
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== child.pid) continue
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('ops/cli.ts')) return Number(entry)
    } catch {
      // the process went away while we looked
    }
  }
  return undefined
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number) {
  const exited = exitOf(child)
  if (!hasExited(child)) {
    try {
      const target = serverPid(child)
      if (target !== undefined)
        process.kill(target, signal) // tsx exits with its child's status
      else child.kill(signal)
    } catch {
      // gone
    }
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs)
    try {
      return await exited
    } finally {
      clearTimeout(timer)
    }
  }
  return exited
}

/** A PostgreSQL left on the data directory (after a SIGKILL): fast shutdown, then SIGKILL. */
async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
  const content = await fs.readFile(pidFile, 'utf8').catch(() => null)
  const pid = content ? Number.parseInt(content.split('\n')[0] ?? '', 10) : Number.NaN
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
  // Only a postgres on this very directory (pids get reused).
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
  if (!cmdline.includes('postgres') || !cmdline.includes(dataDir)) return
  process.kill(pid, 'SIGINT')
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100)
  if (isAlive(pid)) process.kill(pid, 'SIGKILL')
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls until check() returns a value other than undefined, or throws after timeoutMs. */
export async function waitUntil<T>(what: string, timeoutMs: number, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(100)
  }
}

/**
 * The command package.json's start script runs, as argv for spawning it directly (the way a process manager
 * or a shell's exec runs it): `tsx ops/cli.ts serve` → [node_modules/.bin/tsx, ops/cli.ts, serve].
 */
export function startScriptCommand(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  const [program = 'node', ...args] = pkg.scripts.start.trim().split(/\s+/)
  const local = path.join(ROOT, 'node_modules', '.bin', program)
  return [existsSync(local) ? local : program, ...args]
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv, command: string[] = [TSX, 'ops/cli.ts']): ChildProcess {
  installExitHook()
  const [program, ...rest] = command
  const child = spawn(program!, [...rest, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  live.add(child)
  child.once('exit', () => live.delete(child))
  child.stdout!.setEncoding('utf8')
  child.stderr!.setEncoding('utf8')
  return child
}

/** A temporary DATA_DIR and the children run on it, all cleaned up when the test ends. */
export async function sandbox(t: TestContext): Promise<Sandbox> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-ops-'))
  const children = new Set<ChildProcess>()
  t.teardown(async () => {
    await Promise.all([...children].map((child) => stopChild(child, 'SIGTERM', 5000)))
    await stopLeftoverPostgres(dataDir).catch(() => {})
    await fs.rm(dataDir, { recursive: true, force: true }).catch(() => {})
    directories.delete(dataDir)
  })
  installExitHook()
  directories.add(dataDir)

  const env = (extra: Env = {}): NodeJS.ProcessEnv => {
    const base: NodeJS.ProcessEnv = {}
    for (const [name, value] of Object.entries(process.env)) {
      // tap instruments its test processes through NODE_OPTIONS and TAP_* variables; the CLI runs plain.
      if (name === 'NODE_OPTIONS' || name.startsWith('TAP') || name.startsWith('_TAPJS') || SERVICE_VARIABLES.includes(name)) continue
      base[name] = value
    }
    const merged: NodeJS.ProcessEnv = { ...base, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete merged[name]
      else merged[name] = value
    }
    return merged
  }

  const run = (args: string[], extra: Env = {}, timeoutMs = 60_000): Promise<CliResult> => {
    const started = Date.now()
    const child = spawnCli(args, env(extra))
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs)
    return new Promise((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (code, signal) => {
        clearTimeout(timer)
        children.delete(child)
        resolve({ code, signal, stdout, stderr, ms: Date.now() - started })
      })
    })
  }

  const serve = async (extra: Env = {}, options: ServeOptions = {}): Promise<Served> => {
    const port = extra.PORT ? Number(extra.PORT) : await freePort()
    const env_ = env({ PORT: String(port), ...extra })
    const child = options.command ? spawnCli([], env_, options.command) : spawnCli(['serve'], env_)
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.on('data', (chunk: string) => (stderr += chunk))
    const exited = exitOf(child)
    // serve prints its banner in one write; wait for all of it (the key block ends with the curl example).
    const complete = () => /^Health: .*\n/m.test(stdout) && (!stdout.includes('First start') || /-d '.*'\n/.test(stdout))
    await waitUntil('the "serving" banner', 60_000, () => {
      if (complete()) return true
      if (hasExited(child))
        throw new Error(`serve exited (${child.exitCode ?? child.signalCode}) before serving.\nstdout:\n${stdout}\nstderr:\n${stderr}`)
      return undefined
    })
    const baseUrl = /RankRelay is serving on (\S+)/.exec(stdout)?.[1]
    if (!baseUrl) throw new Error(`no base URL in:\n${stdout}`)
    const mintedKey = /^ {2}(rrk_[A-Za-z0-9_-]+)$/m.exec(stdout)?.[1] ?? null
    return {
      child,
      port,
      baseUrl,
      mintedKey,
      stdout: () => stdout,
      stderr: () => stderr,
      exited,
      stop: (signal: NodeJS.Signals = 'SIGTERM', graceMs = 8000) => stopChild(child, signal, graceMs),
    }
  }

  return { dataDir, env, run, serve }
}

/** The owner file serve writes into DATA_DIR ({pid, port, command, started_at}), or null. */
export function readOwner(dataDir: string): { pid: number; port?: number; command: string } | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, 'owner.json'), 'utf8'))
  } catch {
    return null
  }
}

/** True once the process is gone (PostgreSQL's fast shutdown takes a moment after its owner exits). */
export async function gone(pid: number | null, timeoutMs = 15_000): Promise<boolean> {
  if (pid === null) return true
  const deadline = Date.now() + timeoutMs
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false
    await sleep(50)
  }
  return true
}

/** The pid in the cluster's postmaster.pid, or null. */
export function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10)
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

export interface RpcResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** POST /api/v1/rpc/<method> over real HTTP. */
export async function rpc(baseUrl: string, method: string, params: unknown, key: string): Promise<RpcResponse> {
  const response = await fetch(`${baseUrl}/api/v1/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(params),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: keep the text for the assertion message
  }
  return { status: response.status, headers: response.headers, body }
}

/** Like rpc, but expects 200 and returns `result`. */
export async function call<T = any>(baseUrl: string, method: string, params: unknown, key: string): Promise<T> {
  const response = await rpc(baseUrl, method, params, key)
  if (response.status !== 200) throw new Error(`${method} answered ${response.status}: ${JSON.stringify(response.body)}`)
  return (response.body as { result: T }).result
}

/** GET /api/v1/health, polled until it answers 200 (up to timeoutMs). */
export async function health(baseUrl: string, timeoutMs = 60_000): Promise<any> {
  return waitUntil('health', timeoutMs, async () => {
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(5000) })
      return response.status === 200 ? await response.json() : undefined
    } catch {
      return undefined
    }
  })
}

/** A valid PLATFORM_KEY: rrk_ and 40 random letters and digits. */
export function randomKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return `rrk_${[...randomBytes(40)].map((byte) => alphabet[byte % alphabet.length]).join('')}`
}
