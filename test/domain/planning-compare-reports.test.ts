/**
 * Compare reports, the pure parts: the month arithmetic, the rank numbers and movers, the aggregate (one
 * report per client-month: filing again keeps the id), and the page (escaped, self-contained, the numbers
 * and changes it shows).
 */
import t from 'tap'
import type { CompareMonthNumbers } from '../../domain/planning/compare-reports/events.js'
import { renderCompareReportHtml, type CompareReportInput } from '../../domain/planning/compare-reports/html.js'
import { againstMonthOf } from '../../domain/planning/compare-reports/months.js'
import { addMonths, daysOf } from '../../domain/shared/months.js'
import { movers, rankNumbers } from '../../domain/planning/compare-reports/numbers.js'
import { compareReportPath, compareReports } from '../../domain/planning/compare-reports/report.js'
import { DomainError } from '../../domain/shared/errors.js'
import { spec } from './given-when-then.js'

const HOSTILE = `<script>alert("x")</script> & 'quotes' <img src=x onerror=alert(1)>`

const numbers = (over: Partial<CompareMonthNumbers> = {}): CompareMonthNumbers => ({
  keywords_ranked: 10,
  top_3: 2,
  top_10: 5,
  top_100: 8,
  average_position: 12.5,
  clicks: 1200,
  impressions: 40000,
  ai_answers: 20,
  ai_present: 8,
  site_changes: 3,
  items_planned: 6,
  items_done: 4,
  items_carried: 1,
  ...over,
})

t.test('months', async (t) => {
  t.equal(addMonths('2026-01', -1), '2025-12')
  t.equal(addMonths('2026-12', 1), '2027-01')
  t.strictSame(daysOf('2026-02'), { start: '2026-02-01', end: '2026-02-28' })
  t.strictSame(daysOf('2028-02'), { start: '2028-02-01', end: '2028-02-29' }, 'a leap year')
  t.equal(againstMonthOf('2026-03', undefined), '2026-02', 'the month before by default')
  t.equal(againstMonthOf('2026-03', '2025-03'), '2025-03')
  t.throws(() => againstMonthOf('2026-03', '2026-03'), DomainError, 'a month against itself is refused')
})

t.test('rank numbers and movers', async (t) => {
  t.strictSame(rankNumbers([1, 3, 4, 10, 11, 100, null]), {
    keywords_ranked: 7,
    top_3: 2,
    top_10: 4,
    top_100: 6,
    average_position: 21.5,
  })
  t.strictSame(rankNumbers([]), { keywords_ranked: 0, top_3: 0, top_10: 0, top_100: 0, average_position: null })
  t.strictSame(rankNumbers([null, null]).average_position, null, 'none in the top 100: no average')

  const before = new Map<number, number | null>([
    [1, 20],
    [2, 5],
    [3, null],
    [4, 7],
    [6, 30],
  ])
  const after = new Map<number, number | null>([
    [1, 4], // up 16
    [2, 9], // down 4
    [3, 50], // up from outside (101 → 50: 51)
    [4, 7], // unchanged
    [5, 1], // new this month: not a mover
    [6, null], // dropped out (30 → 101: down 71)
  ])
  const names = new Map([
    [1, 'drain cleaning'],
    [2, 'water heater repair'],
    [3, 'sewer line'],
    [6, 'boiler'],
  ])
  const moved = movers(before, after, names)
  t.strictSame(moved.up, [
    { keyword: 'sewer line', from: null, to: 50 },
    { keyword: 'drain cleaning', from: 20, to: 4 },
  ])
  t.strictSame(moved.down, [
    { keyword: 'boiler', from: 30, to: null },
    { keyword: 'water heater repair', from: 5, to: 9 },
  ])
  t.equal(movers(before, after, names, 1).up.length, 1, 'limited')
})

t.test('the aggregate: one report per client-month', async (t) => {
  const given = spec(compareReports)
  const summary = { month: numbers(), against: numbers() }
  const files = [{ path: compareReportPath(3, 7, '2026-03'), content_type: 'text/html; charset=utf-8', bytes: 10, sha256: 'ab' }]
  const file = (report_id: number, month: string, against_month: string) => ({
    type: 'FileCompareReport' as const,
    report_id,
    client_id: 7,
    month,
    against_month,
    files,
    summary,
  })
  const first = given()
    .when(file(21, '2026-03', '2026-02'))
    .then(t, [
      { type: 'CompareReportFiled', data: { report_id: 21, client_id: 7, month: '2026-03', against_month: '2026-02', files, summary } },
    ])
  given(...first)
    .when(file(22, '2026-03', '2025-03'))
    .then(t, [
      { type: 'CompareReportFiled', data: { report_id: 21, client_id: 7, month: '2026-03', against_month: '2025-03', files, summary } },
    ])
  given(...first)
    .when(file(23, '2026-04', '2026-03'))
    .then(t, [
      { type: 'CompareReportFiled', data: { report_id: 23, client_id: 7, month: '2026-04', against_month: '2026-03', files, summary } },
    ])
  t.equal(compareReportPath(3, 7, '2026-03'), 'compare-reports/3/7/2026-03.html')
})

