/**
 * MCP batches and the per-key rate limit: a JSON-RPC batch counts one request per message
 * against the key's per-minute window, as that many REST calls would; a batch that does not fit in what is
 * left of the window is refused whole with 429 rate_limited and Retry-After, and none of its calls run.
 * Before the fix a batch of 100 tools/call counted as one request, so a 3-a-minute key ran 100 RPCs.
 *
 * Sent over a real socket (fetch, as any HTTP client would); the limiter's
 * clock is pinned so no assertion depends on when the test runs.
 */
import t, { type Test } from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { listeningUrl } from './mcp-support.js'

/** 12:00:10 UTC: 50 seconds before the window resets. */
const START = Date.UTC(2026, 10, 22, 12, 0, 10)

const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_all_clients', arguments: {} } })
const batchOf = (n: number, firstId = 1) => Array.from({ length: n }, (_, i) => toolCall(firstId + i))

async function limitedSystem(t: Test) {
  let ms = START
  const clock = {
    now: () => ms,
    /** Ten seconds into the next minute: a fresh window for every bucket. */
    nextMinute() {
      ms = (Math.floor(ms / 60_000) + 1) * 60_000 + 10_000
    },
  }
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute: 1000, now: clock.now } })
  const org = await orgWithKey(ts, 'Acme')
  await ts.call('set_api_key_rate_limit', { key_id: org.keyId, per_minute: 3 })
  clock.nextMinute()
  const base = await listeningUrl(ts)
  const post = (body: unknown) =>
    fetch(`${base}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${org.key}` },
      body: JSON.stringify(body),
    })
  /** get_all_clients calls metered today for the key (the platform key reads it, so the read costs the key nothing). */
  const metered = async () => {
    const usage = await ts.call<{ by_method: { method: string; calls: number }[] }>('get_org_usage', { org_id: org.orgId, days: 1 })
    return usage.by_method.find((m) => m.method === 'get_all_clients')?.calls ?? 0
  }
  return { clock, post, metered }
}

t.test('a batch of 100 tools/call on a 3-a-minute key is refused whole: 429, Retry-After, nothing runs', async (t) => {
  const { post, metered } = await limitedSystem(t)
  const response = await post(batchOf(100))
  t.equal(response.status, 429, 'the batch counts 100 calls, over the limit of 3')
  t.match(await response.json(), { code: 'rate_limited', hint: /Retry-After/ })
  t.equal(response.headers.get('retry-after'), '50', 'Retry-After: the seconds until the window resets')
  t.equal(response.headers.get('x-ratelimit-limit'), '3')
  t.equal(response.headers.get('x-ratelimit-remaining'), '0')
  t.equal(await metered(), 0, 'none of its calls ran')
})

t.test('a batch that fits runs and uses up the window; the next call, or a batch larger than what is left, is 429', async (t) => {
  const { clock, post, metered } = await limitedSystem(t)
  const response = await post(batchOf(3))
  t.equal(response.status, 200)
  const answers = (await response.json()) as { id: number; result?: { isError?: boolean } }[]
  t.same(answers.map((a) => a.id).sort(), [1, 2, 3], 'every call answered')
  t.ok(
    answers.every((a) => a.result && !a.result.isError),
    'and succeeded',
  )
  t.equal(response.headers.get('x-ratelimit-remaining'), '0', 'three calls counted, not one')
  t.equal(await metered(), 3)

  const single = await post(toolCall(9))
  t.equal(single.status, 429, 'a fourth call in the minute')

  // A batch larger than what is left is refused whole, even when part of it would fit.
  clock.nextMinute()
  t.equal((await post(toolCall(10))).status, 200, 'one of three used')
  const tooMany = await post(batchOf(3, 11))
  t.equal(tooMany.status, 429, 'three more do not fit in the two left')
  t.equal(await metered(), 4, 'only the single call ran')
})
