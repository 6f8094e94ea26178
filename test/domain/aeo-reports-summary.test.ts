/**
 * The pure side of AI Visibility reports: Wilson score intervals against published figures, the verdict
 * rule (moved only when intervals do not overlap), the summary over two months, share of voice, and the
 * report page (self-contained, every data string escaped, the trend chart only with two months).
 */
import t, { type Test } from 'tap'
import { escapeHtml, renderReportHtml, type ReportInput } from '../../domain/aeo/reports/html.js'
import { aeoReports, aeoReportsStream, reportPath } from '../../domain/aeo/reports/report.js'
import { previousMonth, shareOfVoice, summarizeRates, type CaptureCounts } from '../../domain/aeo/summary/summary.js'
import { verdict } from '../../domain/aeo/summary/verdict.js'
import { proportion, wilsonInterval } from '../../domain/aeo/summary/wilson.js'
import { AccentColor, LogoUrl } from '../../domain/organizations/branding.js'
import { spec } from './given-when-then.js'

const close = (t: Pick<Test, 'ok'>, found: number, wanted: number, what: string) =>
  t.ok(Math.abs(found - wanted) < 5e-5, `${what}: ${found} ≈ ${wanted}`)

t.test('Wilson 95% intervals match published figures', async (t) => {
  // Reference values: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
  // (method 3, score interval without continuity correction), and the usual textbook cases.
  const cases: [number, number, number, number][] = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [0, 10, 0, 0.2775],
    [1, 10, 0.0179, 0.4042],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
  ]
  for (const [x, n, low, high] of cases) {
    const [l, h] = wilsonInterval(x, n)
    close(t, l, low, `${x}/${n} low`)
    close(t, h, high, `${x}/${n} high`)
  }
  t.strictSame(wilsonInterval(0, 0), [0, 1], 'no sample: nothing known')
  t.throws(() => wilsonInterval(3, 2), RangeError)
  t.throws(() => wilsonInterval(-1, 2), RangeError)
  t.throws(() => wilsonInterval(1.5, 2), RangeError)
})

t.test('proportion rounds for display and keeps its sample', async (t) => {
  t.strictSame(proportion(81, 263), { numerator: 81, denominator: 263, rate: 0.308, ci95: [0.2553, 0.3662] })
  t.strictSame(proportion(0, 0), { numerator: 0, denominator: 0, rate: null, ci95: [0, 1] })
  t.strictSame(proportion(7, 7).ci95[1], 1)
})

t.test('verdicts: moved only when the intervals do not overlap', async (t) => {
  t.equal(verdict(proportion(18, 20), proportion(2, 20)), 'moved up', '90% vs 10% of 20')
  t.equal(verdict(proportion(2, 20), proportion(18, 20)), 'moved down')
  t.equal(verdict(proportion(6, 10), proportion(4, 10)), 'within noise', '60% vs 40% of 10 overlap')
  // 30% vs 10% of 30: point estimates differ by 20 points, but [0.1667, 0.4788] and [0.0346, 0.2562] overlap.
  t.equal(verdict(proportion(9, 30), proportion(3, 30)), 'within noise')
  // The same rates with ten times the sample separate.
  t.equal(verdict(proportion(90, 300), proportion(30, 300)), 'moved up')
  t.equal(verdict(proportion(5, 10), null), 'no previous month')
  t.equal(verdict(proportion(5, 10), proportion(0, 0)), 'no previous month', 'an empty previous sample is no comparison')
  t.equal(verdict(proportion(0, 0), proportion(5, 10)), 'no previous month')
})

t.test('previousMonth is the latest month before, whatever the order', async (t) => {
  t.equal(previousMonth(['2026-03', '2026-01', '2025-12'], '2026-03'), '2026-01')
  t.equal(previousMonth(['2026-03'], '2026-03'), null)
  t.equal(previousMonth([], '2026-03'), null)
  t.equal(previousMonth(['2026-05', '2026-01'], '2026-04'), '2026-01', 'a month asked for without captures still compares')
})

const row = (
  month: string,
  service: string,
  engine: string,
  captures: number,
  present: number,
  namedFirst: number,
  mentioned = present,
): CaptureCounts => ({
  month,
  service,
  engine,
  captures,
  present,
  namedFirst,
  mentioned,
})

