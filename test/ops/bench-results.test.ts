/**
 * How the bench turns repeated runs into the figures it prints and writes: median, range, spread and the
 * verdict against the target, with a repetition that failed to report a figure showing as NaN.
 */
import t from 'tap'
import { summarize, table } from '../../ops/bench/results.js'
import type { Figure } from '../../ops/bench/types.js'

const throughput = (value: number): Figure => ({ metric: 'events/s', value, unit: 'events/s', target: { op: '>=', value: 1000 } })
const latency = (value: number): Figure => ({ metric: 'p99', value, unit: 'ms', target: { op: '<=', value: 20 } })
const plain = (value: number): Figure => ({ metric: 'seconds', value, unit: 's' })

t.test('median, range, spread and verdict over repetitions', async (t) => {
  const results = summarize('append', [
    [throughput(900), latency(25), plain(2)],
    [throughput(1200), latency(18), plain(4)],
    [throughput(1100), latency(19), plain(3)],
  ])
  t.same(
    results.map((r) => r.metric),
    ['events/s', 'p99', 'seconds'],
    'the figures of the first run, in order',
  )
  t.match(results[0], { scenario: 'append', unit: 'events/s', median: 1100, min: 900, max: 1200, runs: [900, 1200, 1100], met: true })
  t.equal(results[0]!.spread, 300 / 1100, 'spread: range over median')
  t.match(results[1], { median: 19, min: 18, max: 25, met: true }, 'a latency target is met at the median, not at the worst run')
  t.equal(results[2]!.met, undefined, 'no target, no verdict')
  t.match(
    summarize('append', [[throughput(999)]])[0],
    { median: 999, spread: 0, met: false },
    'one run: no spread; below the target misses',
  )
  t.match(summarize('x', [[latency(20)]])[0], { met: true }, 'at most 20 includes 20')
})

t.test('an even number of runs takes the middle two', async (t) => {
  t.equal(summarize('s', [[plain(1)], [plain(2)], [plain(4)], [plain(10)]])[0]!.median, 3)
})

t.test('a repetition that lacks a figure shows as NaN, not as a quieter median', async (t) => {
  const [result] = summarize('s', [[throughput(1000)], [], [throughput(1200)]])
  t.ok(Number.isNaN(result!.runs[1]), 'the missing run is NaN')
  t.ok(Number.isNaN(result!.min) && Number.isNaN(result!.max), 'the range says so')
})

t.test('no runs, no figures', async (t) => {
  t.same(summarize('s', []), [])
})

t.test('the table: header, right-aligned medians, verdicts', async (t) => {
  const text = table(summarize('append', [[throughput(12345.6), latency(30), plain(0.123)]]))
  const lines = text.split('\n')
  t.match(lines[0], /^scenario +metric +median +unit +spread +target$/, 'header')
  t.match(lines[1], /^append +events\/s +12,346 +events\/s +±0\.0% +>= 1,000 +met$/, 'a met target')
  t.match(lines[2], /^append +p99 +30 +ms +±0\.0% +<= 20 +MISSED$/, 'a missed target')
  t.match(lines[3], /^append +seconds +0\.12 +s +±0\.0%$/, 'no target: no verdict, no trailing blanks')
  t.equal(lines[1]!.indexOf('12,346') + '12,346'.length, lines[2]!.indexOf('30') + 2, 'medians end in the same column')
})