const input = (over: Partial<CompareReportInput> = {}): CompareReportInput => ({
  brand: { name: `Acme ${HOSTILE}`, accent_color: '#FF0066' },
  client: { name: `Plumbers ${HOSTILE}`, website_url: 'https://plumbers.example.com/?a=1&b=2' },
  month: '2026-03',
  against_month: '2026-02',
  generated_at: '2026-04-01T06:00:00.000Z',
  summary: {
    month: numbers({ top_10: 7, clicks: 1500, average_position: 10.25, ai_present: 12 }),
    against: numbers({ top_10: 5, clicks: 1200, average_position: 12.5, site_changes: 3 }),
  },
  movers: { up: [{ keyword: `drain ${HOSTILE}`, from: 20, to: 4 }], down: [] },
  items: {
    done: [
      { tier: 'A', action_type: 'title_meta_rewrite', description: `Rewrite ${HOSTILE}`, page_url: 'https://p.example/x', status: 'done' },
    ],
    open: [{ tier: 'B', action_type: 'improve_content', description: 'Strengthen the boilers page', page_url: '', status: 'in_progress' }],
  },
  ...over,
})

t.test('the page: escaped, self-contained, the numbers and their changes', async (t) => {
  const html = renderCompareReportHtml(input())
  t.notMatch(html, '<script', 'no script from data')
  t.notMatch(html, '<img', 'no element from data')
  t.notMatch(html, /onerror=alert\(1\)>/, 'attributes from data stay text')
  t.match(html, '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;quotes&#39;', 'escaped as text')
  t.match(html, 'https://plumbers.example.com/?a=1&#38;b=2')
  t.match(html, `content="default-src 'none'; style-src 'unsafe-inline'"`, 'fetches nothing')
  t.notMatch(html, /<[a-z][^>]*\b(src|href)=/, 'links nothing')
  t.match(html, '--accent:#ff0066', 'the organization accent, normalized')
  t.match(renderCompareReportHtml(input({ brand: { name: 'x', accent_color: 'red;}body{x' } })), '--accent:#', 'a bad color falls back')
  t.notMatch(renderCompareReportHtml(input({ brand: { name: 'x', accent_color: 'red;}body{x' } })), 'red;}')
  // In the top 10: 5 → 7 (+2, good); clicks 1,200 → 1,500 (+300); average position 12.5 → 10.3 (−2.2, good because lower).
  t.match(
    html,
    '<th scope="row">In the top 10</th><td class="num">5</td><td class="num">7</td><td class="num"><span class="verdict moved-up">+2</span></td>',
  )
  t.match(html, '<td class="num">1,200</td><td class="num">1,500</td><td class="num"><span class="verdict moved-up">+300</span>')
  t.match(html, '<td class="num">12.5</td><td class="num">10.3</td><td class="num"><span class="verdict moved-up">−2.2</span>')
  t.match(
    html,
    '<th scope="row">Site changes detected</th><td class="num">3</td><td class="num">3</td><td class="num muted">no change</td>',
  )
  t.match(html, '60.0% <span class="muted">(12 / 20)</span>', 'AI presence with its sample')
  t.match(html, '<td class="num">#20</td><td class="num">#4</td>', 'a mover')
  t.match(html, 'in progress', 'an open item in progress says so')
  t.equal(renderCompareReportHtml(input()), html, 'pure: the same input, the same bytes')
  const empty = renderCompareReportHtml(
    input({
      summary: { month: numbers({ ai_answers: 0, ai_present: 0, average_position: null }), against: numbers({ average_position: null }) },
      movers: { up: [], down: [] },
      items: { done: [], open: [] },
    }),
  )
  t.match(empty, 'No action item was completed this month.')
  t.match(empty, '<th scope="row">Average position (top 100)</th><td class="num">–</td><td class="num">–</td><td class="num muted">–</td>')
})
