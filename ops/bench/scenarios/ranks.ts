import { sql } from 'kysely'
import { loadClient } from '../../../commands/clients.js'
import { systemContext } from '../../../commands/command-handler.js'
import { addGeneratedKeywords } from '../../../commands/keywords.js'
import { recordKeywordRanks } from '../../../commands/search/ranks.js'
import type { Position } from '../../../commands/event-store/port.js'
import type { RankRow } from '../../../domain/search/ranks/rank-row.js'
import { LIVE_SCHEMA } from '../../../migrations/read-models/index.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { measureServer, measureWithCpu, startConstantAnswer } from './http.js'
import { openCpuWindow } from './support/cpu.js'
import { collector, sampleMemory } from './support/memory-sampler.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

/** A rank check's competitors: ten organic domains, as a full results page has them. */
const COMPETITORS = [
  'rotorooter.com',
  'yelp.com',
  'mrrooter.com',
  'angi.com',
  'homeadvisor.com',
  'thumbtack.com',
  'bbb.org',
  'austinplumbingpros.example',
  'capitaldrainservice.example',
  'lonestarplumbing.example',
]

const DAY_MS = 86_400_000
const dayOf = (start: string, n: number) => new Date(Date.parse(`${start}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

/** Clients, each with one location and `keywords` keywords (added as keyword_generation adds them), projected. */
async function seedKeywords(
  service: RunningService,
  clients: number,
  keywords: number,
): Promise<{ clientId: number; locationId: number; keywordIds: number[] }[]> {
  const ctx = systemContext('bench-rank-keywords')
  const seeded = await inParallel(clients, 4, async (i) => {
    const clientId = await service.call<number>(
      'add_client',
      { client: { name: `Rank Client ${i + 1}`, website_url: `https://rank-client-${i + 1}.example.com`, locations: ['Austin, TX'] } },
      service.orgKey,
    )
    // From the client's stream, not a read model that a busy projection runner may not have reached yet.
    const [location] = (await loadClient(service.system.store, clientId)).locations
    const added = await addGeneratedKeywords(service.system.write, ctx, {
      callerOrgId: service.orgId,
      clientId,
      candidates: Array.from({ length: keywords }, (_, k) => ({
        keyword: `drain cleaning job ${k + 1} austin`,
        source: 'generated' as const,
        service: 'Drain cleaning',
        location: 'Austin, TX',
      })),
    })
    return { clientId, locationId: location!.id, keywordIds: added.keywordIds, position: added.position }
  })
  const last = seeded.map((s) => s.position).filter((p): p is Position => p !== null)
  for (const position of last) await service.system.watermark.waitFor(position, 60_000)
  return seeded
}

/** The rows a daily check of one client writes: each keyword on desktop and mobile, positions drifting day by day. */
function checkRows(keywordIds: readonly number[], locationId: number, date: string, day: number, url: string): RankRow[] {
  return keywordIds.flatMap((keyword_id, k) =>
    (['desktop', 'mobile'] as const).map((device): RankRow => {
      const raw = ((keyword_id * 7919 + day * 104_729 + (device === 'mobile' ? 13 : 0)) % 120) + 1
      const position = raw > 100 ? null : raw
      return {
        keyword_id,
        location_id: locationId,
        device,
        date,
        position,
        url: position === null ? null : `${url}/services/drain-cleaning-${k % 20}`,
        page_id: null,
        competitors: COMPETITORS,
        serp_features: {
          local_pack: true,
          local_pack_includes_client: position !== null && position <= 3,
          featured_snippet: k % 4 === 0,
          featured_snippet_is_client: false,
          people_also_ask: true,
          ai_overview: k % 3 === 0,
          ai_overview_cites_client: k % 3 === 0 && position !== null && position <= 5,
        },
        source: 'dataforseo',
      }
    }),
  )
}

