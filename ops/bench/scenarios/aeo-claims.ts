import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { mintPlatformKey } from '../../../commands/platform.js'
import { openSystem } from '../../system.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { inParallel, rpcHeaders } from './support/service.js'

/** Concurrent agents, as many as the target names. */
const AGENTS = 20
/** Runs each claim asks for: an agent device or the server agent takes a small batch at a time. */
const LIMIT = 10
/** The last day of a month: the whole month's samples are due, so the queue's size is exact. */
const LAST_DAY = '2026-11-30T12:00:00.000Z'

/** Clients × questions × engines × samples: 10 × 50 × 2 × 10 = 10,000 runs (400 with --quick). */
const shape = (context: BenchContext) => ({
  clients: 10,
  questions: context.quick ? 2 : 50,
  engines: ['claude', 'chatgpt-web'],
  samples: 10,
})

/**
 * `claim_aeo_runs` over HTTP: 20 agents (half an organization's devices, half platform agents) claim 10 at a
 * time, concurrently, until the queue of 10,000 runs is empty. Every claim is a leased selection plus one
 * AeoRunClaimed append per run, and each answer waits for read-your-writes. Duplicates are counted from
 * the log (AeoRunClaimed events per run stream), not from the answers.
 */
const claimAeoRuns: Scenario = {
  name: 'claim_aeo_runs',
  description: `claim_aeo_runs over HTTP: ${AGENTS} concurrent agents, ${LIMIT} per claim, over 10,000 queued runs`,
  repeat: 1,
  async run(context) {
    const database = await context.createDatabase()
    // Rate limits still count every request (as deployed), but with a ceiling the 20 agents never reach.
    const system = await openSystem({
      databaseUrl: database.url,
      log: pino({ level: 'silent' }),
      clock: () => new Date(LAST_DAY),
      rateLimits: { defaultPerMinute: 1_000_000 },
    })
    try {
      system.runner.start()
      const app = await system.buildApp()
      await app.listen({ port: 0, host: '127.0.0.1' })
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
      const created = await mintPlatformKey(system.write, { name: 'bench platform key' })
      if (created.position) await system.watermark.waitFor(created.position, 10_000)
      const platformKey = created.key
      const call = async <T>(method: string, params: unknown, key: string = platformKey): Promise<T> => {
        const response = await fetch(`${origin}/api/v1/rpc/${method}`, {
          method: 'POST',
          headers: rpcHeaders(key),
          body: JSON.stringify(params),
        })
        const text = await response.text()
        if (response.status !== 200) throw new Error(`${method} answered ${response.status}: ${text}`)
        return (JSON.parse(text) as { result: T }).result
      }
      const orgId = await call<number>('create_organization', { name: 'Bench Agency' })
      const orgKey = (await call<{ key: string }>('create_api_key', { name: 'bench org key', org_id: orgId, scopes: 'read,write' })).key

      const s = shape(context)
      const clientIds = await inParallel(s.clients, 4, (i) =>
        call<number>(
          'add_client',
          { client: { name: `Bench Client ${i + 1}`, website_url: `https://client-${i + 1}.example.com` } },
          orgKey,
        ),
      )
      await inParallel(s.clients * s.questions, 8, (n) =>
        call(
          'add_aeo_query',
          {
            client_id: clientIds[n % s.clients],
            prompt: `who is the best plumber for job number ${Math.floor(n / s.clients) + 1} near me`,
          },
          orgKey,
        ),
      )
      for (const clientId of clientIds) {
        await call('set_aeo_cadence', { client_id: clientId, samples_per_month: s.samples, engines: s.engines }, orgKey)
      }
      const enqueueStart = performance.now()
      const { queued } = await call<{ queued: number }>('enqueue_due_aeo_runs', {}, orgKey)
      const enqueueSeconds = (performance.now() - enqueueStart) / 1000
      const expected = s.clients * s.questions * s.engines.length * s.samples
      if (queued !== expected) throw new Error(`enqueue queued ${queued} runs, expected ${expected}`)
      context.log(`claim_aeo_runs: ${queued} runs queued in ${enqueueSeconds.toFixed(1)} s (${Math.round(queued / enqueueSeconds)} runs/s)`)

      const capabilities = JSON.stringify({ engines: s.engines, geo: 'any', max_per_day: null })
      const seen = new Set<number>()
      let answered = 0
      let requests = 0
      const started = performance.now()
      await Promise.all(
        Array.from({ length: AGENTS }, async (_, i) => {
          const key = i % 2 === 0 ? orgKey : platformKey
          let empty = 0
          while (empty < 2) {
            requests++
            const runs = await call<{ id: number }[]>(
              'claim_aeo_runs',
              { agent_id: `bench-agent-${i}`, capabilities_json: capabilities, limit: LIMIT },
              key,
            )
            answered += runs.length
            for (const run of runs) seen.add(run.id)
            empty = runs.length === 0 ? empty + 1 : 0
          }
        }),
      )
      const seconds = (performance.now() - started) / 1000
      const { rows } = await database.pool.query<{ events: number; runs: number }>(
        `select count(*)::int as events, count(distinct stream_name)::int as runs from es_events where type = 'AeoRunClaimed'`,
      )
      const events = rows[0]!.events
      const claimedRuns = rows[0]!.runs
      context.log(
        `claim_aeo_runs: ${claimedRuns} of ${queued} runs claimed in ${seconds.toFixed(2)} s (${Math.round(claimedRuns / seconds)} claims/s) ` +
          `by ${requests} requests; ${events - claimedRuns} duplicate claims in the log, ${answered - seen.size} in the answers`,
      )
      await app.close()
      return [
        { metric: 'claims/s', value: claimedRuns / seconds, unit: 'claims/s', target: { op: '>=', value: 2000 }, better: 'higher' },
        { metric: 'duplicate claims (log)', value: events - claimedRuns, unit: 'claims', target: { op: '<=', value: 0 }, better: 'lower' },
        { metric: 'runs left unclaimed', value: queued - claimedRuns, unit: 'runs', target: { op: '<=', value: 0 }, better: 'lower' },
        { metric: 'enqueue', value: queued / enqueueSeconds, unit: 'runs/s', better: 'higher' },
      ] satisfies Figure[]
    } finally {
      await system.close().catch(() => {})
      await database.close().catch(() => {})
    }
  },
}

export const aeoClaimScenarios: readonly Scenario[] = [claimAeoRuns]
