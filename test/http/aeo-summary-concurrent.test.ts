/**
 * Concurrent get_aeo_summary reads, which read-api/rpc/aeo/summary-read.ts gathers per (organization, current
 * month) into one statement, with one built answer per (client, month asked): each request still gets the answer
 * for its own client, month and organization (another organization's client answers as missing, even when
 * asked in the same instant as a visible read of it), and a capture whose ingest was answered before a read
 * was sent is always counted by that read, while other reads of the same summary are in flight.
 */
import t from 'tap'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'

const NOW = new Date('2026-03-02T09:00:00.000Z')
const ANSWER = {
  answer_text: 'Here are the top picks:\n\n1. **Summit Plumbing** – fast, licensed.\n2. **Rapid Rooter Austin** – 24/7 service.',
  citations: [{ url: 'https://www.yelp.com/biz/rapid-rooter-austin' }],
}

interface Summary {
  client_id: number
  month: string
  captures: number
}

async function clientWithCaptures(ts: TestSystem, key: string, name: string, perMonth: Record<string, number>) {
  const client = await ts.call<number>(
    'add_client',
    {
      client: {
        name,
        website_url: `https://${name.toLowerCase().replace(/\W+/g, '')}.example.com`,
        services: ['Drain cleaning'],
        locations: ['Austin, TX'],
      },
    },
    key,
  )
  const query = await ts.call<number>(
    'add_aeo_query',
    { client_id: client, prompt: `best drain cleaning company in Austin for ${name}` },
    key,
  )
  for (const [month, n] of Object.entries(perMonth)) {
    for (let i = 0; i < n; i++)
      await ts.call('ingest_aeo_capture', { client_id: client, query_id: query, engine: 'claude', month, ...ANSWER }, key)
  }
  return { client, query }
}

t.test('concurrent get_aeo_summary reads each answer their own client, month and organization', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const a = await orgWithKey(ts, 'Acme Agency')
  const b = await orgWithKey(ts, 'Bravo Agency')
  const one = (await clientWithCaptures(ts, a.key, 'Summit Plumbing', { '2026-01': 2, '2026-02': 3 })).client
  const two = (await clientWithCaptures(ts, a.key, 'Capital Drains', { '2026-02': 1 })).client
  const theirs = (await clientWithCaptures(ts, b.key, 'Bravo Rooter', { '2026-01': 4 })).client

  const asks: { key: string; params: { client_id: number; month?: string }; expect: { month: string; captures: number } | 'missing' }[] = [
    { key: a.key, params: { client_id: one }, expect: { month: '2026-02', captures: 3 } },
    { key: a.key, params: { client_id: one, month: '2026-01' }, expect: { month: '2026-01', captures: 2 } },
    { key: a.key, params: { client_id: two }, expect: { month: '2026-02', captures: 1 } },
    { key: a.key, params: { client_id: theirs }, expect: 'missing' },
    { key: b.key, params: { client_id: theirs }, expect: { month: '2026-01', captures: 4 } },
    { key: b.key, params: { client_id: one }, expect: 'missing' },
    { key: a.key, params: { client_id: one, month: '2025-12' }, expect: { month: '2025-12', captures: 0 } },
  ]
  // Every ask several times, interleaved, all sent at once: same-key asks are gathered, different ones are not.
  const order = [...asks, ...asks.slice().reverse(), ...asks]
  const responses = await Promise.all(order.map((ask) => ts.rpc('get_aeo_summary', ask.params, ask.key)))
  order.forEach((ask, i) => {
    const what = `read ${i + 1} (${JSON.stringify(ask.params)}, ${ask.key === a.key ? 'A' : 'B'})`
    if (ask.expect === 'missing') {
      expectError(t, responses[i]!, 404, 'not_found', what)
      return
    }
    t.equal(responses[i]!.statusCode, 200, what)
    t.equal(responses[i]!.headers['content-type'], 'application/json; charset=utf-8', `${what}: JSON`)
    // A shared answer is serialised once (read-api/platform/shared-answer.ts): the same text fastify would send.
    t.equal(responses[i]!.body, JSON.stringify(responses[i]!.json()), `${what}: the body is the answer's JSON`)
    const s = (responses[i]!.json() as { result: Summary }).result
    t.strictSame({ client_id: s.client_id, month: s.month, captures: s.captures }, { client_id: ask.params.client_id, ...ask.expect }, what)
  })
})

t.test('a capture answered before a get_aeo_summary is sent is counted by it, while reads of the same summary are in flight', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const a = await orgWithKey(ts, 'Acme Agency')
  const { client, query } = await clientWithCaptures(ts, a.key, 'Summit Plumbing', { '2026-02': 1 })

  // Readers of the same summary keep a gathered statement in flight the whole time.
  let writing = true
  const background = Array.from({ length: 4 }, async () => {
    let reads = 0
    while (writing) {
      const response = await ts.rpc('get_aeo_summary', { client_id: client }, a.key)
      if (response.statusCode !== 200) throw new Error(`background read: ${response.statusCode} ${response.body}`)
      reads++
    }
    return reads
  })
  try {
    for (let expected = 2; expected <= 11; expected++) {
      await ts.call('ingest_aeo_capture', { client_id: client, query_id: query, engine: 'claude', month: '2026-02', ...ANSWER }, a.key)
      const seen = await Promise.all([1, 2, 3].map(() => ts.call<Summary>('get_aeo_summary', { client_id: client }, a.key)))
      t.strictSame(
        seen.map((s) => s.captures),
        [expected, expected, expected],
        `after ingest ${expected - 1} was answered, every read sent afterwards counts ${expected} captures`,
      )
    }
  } finally {
    writing = false
  }
  const reads = await Promise.all(background)
  t.ok(
    reads.every((n) => n > 0),
    'the background readers ran',
  )
})
