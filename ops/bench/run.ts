import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { migrateToLatest } from '../../migrations/index.js'
import { startEmbeddedPostgres } from '../embedded-postgres.js'
import { ensureDatabase, openPool } from '../postgres.js'
import { scenarios } from './scenarios/index.js'
import { readReadmeReport, unexplainedMisses } from './readme-report.js'
import { type Result, summarize, table } from './results.js'
import type { BenchContext, BenchDatabase, Figure, Scenario } from './types.js'

export interface BenchOptions {
  /** Scenario names to run; all when empty. */
  readonly names: readonly string[]
  readonly repeat: number
  readonly quick: boolean
  /** Where results.json goes. */
  readonly output: string
  /** An existing server (postgres://…/postgres) instead of a fresh embedded one. */
  readonly serverUrl?: string | undefined
}

async function serverVersion(serverUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ v: string }>('select current_setting($$server_version$$) as v')
    return rows[0]?.v ?? 'unknown'
  } finally {
    await client.end()
  }
}

/** Runs the chosen scenarios, prints the table, writes the JSON. Returns the results. */
export async function runBench(options: BenchOptions): Promise<Result[]> {
  const unknown = options.names.filter((name) => !scenarios.some((s) => s.name === name))
  if (unknown.length > 0) throw new Error(`Unknown scenario ${unknown.join(', ')}; scenarios: ${scenarios.map((s) => s.name).join(', ')}`)
  const chosen: Scenario[] = options.names.length === 0 ? [...scenarios] : scenarios.filter((s) => options.names.includes(s.name))

  const log = (message: string) => process.stderr.write(`bench: ${message}\n`)
  let directory: string | undefined
  let stop = async () => {}
  let serverUrl = options.serverUrl
  if (!serverUrl) {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-bench-'))
    // PostgreSQL's default durability (fsync, synchronous_commit on): the figures are for real use.
    const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), password: 'bench', durable: true })
    serverUrl = cluster.connectionString('postgres')
    stop = () => cluster.stop()
  }
  const postgresVersion = await serverVersion(serverUrl).catch(() => 'unknown')
  const databases: BenchDatabase[] = []
  let counter = 0
  const context: BenchContext = {
    serverUrl,
    quick: options.quick,
    log,
    async createDatabase() {
      const name = `bench_${process.pid}_${++counter}`
      await ensureDatabase(serverUrl!, name)
      const url = new URL(serverUrl!)
      url.pathname = `/${name}`
      const database = openPool(url.toString(), { max: 40 })
      await migrateToLatest(database.db)
      const handle: BenchDatabase = {
        url: url.toString(),
        pool: database.pool,
        db: database.db,
        close: async () => {
          await database.close().catch(() => {})
          const admin = new pg.Client({ connectionString: serverUrl })
          await admin.connect()
          await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
          await admin.end()
        },
      }
      databases.push(handle)
      return handle
    },
  }

  const results: Result[] = []
  const started = new Date()
  try {
    for (const scenario of chosen) {
      const repeat = scenario.repeat ?? options.repeat
      const runs: Figure[][] = []
      if (scenario.runRepeated) {
        log(`${scenario.name}: ${repeat} runs on one data set`)
        runs.push(...(await scenario.runRepeated(context, repeat)))
        while (databases.length > 0) await databases.pop()!.close()
      } else {
        for (let i = 1; i <= repeat; i++) {
          log(`${scenario.name}: run ${i} of ${repeat}`)
          runs.push(await scenario.run(context))
          while (databases.length > 0) await databases.pop()!.close()
        }
      }
      results.push(...summarize(scenario.name, runs))
      process.stdout.write(`${table(results.filter((r) => r.scenario === scenario.name))}\n\n`)
    }
  } finally {
    while (databases.length > 0) await databases.pop()!.close()
    await stop()
    if (directory) await fs.rm(directory, { recursive: true, force: true })
  }

  process.stdout.write(`${table(results)}\n`)
  const cpus = os.cpus()
  const report = {
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    machine: {
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpus: cpus.length,
      cpu_model: cpus[0]?.model ?? 'unknown',
      memory_gib: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    },
    versions: { node: process.version, postgres: postgresVersion },
    settings: {
      repeat: options.repeat,
      quick: options.quick,
      durability: 'PostgreSQL defaults (fsync on, synchronous_commit on)',
      database: options.serverUrl ? 'external server' : 'embedded-postgres',
    },
    results,
  }
  await fs.mkdir(path.dirname(options.output), { recursive: true })
  await fs.writeFile(options.output, `${JSON.stringify(report, null, 2)}\n`)
  log(`results written to ${options.output}`)
  await reportUnexplainedMisses(results, options.quick, log)
  return results
}

/**
 * Names the figures that missed their target in a scenario the README's "Where a target is missed" does not
 * argue for: each such miss must be fixed or argued there, and this is when one shows.
 */
async function reportUnexplainedMisses(results: readonly Result[], quick: boolean, log: (message: string) => void): Promise<void> {
  const readme = await fs.readFile(new URL('../../README.md', import.meta.url), 'utf8').catch(() => undefined)
  if (readme === undefined) return
  const unexplained = unexplainedMisses(results, readReadmeReport(readme))
  if (unexplained.length === 0) return
  const figures = unexplained.map((r) => `${r.scenario} ${r.metric}`).join('; ')
  const why = quick ? ' (a --quick run: its smaller data sets are not the full run the README reports)' : ''
  log(`MISSED with no entry under the README's "Where a target is missed"${why}: ${figures}`)
}