t.test('summarizeRates: per service, per engine and overall, each against the previous month', async (t) => {
  const counts = [
    row('2026-01', 'Drains', 'claude', 20, 2, 1),
    row('2026-01', 'Drains', 'openai', 20, 2, 0),
    row('2026-01', 'Heaters', 'claude', 10, 5, 2),
    row('2026-02', 'Drains', 'claude', 20, 18, 10),
    row('2026-02', 'Drains', 'openai', 20, 17, 9),
    row('2026-02', 'Heaters', 'claude', 10, 6, 2),
    row('2026-02', '', 'gemini', 4, 1, 0),
    row('2025-12', 'Drains', 'claude', 99, 99, 99), // neither month: ignored
  ]
  const s = summarizeRates({ month: '2026-02', previousMonth: '2026-01', counts, competitors: [] })
  t.equal(s.captures, 54)
  t.match(s.overall.presence, { numerator: 42, denominator: 54, verdict: 'moved up', previous: { numerator: 9, denominator: 50 } })
  t.match(s.overall.named_first, { numerator: 21, denominator: 54, previous: { numerator: 3, denominator: 50 }, verdict: 'moved up' })
  t.strictSame(
    s.services.map((x) => [x.service, x.captures, x.presence.numerator, x.presence.verdict]),
    [
      ['', 4, 1, 'no previous month'],
      ['Drains', 40, 35, 'moved up'],
      ['Heaters', 10, 6, 'within noise'],
    ],
  )
  t.strictSame(
    s.engines.map((x) => [x.engine, x.captures, x.named_first.numerator, x.named_first.verdict]),
    [
      ['claude', 30, 12, 'within noise'],
      ['gemini', 4, 0, 'no previous month'],
      ['openai', 20, 9, 'moved up'],
    ],
  )
  const first = summarizeRates({ month: '2026-01', previousMonth: null, counts, competitors: [] })
  t.equal(first.overall.presence.verdict, 'no previous month')
  t.equal(first.overall.presence.previous, null)
  const empty = summarizeRates({ month: '2026-07', previousMonth: '2026-02', counts, competitors: [] })
  t.match(empty.overall.presence, { numerator: 0, denominator: 0, rate: null, verdict: 'no previous month' })
  t.strictSame(empty.services, [])
})

t.test('share of voice: client mentions over all business mentions, top competitors first', async (t) => {
  const sov = shareOfVoice(6, [
    { name: 'Bob', mentions: 2 },
    { name: 'Ace', mentions: 8 },
    { name: 'Cat', mentions: 2 },
    { name: 'Dee', mentions: 1 },
    { name: 'Eve', mentions: 1 },
    { name: 'Fox', mentions: 1 },
  ])
  t.equal(sov.total_mentions, 21)
  t.equal(sov.rate, 0.2857)
  t.strictSame(
    sov.competitors.map((c) => [c.name, c.mentions, c.share]),
    [
      ['Ace', 8, 0.381],
      ['Bob', 2, 0.0952],
      ['Cat', 2, 0.0952],
      ['Dee', 1, 0.0476],
      ['Eve', 1, 0.0476],
    ],
  )
  t.strictSame(shareOfVoice(0, []), { client_mentions: 0, total_mentions: 0, rate: null, competitors: [] })
})

t.test('branding values: #rrggbb accents and https logos only', async (t) => {
  t.equal(AccentColor.parse(' #A1B2C3 '), '#a1b2c3')
  for (const bad of ['red', '#abc', '#12345g', 'rgb(1,2,3)', '#1234567', '#123456;}body{x:y'])
    t.notOk(AccentColor.safeParse(bad).success, `accent ${bad}`)
  t.equal(LogoUrl.parse('https://cdn.example.com/logo.png'), 'https://cdn.example.com/logo.png')
  for (const bad of [
    'http://cdn.example.com/logo.png',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'https://user:pw@cdn.example.com/x.png',
    'https://localhost/x.png',
    'logo.png',
  ]) {
    t.notOk(LogoUrl.safeParse(bad).success, `logo ${bad}`)
  }
})

t.test('filing a report is always recorded, on aeo_reports-<client_id>', async (t) => {
  const file = { path: reportPath(3, 7, '2026-02'), content_type: 'text/html; charset=utf-8', bytes: 10, sha256: 'ab'.repeat(32) }
  t.equal(aeoReportsStream(7), 'aeo_reports-7')
  t.equal(file.path, 'aeo-reports/3/7/2026-02.html')
  const filed = { type: 'AeoReportFiled' as const, data: { client_id: 7, month: '2026-02', files: [file] } }
  spec(aeoReports)()
    .when({ type: 'FileReport', client_id: 7, month: '2026-02', files: [file] })
    .then(t, [filed])
  spec(aeoReports)(filed)
    .when({ type: 'FileReport', client_id: 7, month: '2026-02', files: [file] })
    .then(t, [filed])
})

