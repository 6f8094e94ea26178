/**
 * The summary and report over captures ingested through ingest_aeo_capture (the captures part's real
 * analysis), so the reports part's reading of report_json is checked against what the analysis writes:
 * every rate's numerator equals the scorecards counted from get_aeo_captures, competitors come from the
 * entity tables, and the filed report downloads.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'

const NOW = new Date('2026-03-02T09:00:00.000Z')

/** Engine-style answers: the client first, later, only cited, or absent; competitors in numbered lists. */
const ANSWERS = [
  {
    answer_text:
      'Here are the top picks for drain cleaning in Austin:\n\n1. **Summit Plumbing** – fast, licensed, great reviews.\n2. **Rapid Rooter Austin** – 24/7 service.\n3. **Capital Drain Pros** – fair prices.',
    citations: [{ url: 'https://www.summitplumbing.example.com/drains' }, { url: 'https://www.yelp.com/biz/rapid-rooter-austin' }],
  },
  {
    answer_text:
      'For water heater repair near Round Rock, consider:\n\n1. **Rapid Rooter Austin** – same-day installs.\n2. **Summit Plumbing** – tankless specialists.',
    citations: [{ url: 'https://www.yelp.com/search?find_desc=water+heater' }],
  },
  {
    answer_text: 'Popular choices include **Rapid Rooter Austin** and **Capital Drain Pros**. Check Google reviews before hiring.',
    citations: [{ url: 'https://www.summitplumbing.example.com/' }],
  },
  {
    answer_text: 'I would look at **Capital Drain Pros** or **Rapid Rooter Austin**; both have strong BBB ratings.',
    citations: [{ url: 'https://www.bbb.org/us/tx/austin/category/plumber' }],
  },
]

t.test('summary and report over ingested captures', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const org = await orgWithKey(ts, 'Acme Agency')
  const key = org.key
  const client = await ts.call<number>(
    'add_client',
    {
      client: {
        name: 'Summit Plumbing',
        website_url: 'https://www.summitplumbing.example.com',
        services: ['Drain cleaning', 'Water heaters'],
        locations: ['Austin, TX'],
      },
    },
    key,
  )
  const drains = await ts.call<number>('add_aeo_query', { client_id: client, prompt: 'best drain cleaning company in Austin' }, key)
  const heaters = await ts.call<number>(
    'add_aeo_query',
    { client_id: client, prompt: 'who should I hire for water heater repair near Round Rock' },
    key,
  )
  await ts.call('update_aeo_query', { query_id: drains, service: 'Drain cleaning' }, key)
  await ts.call('update_aeo_query', { query_id: heaters, service: 'Water heaters' }, key)

  const plan: { month: string; query: number; engine: string; answer: number }[] = []
  for (let i = 0; i < 8; i++)
    plan.push({ month: '2026-01', query: i % 2 ? heaters : drains, engine: i % 3 ? 'claude' : 'openai', answer: i % 4 === 0 ? 0 : 3 })
  for (let i = 0; i < 8; i++)
    plan.push({ month: '2026-02', query: i % 2 ? heaters : drains, engine: i % 3 ? 'claude' : 'gemini', answer: i % 4 })
  for (const p of plan) {
    await ts.call(
      'ingest_aeo_capture',
      { client_id: client, query_id: p.query, engine: p.engine, month: p.month, ...ANSWERS[p.answer]! },
      key,
    )
  }

  const summary = await ts.call('get_aeo_summary', { client_id: client }, key)
  t.equal(summary.month, '2026-02')
  t.equal(summary.previous_month, '2026-01')

  for (const month of ['2026-01', '2026-02']) {
    const captures = await ts.call<any[]>('get_aeo_captures', { client_id: client, month, limit: 500 }, key)
    const s = month === '2026-02' ? summary : await ts.call('get_aeo_summary', { client_id: client, month }, key)
    const count = (pick: (c: any) => boolean) => captures.filter(pick).length
    t.equal(s.overall.presence.denominator, captures.length, `${month}: every capture counted`)
    t.equal(
      s.overall.presence.numerator,
      count((c) => c.report_json.scorecard.present === true),
      `${month}: presence from the scorecards`,
    )
    t.equal(
      s.overall.named_first.numerator,
      count((c) => c.report_json.scorecard.named_first === true),
      `${month}: named first from the scorecards`,
    )
    t.equal(
      s.share_of_voice.client_mentions,
      count((c) => c.report_json.scorecard.named === true),
      `${month}: mentions are the answers naming the client`,
    )
    const drainsRow = s.services.find((r: any) => r.service === 'Drain cleaning')
    t.equal(
      drainsRow?.captures,
      count((c) => c.query_id === drains),
      `${month}: per service by the question's service`,
    )
  }
  t.ok(summary.overall.presence.numerator > 0, 'the analysis found the client')
  t.match(
    summary.share_of_voice.competitors.map((c: any) => c.name),
    ['Rapid Rooter Austin', 'Capital Drain Pros'],
    'competitors from the entity tables',
  )

  const report = await ts.call('aeo_report_html', { client_id: client }, key)
  t.match(report, { ok: true, month: '2026-02', trend_ready: true, months: ['2026-01', '2026-02'] })
  t.match(report.html, 'yelp.com')
  t.match(report.html, 'Rapid Rooter Austin')

  const filed = await ts.call('file_aeo_report', { client_id: client, month: '2026-02' }, key)
  const download = await ts.app.inject({ method: 'GET', url: filed.files[0].url, headers: { authorization: `Bearer ${key}` } })
  t.equal(download.statusCode, 200)
  t.equal(download.headers.etag, `"${filed.files[0].sha256}"`)
})

t.test('a sentence end splits competitor names in the summary and the report', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const org = await orgWithKey(ts, 'Acme Agency')
  const key = org.key
  // Dallas, so that "Austin Plumbing" is another business rather than the client's place and service.
  const client = await ts.call<number>(
    'add_client',
    {
      client: {
        name: 'Summit Plumbing',
        website_url: 'https://www.summitplumbing.example.com',
        services: ['Drain cleaning'],
        locations: ['Dallas, TX'],
      },
    },
    key,
  )
  const query = await ts.call<number>('add_aeo_query', { client_id: client, prompt: 'best drain cleaning company near me' }, key)
  const answer_text = 'For drain cleaning, call Reliant Plumbing. Austin Plumbing is also well reviewed, and Summit Plumbing is newer.'
  await ts.call(
    'ingest_aeo_capture',
    { client_id: client, query_id: query, engine: 'claude', month: '2026-02', answer_text, citations: [] },
    key,
  )

  const [capture] = await ts.call<any[]>('get_aeo_captures', { client_id: client, month: '2026-02' }, key)
  t.strictSame(
    capture.report_json.entity_table.map((e: any) => e.name),
    ['Reliant Plumbing', 'Austin Plumbing'],
    'the analysis: two businesses',
  )
  const summary = await ts.call('get_aeo_summary', { client_id: client, month: '2026-02' }, key)
  t.strictSame(
    summary.share_of_voice.competitors.map((c: any) => [c.name, c.mentions]),
    [
      ['Austin Plumbing', 1],
      ['Reliant Plumbing', 1],
    ],
    'the summary counts each',
  )
  const report = await ts.call('aeo_report_html', { client_id: client, month: '2026-02' }, key)
  t.match(report.html, 'Reliant Plumbing')
  t.match(report.html, 'Austin Plumbing')
  t.notMatch(report.html, /Reliant Plumbing\. Austin Plumbing/, 'the report names no merged business')
})