/** CPU ms per 1,000 rows, when it could be read: what tells less work from a quieter machine. */
function perThousand(metric: string, ms: number | null, rows: number): Figure[] {
  return ms === null ? [] : [{ metric, value: (1000 * ms) / rows, unit: 'ms', better: 'lower' }]
}

/** 10 clients × 500 keywords × 2 devices × 100 days = 1,000,000 rows (2 × 50 × 2 × 25 = 5,000 with --quick). */
const ingestShape = (context: BenchContext) =>
  context.quick ? { clients: 2, keywords: 50, days: 25 } : { clients: 10, keywords: 500, days: 100 }
/** Checks recording at once: a few clients' checks finish together. */
const WRITERS = 4
/** The live heap may grow by at most this much from a quarter of the rows to all of them: nothing kept per row. */
const LIVE_HEAP_GROWTH_BOUND_MIB = 32

/**
 * `rank-ingest`: rank checks' days recorded through recordKeywordRanks (the command rank checks and
 * record_keyword_ranks share: facts checked, the day's stream folded, events of 50 rows appended) by four
 * writers at once, and projected into keyword_ranks by the service's own projection runner, running beside
 * them as it does in production. Timed from the first command to the read model showing the last row. Memory:
 * the live heap (after a full collection) when a quarter of the days are recorded and when all are, and RSS
 * sampled throughout.
 */
const rankIngest: Scenario = {
  name: 'rank-ingest',
  description:
    'record and project 1,000,000 rank rows (10 clients × 500 keywords × 2 devices × 100 days) through the command and the projector',
  repeat: 1,
  async run(context) {
    const service = await startService(context)
    const gc = collector()
    try {
      const shape = ingestShape(context)
      const clients = await seedKeywords(service, shape.clients, shape.keywords)
      const total = shape.clients * shape.keywords * 2 * shape.days
      const work = Array.from({ length: shape.days * shape.clients }, (_, n) => ({
        day: Math.floor(n / shape.clients),
        client: clients[n % shape.clients]!,
      }))
      const ctx = systemContext('bench-rank-check')
      const heapAt: number[] = []
      let recorded = 0
      let last: Position | null = null
      let done = 0
      const quarter = Math.ceil(work.length / 4)
      gc()
      const rss = sampleMemory({ everyMs: 250 })
      const cpu = await openCpuWindow(service.database.url)
      const started = performance.now()
      await inParallel(work.length, WRITERS, async (n) => {
        const { day, client } = work[n]!
        const date = dayOf('2025-01-01', day)
        const rows = checkRows(client.keywordIds, client.locationId, date, day, `https://rank-client-${client.clientId}.example.com`)
        const outcome = await recordKeywordRanks(service.system.write, ctx, {
          clientId: client.clientId,
          rows,
          checkId: n + 1,
          overwrite: false,
        })
        recorded += outcome.recorded
        if (outcome.position && (last === null || service.system.store.comparePositions(outcome.position, last) > 0))
          last = outcome.position
        done++
        if (done === quarter) {
          gc()
          heapAt.push(process.memoryUsage().heapUsed)
        }
      })
      const appended = performance.now()
      if (last !== null && !(await service.system.watermark.waitFor(last, 600_000)))
        throw new Error('rank-ingest: projection did not catch up in 10 min')
      const seconds = (performance.now() - started) / 1000
      const used = await cpu.stop()
      const memory = rss.stop()
      gc()
      heapAt.push(process.memoryUsage().heapUsed)
      const { rows } = await service.database.pool.query<{ n: number }>(`select count(*)::int as n from ${LIVE_SCHEMA}.keyword_ranks`)
      const { rows: events } = await service.database.pool.query<{ n: number }>(
        `select count(*)::int as n from es_events where type = 'KeywordRanksRecorded'`,
      )
      const mib = (bytes: number) => bytes / 2 ** 20
      const growth = mib(heapAt[1]! - heapAt[0]!)
      const lag = seconds - (appended - started) / 1000
      context.log(
        `rank-ingest: ${recorded} rows recorded in ${events[0]!.n} events, ${rows[0]!.n} in keyword_ranks, in ${seconds.toFixed(1)} s ` +
          `(${Math.round(total / seconds)} rows/s; appends done after ${((appended - started) / 1000).toFixed(1)} s, projection ${lag.toFixed(1)} s behind); ` +
          `live heap ${mib(heapAt[0]!).toFixed(0)} MiB at N/4, ${mib(heapAt[1]!).toFixed(0)} MiB at N; peak RSS ${memory.peakRssMiB.toFixed(0)} MiB; ` +
          `CPU ${((used.nodeMs ?? 0) / 1000).toFixed(1)} s service main thread, ${((used.postgresMs ?? 0) / 1000).toFixed(1)} s PostgreSQL`,
      )
      return [
        { metric: 'rows/s', value: total / seconds, unit: 'rows/s', target: { op: '>=', value: 20_000 }, better: 'higher' },
        { metric: 'seconds', value: seconds, unit: 's', better: 'lower' },
        { metric: 'command rows/s', value: total / ((appended - started) / 1000), unit: 'rows/s', better: 'higher' },
        { metric: 'projection behind at the last append', value: lag, unit: 's', better: 'lower' },
        {
          metric: 'rows lost or duplicated',
          value: Math.abs(rows[0]!.n - total) + Math.abs(recorded - total),
          unit: 'rows',
          target: { op: '<=', value: 0 },
          better: 'lower',
        },
        {
          metric: 'live heap growth N/4 to N',
          value: growth,
          unit: 'MiB',
          target: { op: '<=', value: LIVE_HEAP_GROWTH_BOUND_MIB },
          better: 'lower',
        },
        { metric: 'peak RSS', value: memory.peakRssMiB, unit: 'MiB', better: 'lower' },
        ...perThousand('service main-thread CPU per 1,000 rows', used.nodeMs, total),
        ...perThousand('PostgreSQL CPU per 1,000 rows', used.postgresMs, total),
      ] satisfies Figure[]
    } finally {
      await service.close()
    }
  },
}

