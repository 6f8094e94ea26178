import { sql } from 'kysely'
import { LIVE_SCHEMA } from '../../../migrations/read-models/index.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { collector, sampleMemory } from './support/memory-sampler.js'
import { rpcHeaders, startService, type RunningService } from './support/service.js'

/** The two organization sizes (rows across its tables): memory must be the same at both. */
const sizes = (context: BenchContext) => (context.quick ? [1_000, 4_000] : [50_000, 200_000])

/**
 * The organization's rows, written straight into the read models with generate_series: half keywords of
 * one client (client-scoped, text columns), half org_activity rows (org-scoped). Going through the API
 * would take minutes per 100,000 rows and measure the write path, not the export; the export reads the
 * read models and nothing else, so rows put there are what it sees.
 */
async function seedRows(service: RunningService, clientId: number, rows: number): Promise<void> {
  const db = service.database.db
  const half = Math.floor(rows / 2)
  const t = (name: string) => sql.id(LIVE_SCHEMA, name)
  await sql`
    insert into ${t('keywords')} (id, client_id, org_id, keyword, keyword_key, source, service, location, status, created_at, updated_at)
    select 10000000 + g, ${clientId}, ${service.orgId}, 'emergency plumber near ' || g || ', "austin" tx', 'emergency plumber near ' || g,
           'keyword_generation', 'Emergency Plumber', 'Austin, TX', 'active', now(), now()
    from generate_series(1, ${half}) g`.execute(db)
  await sql`
    insert into ${t('org_activity')} (event_id, org_id, stream, event_type, client_id, actor_kind, actor_id, occurred_at, stream_revision, position)
    select gen_random_uuid(), ${service.orgId}, 'keyword-' || g, 'KeywordAdded', ${clientId}, 'api_key', '1', now(), g, lpad(g::text, 20, '0')
    from generate_series(1, ${rows - half}) g`.execute(db)
}

interface Measured {
  readonly seconds: number
  readonly peakHeapMb: number
  readonly peakRssMb: number
  readonly size: number
  readonly rows: number
}

/**
 * One export of an organization of `rows` rows. `liveHeap`: each 250 ms sample forces a full collection
 * first, so the heap figure is what the process actually holds (the live set), not garbage the collector
 * has not got round to; that slows the export, so the timed run samples without it (its heap figure is
 * then mostly uncollected garbage, and RSS is the one to read).
 */
async function exportOnce(context: BenchContext, rows: number, gc: () => void, liveHeap: boolean): Promise<Measured> {
  const service = await startService(context)
  try {
    const clientId = await service.call<number>(
      'add_client',
      { client: { name: 'Summit Plumbing', website_url: 'https://summit.example.com' } },
      service.orgKey,
    )
    await seedRows(service, clientId, rows)
    service.system.startProcessors()
    // A full collection before the baseline, so the peak is the export's and not garbage left from seeding.
    gc()
    const memory = sampleMemory(liveHeap ? { collect: gc } : {})
    const started = performance.now()
    const accepted = await fetch(`${service.origin}/api/v1/jobs`, {
      method: 'POST',
      headers: rpcHeaders(service.orgKey),
      body: JSON.stringify({ kind: 'export_org' }),
    })
    if (accepted.status !== 202) throw new Error(`export_org answered ${accepted.status}: ${await accepted.text()}`)
    const { job_id } = (await accepted.json()) as { job_id: number }
    let job: any
    for (;;) {
      job = await (await fetch(`${service.origin}/api/v1/jobs/${job_id}`, { headers: rpcHeaders(service.orgKey) })).json()
      if (job.status !== 'queued' && job.status !== 'running') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const seconds = (performance.now() - started) / 1000
    const peaks = memory.stop()
    if (job.status !== 'done') throw new Error(`the export ended ${job.status}: ${job.error}`)
    const measured: Measured = {
      seconds,
      peakHeapMb: peaks.heapGrowthMiB,
      peakRssMb: peaks.rssGrowthMiB,
      size: job.result.size,
      rows: job.result.rows,
    }
    context.log(
      `export_org${liveHeap ? ' (live-heap sampling)' : ''}: ${measured.rows.toLocaleString('en-US')} rows → ${(measured.size / 2 ** 20).toFixed(1)} MiB zip in ${seconds.toFixed(2)} s ` +
        `(${Math.round(measured.rows / seconds).toLocaleString('en-US')} rows/s); peak heap +${measured.peakHeapMb.toFixed(1)} MiB, peak RSS +${measured.peakRssMb.toFixed(1)} MiB over the baseline`,
    )
    return measured
  } finally {
    await service.close().catch(() => {})
    await service.database.close().catch(() => {})
  }
}

/**
 * export_org: an organization of 50,000 and of 200,000 rows exported through POST /api/v1/jobs (job runner,
 * zip streamed into the PostgreSQL blob store), timed from the request to the job's done. Memory is
 * sampled every 10 ms in the service process (heap used and RSS, above a baseline taken after a full
 * collection): the two sizes must show the same peak, since the export holds one page of rows at a time.
 */
const exportOrg: Scenario = {
  name: 'export_org',
  description: 'organization export zip (JSON + CSV per table, manifest) at two sizes: seconds and peak memory',
  repeat: 1,
  async run(context) {
    const gc = collector()
    const [small, large] = sizes(context) as [number, number]
    const timedSmall = await exportOnce(context, small, gc, false)
    const timedLarge = await exportOnce(context, large, gc, false)
    const liveSmall = await exportOnce(context, small, gc, true)
    const liveLarge = await exportOnce(context, large, gc, true)
    const label = (n: number) => `${n.toLocaleString('en-US')} rows`
    return [
      { metric: `seconds (${label(small)})`, value: timedSmall.seconds, unit: 's', better: 'lower' },
      { metric: `seconds (${label(large)})`, value: timedLarge.seconds, unit: 's', better: 'lower' },
      { metric: `rows/s (${label(large)})`, value: timedLarge.rows / timedLarge.seconds, unit: 'rows/s', better: 'higher' },
      { metric: `zip size (${label(large)})`, value: timedLarge.size / 2 ** 20, unit: 'MiB', better: 'lower' },
      { metric: `peak RSS growth (${label(small)})`, value: timedSmall.peakRssMb, unit: 'MiB', better: 'lower' },
      { metric: `peak RSS growth (${label(large)})`, value: timedLarge.peakRssMb, unit: 'MiB', better: 'lower' },
      { metric: `peak RSS growth, collected (${label(small)})`, value: liveSmall.peakRssMb, unit: 'MiB', better: 'lower' },
      { metric: `peak RSS growth, collected (${label(large)})`, value: liveLarge.peakRssMb, unit: 'MiB', better: 'lower' },
      { metric: `peak live heap growth (${label(small)})`, value: liveSmall.peakHeapMb, unit: 'MiB', better: 'lower' },
      { metric: `peak live heap growth (${label(large)})`, value: liveLarge.peakHeapMb, unit: 'MiB', better: 'lower' },
      // Flatness: 4× the rows; the large export's peak live heap over the small one's (1 = flat, ~4 = linear).
      {
        metric: 'peak live heap, large ÷ small',
        value: liveLarge.peakHeapMb / Math.max(liveSmall.peakHeapMb, 1),
        unit: '×',
        target: { op: '<=', value: 1.5 },
        better: 'lower',
      },
    ] satisfies Figure[]
  },
}

export const exportScenarios: readonly Scenario[] = [exportOrg]
