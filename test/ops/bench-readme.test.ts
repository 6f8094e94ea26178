/**
 * The README's Performance section against the bench's registry and the rule that a missed target is argued:
 * every registered scenario has a row in the latest full run's table, and every row that marks a missed
 * target has an entry under "Where a target is missed" arguing it (and no entry argues a target the table
 * says was met).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { readReadmeReport, unexplainedMisses } from '../../ops/bench/readme-report.js'
import type { Result } from '../../ops/bench/results.js'
import { scenarios } from '../../ops/bench/scenarios/index.js'
import { ROOT } from './spawn.js'

const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8')
const names = scenarios.map((s) => s.name)

t.test('the latest full run has one row per registered scenario', async (t) => {
  const { rows } = readReadmeReport(readme)
  t.same(
    rows.map((r) => r.scenario),
    names,
    'the rows name the registered scenarios, in the order the bench runs them',
  )
})

t.test('every missed target in the latest full run is argued, and only those', async (t) => {
  const report = readReadmeReport(readme)
  const missed = report.rows.filter((r) => r.missed).map((r) => r.scenario)
  t.same([...report.explained].sort(), [...missed].sort(), 'the "Where a target is missed" entries are exactly the rows marked missed')
  // The same rule the bench applies after a run, on figures shaped as the table reports them.
  const asResults = report.rows.map(
    (r): Result => ({ scenario: r.scenario, metric: 'figure', unit: '', median: 0, min: 0, max: 0, spread: 0, runs: [0], met: !r.missed }),
  )
  t.same(unexplainedMisses(asResults, report), [], 'no missed figure without an entry')
})

t.test('the README lists every scenario by name for `npm run bench -- <scenario>`', async (t) => {
  const performance = readme.slice(readme.indexOf('## Performance'), readme.indexOf('**Durability.**'))
  for (const name of names) t.ok(performance.includes(`\`${name}\``), `lists ${name}`)
})

t.test('the rule: a miss without an entry is named, one with an entry is not', async (t) => {
  const markdown = [
    '## Performance',
    '### Latest full run',
    '| scenario | figure | target | |',
    '|---|---|---|---|',
    '| `fast`: one writer | 10/s | ≥ 5 | met |',
    '| `slow`: eight writers | 3/s | ≥ 5 | missed, see below |',
    '| `odd`: reads | 1/s | ≥ 5 | p99 met; 0.40 MISSED |',
    '### Where a target is missed, and why',
    '- **`slow`: 3/s (target 5).** Why the target is wrong.',
    '  A continuation line that mentions `odd` is not an entry.',
    '### Next section',
    '- **`odd`: outside the section, not an entry.**',
  ].join('\n')
  const report = readReadmeReport(markdown)
  t.same(
    report.rows,
    [
      { scenario: 'fast', missed: false },
      { scenario: 'slow', missed: true },
      { scenario: 'odd', missed: true },
    ],
    'rows with their verdicts',
  )
  t.same(report.explained, ['slow'], 'entries are the bullets of that section only')
  const result = (scenario: string, met: boolean | undefined): Result => ({
    scenario,
    metric: 'm',
    unit: 'u',
    median: 1,
    min: 1,
    max: 1,
    spread: 0,
    runs: [1],
    met,
  })
  const unexplained = unexplainedMisses(
    [result('fast', true), result('slow', false), result('odd', false), result('odd', undefined), result('new', false)],
    report,
  )
  t.same(
    unexplained.map((r) => r.scenario),
    ['odd', 'new'],
    'the misses with no entry, whatever the table says',
  )
})