/** 10 clients × 1,000 keywords, two years of daily desktop rows: 7,300,000 rows (100 keywords × 60 days with --quick). */
const historyShape = (context: BenchContext) =>
  context.quick ? { clients: 2, keywords: 50, days: 60 } : { clients: 10, keywords: 1000, days: 730 }

/**
 * Two years of daily rows for every keyword, written straight into keyword_ranks one day at a time (the order a
 * tracker fills it, so a keyword's rows lie scattered over the table as they would), with the fields a check
 * writes. Seeding 7.3 million rows through events would take the ingest's own minutes and measure the write
 * path; the read is what is measured here, and it reads the table and nothing else.
 */
async function seedHistory(service: RunningService, days: number): Promise<void> {
  const t = (name: string) => sql.id(LIVE_SCHEMA, name)
  const competitors = JSON.stringify(COMPETITORS)
  for (let day = 0; day < days; day++) {
    const date = dayOf('2024-03-01', day)
    await sql`
      insert into ${t('keyword_ranks')} (keyword_id, location_key, device, rank_date, location_id, client_id, org_id, position, url, page_id,
        competitors, local_pack, local_pack_includes_client, featured_snippet, featured_snippet_is_client, people_also_ask, ai_overview,
        ai_overview_cites_client, source, check_id, revision, recorded_at)
      select k.id, l.id, 'desktop', ${date}, l.id, k.client_id, k.org_id, p.position,
        case when p.position is null then null else 'https://rank-client-' || k.client_id || '.example.com/services/drain-cleaning' end,
        null, ${competitors}::jsonb, true, coalesce(p.position <= 3, false), k.id % 4 = 0, false, true, k.id % 3 = 0,
        k.id % 3 = 0 and coalesce(p.position <= 5, false), 'dataforseo', ${day + 1}, 0, ${`${date}T06:00:00Z`}::timestamptz
      from ${t('keywords')} k
      join ${t('client_locations')} l on l.client_id = k.client_id
      cross join lateral (select nullif(((k.id * 7919 + ${day} * 104729) % 120) + 1, 0) as raw) r
      cross join lateral (select case when r.raw > 100 then null else r.raw::smallint end as position) p`.execute(service.database.db)
  }
  // What autovacuum does to a table that only grows (its insert threshold): statistics, and the visibility map
  // that lets a chart be read from the index alone.
  await sql`vacuum (analyze) ${t('keyword_ranks')}`.execute(service.database.db)
}

