/**
 * `npm test`: starts one embedded PostgreSQL for the whole run (or uses TEST_DATABASE_URL), migrates a
 * template database, then runs tap. Each test file clones the template into a database of its own, so
 * files run in parallel and never see each other's data.
 *
 * Coverage: the whole run (no arguments) is measured with c8 and its summary printed last, failing below
 * the thresholds of .c8rc.json. A run of some files measures only with RR_COVERAGE=1, and checks no
 * threshold (a part of the suite covers less than the whole); RR_COVERAGE=0 turns it off.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedPostgres, type EmbeddedCluster } from '../ops/embedded-postgres.js'
import { prepareCoverage, reportCoverage } from './support/coverage.js'
import { FailureList } from './support/failure-list.js'
import { prepareTemplate, TEMPLATE_DATABASE } from './support/template.js'

// A directory argument means every test file under it (tap itself only takes files and globs).
const args = (
  await Promise.all(
    process.argv.slice(2).map(async (arg) => {
      const stat = await fs.stat(arg).catch(() => undefined)
      if (!stat?.isDirectory()) return [arg]
      const entries = await fs.readdir(arg, { recursive: true })
      return entries
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.join(arg, f))
        .sort()
    }),
  )
).flat()
const wholeSuite = args.length === 0
const coverageDirectory =
  process.env.RR_COVERAGE === '1' || (wholeSuite && process.env.RR_COVERAGE !== '0') ? await prepareCoverage() : undefined
let cluster: EmbeddedCluster | undefined
let directory: string | undefined
let serverUrl = process.env.TEST_DATABASE_URL

if (!serverUrl) {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-test-'))
  cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), password: 'rankrelay-test', durable: false })
  serverUrl = cluster.connectionString('postgres')
}

let code = 1
try {
  await prepareTemplate(serverUrl)
  let summary: Record<string, number> | undefined
  const failures = new FailureList()
  code = await new Promise<number>((resolve) => {
    const tap = spawn(path.resolve('node_modules/.bin/tap'), args, {
      stdio: ['inherit', 'pipe', 'inherit'],
      // RR_FREEZE_AGGREGATE_STATES: cached aggregate states are frozen, so a mutating evolve/decide fails a test.
      // RR_VALIDATE_EVENTS_ON_READ: every decoded event is parsed against its schema (production skips it).
      env: {
        ...process.env,
        RR_TEST_SERVER_URL: serverUrl,
        RR_TEST_TEMPLATE: TEMPLATE_DATABASE,
        RR_FREEZE_AGGREGATE_STATES: '1',
        RR_VALIDATE_EVENTS_ON_READ: '1',
        // Every process under tap, and every process they start, writes its V8 coverage here.
        ...(coverageDirectory ? { NODE_V8_COVERAGE: coverageDirectory } : {}),
      },
    })
    // Pass tap's output through, and keep its closing count line ("# { total: 9, pass: 8, fail: 1 }").
    let tail = ''
    tap.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      failures.read(chunk.toString('utf8'))
      tail = (tail + chunk.toString('utf8')).slice(-4096)
      const match = /#\s*\{\s*(total:[^}]*)\}/.exec(tail)
      if (match)
        summary = Object.fromEntries(
          match[1]!
            .split(',')
            .map((kv) => kv.split(':').map((s) => s.trim()))
            .map(([k, v]) => [k, Number(v)]),
        )
    })
    tap.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
  })
  // The plain closing line CI reads: passed, failed, skipped (todo counts as skipped).
  if (summary) {
    const failed = summary.fail ?? 0
    const skipped = (summary.skip ?? 0) + (summary.todo ?? 0)
    process.stdout.write(`\n${summary.pass ?? 0} passed, ${failed} failed, ${skipped} skipped\n`)
    // A long run's log is often seen only by its tail: name what failed there, not 40,000 lines up.
    if (failures.lines.length) process.stdout.write(`\nFailed:\n${failures.lines.join('\n')}\n`)
  } else {
    process.stdout.write('\nNo test summary from tap: treating the run as failed\n')
    if (code === 0) code = 1
  }
} finally {
  await cluster?.stop().catch(() => {})
  if (directory) await fs.rm(directory, { recursive: true, force: true }).catch(() => {})
}
if (coverageDirectory) {
  const reported = await reportCoverage({ checkThresholds: wholeSuite })
  if (code === 0) code = reported
}
process.exit(code)
