/**
 * What the store-outage tests share: a served instance keeps four writers busy while a test
 * takes its PostgreSQL away; afterwards every answer must have been a 200 or a 503 store_unavailable with
 * Retry-After (never a 500), the service answers 200 again, every acknowledged write is there, the background
 * work resumed, the outage was logged once rather than per request and per retry, and SIGTERM still stops it
 * promptly.
 */
import type { Test } from 'tap'
import { call, rpc, waitUntil, type Served } from './spawn.js'

export interface Writers {
  /** Client ids whose add_client answered 200. */
  readonly acknowledged: number[]
  /** Answers that were neither 200 nor 503 store_unavailable with Retry-After. */
  readonly wrong: string[]
  /** 503 store_unavailable answers seen, with their Retry-After. */
  readonly unavailable: string[]
  stop(): Promise<void>
}

/** Four writers adding clients as fast as the service answers, until stopped. */
export function startWriters(served: Served, key: string, orgId: number): Writers {
  const acknowledged: number[] = []
  const wrong: string[] = []
  const unavailable: string[] = []
  let writing = true
  let n = 0
  const writer = async () => {
    while (writing) {
      const name = `Outage ${n++}`
      const response = await rpc(
        served.baseUrl,
        'add_client',
        { org_id: orgId, client: { name, website_url: `https://o${n}.example.com` } },
        key,
      ).catch((error: Error) => ({ status: 0, headers: new Headers(), body: error.message }))
      if (response.status === 200) acknowledged.push(response.body.result as number)
      else if (
        response.status === 503 &&
        response.body?.code === 'store_unavailable' &&
        /^[1-9]\d*$/.test(response.headers.get('retry-after') ?? '')
      ) {
        unavailable.push(response.headers.get('retry-after')!)
        await new Promise((resolve) => setTimeout(resolve, 100))
      } else {
        wrong.push(`${response.status} ${JSON.stringify(response.body).slice(0, 300)}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
  const running = Promise.all([writer(), writer(), writer(), writer()])
  return {
    acknowledged,
    wrong,
    unavailable,
    stop: async () => {
      writing = false
      await running
    },
  }
}

/** GET /api/v1/health once: status, Retry-After and body. */
export async function healthOnce(baseUrl: string): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(10_000) })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json().catch(() => null) }
}

/** The log lines (pino's JSON lines on stderr) written after `from` characters. */
function logLines(served: Served, from: number): { level: number; msg: string }[] {
  return served
    .stderr()
    .slice(from)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
}

/**
 * While the store is down: a read, health and (through the writers) writes all answer 503 store_unavailable
 * with Retry-After. The read is asked until it is refused (the outage may take a moment to be noticed).
 */
export async function checkDuringOutage(t: Test, served: Served, writers: Writers, key: string, orgId: number): Promise<void> {
  const read = await waitUntil('a read to be refused', 30_000, async () => {
    const response = await rpc(served.baseUrl, 'get_organization', { org_id: orgId }, key)
    return response.status === 200 ? undefined : response
  })
  t.equal(read.status, 503, 'a read answers 503 while the database is down')
  t.equal(read.body.code, 'store_unavailable')
  t.match(read.headers.get('retry-after'), /^[1-9]\d*$/, 'with Retry-After')
  const down = await healthOnce(served.baseUrl)
  t.equal(down.status, 503, 'health answers 503')
  t.equal(down.body?.code, 'store_unavailable', 'store_unavailable')
  t.match(down.retryAfter, /^[1-9]\d*$/, 'with Retry-After')
  // The writers meet it too (under a loaded machine a write in flight can take a few seconds to be answered).
  await waitUntil('writers to see the outage', 30_000, () => (writers.unavailable.length > 0 ? true : undefined))
}

/** Checks what the outage left behind: answers, acknowledged writes, log lines, and a prompt SIGTERM. */
export async function checkAftermath(
  t: Test,
  served: Served,
  writers: Writers,
  key: string,
  orgId: number,
  logFrom: number,
): Promise<void> {
  const before = writers.acknowledged.length
  await waitUntil('writes to succeed again', 60_000, () => (writers.acknowledged.length >= before + 20 ? true : undefined))
  await writers.stop()
  t.same(writers.wrong, [], 'every answer was 200 or 503 store_unavailable with Retry-After (no 500)')
  t.ok(
    writers.unavailable.length > 0,
    `writers were told 503 store_unavailable with Retry-After during the outage (${writers.unavailable.length} times)`,
  )
  const health = await healthOnce(served.baseUrl)
  t.equal(health.status, 200, 'health answers 200 again')
  const clients = await call<{ id: number }[]>(served.baseUrl, 'get_all_clients', { org_id: orgId }, key)
  const ids = new Set(clients.map((c) => c.id))
  const lost = writers.acknowledged.filter((id) => !ids.has(id))
  t.same(lost, [], `every one of the ${writers.acknowledged.length} acknowledged writes is there`)

  // The background work came back too: the projections (a write waits for them) and the job processors.
  const added = await rpc(
    served.baseUrl,
    'add_client',
    { org_id: orgId, client: { name: 'After', website_url: 'https://after.example.com', services: ['Drains'] } },
    key,
  )
  t.equal(added.status, 200, 'a write after the outage succeeds')
  t.equal(added.headers.get('x-read-your-writes'), 'reached', 'and the projections show it before the answer')
  const job = await fetch(`${served.baseUrl}/api/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'ad_copy', org_id: orgId, client_id: added.body.result, payload: { areas: ['Austin, TX'] } }),
  }).then((r) => r.json() as Promise<{ job_id: number }>)
  const done = await waitUntil('the job to finish', 60_000, async () => {
    const response = await fetch(`${served.baseUrl}/api/v1/jobs/${job.job_id}`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await response.json()) as { status?: string }
    return body.status === 'done' || body.status === 'failed' ? body : undefined
  })
  t.equal(done.status, 'done', `a job requested after the outage runs to done (${JSON.stringify(done).slice(0, 300)})`)

  const logged = logLines(served, logFrom)
  // The embedded server's failed restarts are logged each (a few, spaced by the supervisor's backoff).
  const restarts = logged.filter((line) => line.msg.startsWith('restarting the embedded PostgreSQL failed'))
  const lines = logged.filter((line) => line.level >= 40 && !restarts.includes(line))
  t.equal(logged.filter((line) => line.msg === 'the database is available again').length, 1, 'the recovery is logged once')
  t.equal(logged.filter((line) => line.msg.startsWith('the database is unavailable')).length, 1, 'the outage is logged once')
  t.ok(
    lines.length <= 3,
    `nothing else is logged per request or retry: ${lines.length} lines at warn or above\n${lines.map((l) => l.msg).join('\n')}`,
  )
  t.ok(restarts.length <= 5, `failed restarts are spaced by backoff (${restarts.length})`)
  t.notOk(
    lines.some((l) => l.msg === 'request failed'),
    'no "request failed" line per request',
  )

  const started = Date.now()
  const exit = await served.stop('SIGTERM', 8000)
  t.equal(exit.code, 0, `SIGTERM stops it cleanly (code ${exit.code}, signal ${exit.signal})`)
  t.ok(Date.now() - started < 5000, `and promptly (${Date.now() - started} ms)`)
}

export async function organization(served: Served, platformKey: string): Promise<number> {
  return call<number>(served.baseUrl, 'create_organization', { name: 'Outage Agency' }, platformKey)
}