/**
 * `rank-history-read`: get_rank_history (default limit: 90 points of the keyword's primary series) over HTTP at
 * 64 connections, round-robin over 2,000 of the keywords, each with two years of daily rows, against fastify
 * answering one such answer as a constant in the same run (the floor for a body of that size).
 */
const rankHistoryRead: Scenario = {
  name: 'rank-history-read',
  description: 'get_rank_history over HTTP, 64 connections, 10,000 keywords with two years of daily rows each (seeded in SQL)',
  async run(context) {
    return (await this.runRepeated!(context, 1))[0]!
  },
  async runRepeated(context, repeat) {
    const service = await startService(context)
    try {
      const shape = historyShape(context)
      const started = performance.now()
      const clients = await seedKeywords(service, shape.clients, shape.keywords)
      await seedHistory(service, shape.days)
      const keywordIds = clients.flatMap((c) => c.keywordIds)
      const { rows } = await service.database.pool.query<{ n: number }>(`select count(*)::int as n from ${LIVE_SCHEMA}.keyword_ranks`)
      context.log(
        `rank-history-read: ${keywordIds.length} keywords × ${shape.days} days = ${rows[0]!.n} rows seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      )
      const sample = Array.from({ length: Math.min(2000, keywordIds.length) }, (_, i) => keywordIds[(i * 7919) % keywordIds.length]!)
      const bodies = sample.map((id) => JSON.stringify({ keyword_id: id }))
      const one = await service.call<{ points: unknown[] }>('get_rank_history', { keyword_id: sample[0] }, service.orgKey)
      context.log(`rank-history-read: one answer has ${one.points.length} points, ${JSON.stringify({ result: one }).length} bytes of JSON`)
      const load = { connections: 64, seconds: context.quick ? 1 : 10, headers: rpcHeaders(service.orgKey), bodies }
      const runs: Figure[][] = []
      for (let i = 1; i <= repeat; i++) {
        const { result, cpu } = await measureWithCpu(
          context,
          'rank-history-read',
          { ...load, url: `${service.origin}/api/v1/rpc/get_rank_history` },
          service.database.url,
        )
        // The floor for an answer of this size: fastify answering that one answer as a constant, loaded the same way.
        const constant = await measureServer(context, 'fastify answering a constant history', await startConstantAnswer(one), load)
        runs.push([
          { metric: 'requests/s', value: result.requestsPerSecond, unit: 'req/s', better: 'higher' },
          { metric: 'p50', value: result.p50, unit: 'ms', better: 'lower' },
          { metric: 'p99', value: result.p99, unit: 'ms', target: { op: '<=', value: 20 }, better: 'lower' },
          {
            metric: 'non-2xx or failed',
            value: result.non2xx + result.errors,
            unit: 'responses',
            target: { op: '<=', value: 0 },
            better: 'lower',
          },
          { metric: 'fastify constant history requests/s', value: constant.requestsPerSecond, unit: 'req/s', better: 'higher' },
          { metric: 'fastify constant history p99', value: constant.p99, unit: 'ms', better: 'lower' },
          ...cpu,
        ])
      }
      return runs
    } finally {
      await service.close()
    }
  },
}

/** rank-ingest and rank-history-read (issue 24). */
export const rankScenarios: Scenario[] = [rankIngest, rankHistoryRead]