const ALLOWED_TAGS = new Set(
  'html head meta title style body main header div h1 h2 h3 p span section table thead tbody tr th td ul li strong footer svg line text polygon polyline circle'.split(
    ' ',
  ),
)

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>'&`

function reportInput(overrides: Partial<ReportInput> = {}): ReportInput {
  const counts = [
    row('2026-01', 'Drains', 'claude', 10, 2, 1),
    row('2026-02', HOSTILE, 'claude', 10, 8, 4),
    row('2026-02', 'Drains', 'openai', 10, 5, 2),
  ]
  const summary = summarizeRates({ month: '2026-02', previousMonth: '2026-01', counts, competitors: [{ name: HOSTILE, mentions: 3 }] })
  return {
    brand: { name: `Agency ${HOSTILE}`, accent_color: '#ff0066' },
    client: { name: `Client ${HOSTILE}`, website_url: `https://client.example.com/?q="><script>` },
    month: '2026-02',
    generated_at: '2026-02-28T12:00:00.000Z',
    summary,
    trend: [
      { month: '2026-01', presence: proportion(2, 10), named_first: proportion(1, 10) },
      { month: '2026-02', presence: proportion(13, 20), named_first: proportion(6, 20) },
    ],
    sources: [{ domain: `evil.example.com"><script>`, class: HOSTILE, citations: 4, answers: 3 }],
    items: [
      { tier: 'C', title: `Claim the Google profile ${HOSTILE}`, status: 'open', evidence: HOSTILE },
      { tier: 'A', title: 'Add a service page', status: 'in_progress', evidence: '' },
    ],
    ...overrides,
  }
}

/** The page's tags (escaped text never contains '<', so every '<' opens real markup). */
const tagsOf = (html: string) => [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0])

/** Every URL-bearing attribute of a tag, and any CSS url() or @import: a self-contained page has none. */
function externalReferences(html: string): string[] {
  const found: string[] = []
  for (const tag of tagsOf(html)) {
    for (const m of tag.matchAll(/\s(?:src|href|srcset|action|poster|data|xlink:href)\s*=/gi)) found.push(`${m[0]} in ${tag}`)
  }
  for (const m of html.matchAll(/url\(|@import/gi)) found.push(m[0])
  return found
}

t.test('the report page is self-contained and escapes every data string', async (t) => {
  const html = renderReportHtml(reportInput())
  t.ok(html.startsWith('<!DOCTYPE html>'))
  t.strictSame(externalReferences(html), [], 'no src, href, url() or @import anywhere')
  t.notMatch(html, /<script/i, 'no script element, not even from data')
  t.notMatch(html, /<img/i, 'no image element')
  t.strictSame(
    tagsOf(html).filter((tag) => /\son\w+\s*=/i.test(tag)),
    [],
    'no event handler attribute on any tag',
  )
  t.strictSame(
    tagsOf(html)
      .map((tag) => /^<(\w+)/.exec(tag)![1]!.toLowerCase())
      .filter((name) => !ALLOWED_TAGS.has(name)),
    [],
    'only the tags the renderer writes',
  )
  t.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/)
  t.match(html, 'Client &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;', 'the client name, escaped')
  t.match(html, 'Agency &#60;script&#62;', 'the brand name, escaped')
  t.match(html, '--accent:#ff0066', 'the accent color')
  t.match(html, '<svg', 'the trend chart once two months exist')
  t.match(html, '2 / 10', 'sample sizes shown')
  t.match(html, 'Tier A: website work')
  t.ok(html.indexOf('Tier A') < html.indexOf('Tier C'), 'actions by tier, A first')
  t.equal(renderReportHtml(reportInput()), html, 'the same input renders the same bytes')

  const single = renderReportHtml(
    reportInput({ trend: [{ month: '2026-02', presence: proportion(13, 20), named_first: proportion(6, 20) }] }),
  )
  t.notMatch(single, '<svg', 'no chart with one month')
  t.match(single, 'appears once two months have captures')

  const badAccent = renderReportHtml(reportInput({ brand: { name: 'A', accent_color: 'red;}</style><script>' } }))
  t.match(badAccent, '--accent:#2563eb', 'an invalid accent falls back to the default')
  t.notMatch(badAccent, '<script')
})

t.test('escapeHtml covers the five HTML specials and the backtick', async (t) => {
  t.equal(escapeHtml(`<>&"'\``), '&#60;&#62;&#38;&#34;&#39;&#96;')
  t.equal(escapeHtml(42), '42')
})
