import { sql } from 'kysely'
import type { InsightReads, MetaReads } from '../../../commands/search/insights/reads.js'
import type {
  AeoQuestionMonth,
  GscPeriod,
  GscQueryPage,
  InsightInputs,
  InsightPageState,
  RankObservation,
} from '../../../domain/search/insights/inputs.js'
import { addDays, captureOfDays, gscPeriodOf } from '../../../domain/search/insights/gsc-period.js'
import { RANK_LOOKBACK_DAYS, RANK_ROWS_PER_SERIES } from '../../../domain/search/insights/rules/series.js'
import { latestSnapshot } from '../../pages/queries.js'
import type { ReadDb } from '../../tables.js'

/**
 * The read models the insight rules and meta optimizations read (the ports of commands/search/insights/reads.ts):
 * the client's keywords, pages, associations (keyword_pages), latest rank rows (keyword_ranks), Search
 * Console totals of the latest 28 days (gsc_captures, gsc_capture_rows) and the latest month of AI
 * Visibility answers (aeo_summary_counts).
 */

async function rankRows(read: ReadDb, clientId: number): Promise<RankObservation[]> {
  const latest = await read
    .selectFrom('keyword_ranks')
    .select((eb) => eb.fn.max('rank_date').as('day'))
    .where('client_id', '=', clientId)
    .executeTakeFirst()
  if (!latest?.day) return []
  const recent = read
    .selectFrom('keyword_ranks')
    .selectAll()
    .select(sql<number>`row_number() over (partition by keyword_id, location_key, device order by rank_date desc)`.as('n'))
    .where('client_id', '=', clientId)
    .where('rank_date', '>=', addDays(latest.day, -RANK_LOOKBACK_DAYS))
    .as('r')
  const rows = await read.selectFrom(recent).selectAll().where('n', '<=', RANK_ROWS_PER_SERIES).execute()
  return rows.map((r) => ({
    keyword_id: r.keyword_id,
    location_id: r.location_id,
    device: r.device,
    date: r.rank_date,
    position: r.position,
    url: r.url,
    page_id: r.page_id,
    serp_features: {
      local_pack: r.local_pack,
      local_pack_includes_client: r.local_pack_includes_client,
      featured_snippet: r.featured_snippet,
      featured_snippet_is_client: r.featured_snippet_is_client,
      people_also_ask: r.people_also_ask,
      ai_overview: r.ai_overview,
      ai_overview_cites_client: r.ai_overview_cites_client,
    },
  }))
}

/** Query × page totals over the client's Search Console period (domain/search/insights/gsc-period.ts). */
async function gscTotals(read: ReadDb, clientId: number): Promise<{ period: GscPeriod | null; rows: GscQueryPage[] }> {
  const completed = await read
    .selectFrom('gsc_captures')
    .select(['id', sql<string>`start_date::text`.as('start_date'), sql<string>`end_date::text`.as('end_date')])
    .where('client_id', '=', clientId)
    .where('status', '=', 'completed')
    .execute()
  const period = gscPeriodOf(completed)
  if (!period) return { period: null, rows: [] }
  const days = captureOfDays(period, completed)
  if (days.length === 0) return { period, rows: [] }
  const rows = await read
    .selectFrom('gsc_capture_rows')
    .select([
      'query',
      'page',
      sql<number>`sum(clicks)::int`.as('clicks'),
      sql<number>`sum(impressions)::int`.as('impressions'),
      sql<number>`case when sum(impressions) > 0 then sum(position * impressions) / sum(impressions) else avg(position) end`.as('position'),
    ])
    .where('client_id', '=', clientId)
    .where((eb) =>
      eb.or(
        [...new Set(days.map((d) => d.captureId))].map((captureId) =>
          eb.and([
            eb('capture_id', '=', captureId),
            eb('date', '=', sql<string>`any(${days.filter((d) => d.captureId === captureId).map((d) => d.day)}::date[])`),
          ]),
        ),
      ),
    )
    .groupBy(['query', 'page'])
    .execute()
  return {
    period,
    rows: rows.map((r) => ({
      query: r.query,
      page: r.page,
      clicks: Number(r.clicks),
      impressions: Number(r.impressions),
      position: Number(r.position),
    })),
  }
}

/** Each active AI Visibility question's answers in the client's latest month with any, over every engine. */
async function aeoMonth(read: ReadDb, clientId: number): Promise<AeoQuestionMonth[]> {
  const latest = await read
    .selectFrom('aeo_summary_counts')
    .select((eb) => eb.fn.max('month').as('month'))
    .where('client_id', '=', clientId)
    .executeTakeFirst()
  if (!latest?.month) return []
  const rows = await read
    .selectFrom('aeo_summary_counts as k')
    .innerJoin('aeo_queries as q', 'q.id', 'k.query_id')
    .select([
      'k.query_id',
      'q.prompt',
      'q.service',
      'q.location',
      sql<string[]>`array_agg(distinct k.engine order by k.engine)`.as('engines'),
      sql<number>`sum(k.captures)::int`.as('captures'),
      sql<number>`sum(k.present)::int`.as('present'),
    ])
    .where('k.client_id', '=', clientId)
    .where('k.month', '=', latest.month)
    .where('q.active', '=', true)
    .groupBy(['k.query_id', 'q.prompt', 'q.service', 'q.location'])
    .execute()
  return rows.map((r) => ({
    query_id: r.query_id,
    prompt: r.prompt,
    service: r.service,
    location: r.location,
    month: latest.month!,
    engines: r.engines,
    captures: Number(r.captures),
    present: Number(r.present),
  }))
}

/** Each active page's newest crawled or rendered state (page_snapshots.state; add_snapshot's have none). */
async function pageStates(read: ReadDb, clientId: number): Promise<InsightPageState[]> {
  const rows = await read
    .selectFrom('page_snapshots as s')
    .innerJoin('pages as p', 'p.id', 's.page_id')
    .distinctOn('s.page_id')
    .select(['s.page_id', 'p.url', 's.state', 's.created_at'])
    .where('s.client_id', '=', clientId)
    .where('p.active', '=', true)
    .where('s.state', 'is not', null)
    .orderBy('s.page_id')
    .orderBy('s.id', 'desc')
    .execute()
  return rows.map((r) => ({
    page_id: r.page_id,
    url: r.url,
    status: r.state!.status,
    noindex: r.state!.noindex,
    title: r.state!.title,
    crawled_at: new Date(r.created_at).toISOString(),
  }))
}

export function insightReads(read: ReadDb): InsightReads {
  return {
    async inputsFor(clientId): Promise<InsightInputs> {
      const [keywords, pages, associations, locations, ranks, gsc, aeo, states] = await Promise.all([
        read
          .selectFrom('keywords')
          .select(['id', 'keyword', 'service', 'location'])
          .where('client_id', '=', clientId)
          .where('status', '=', 'active')
          .orderBy('id')
          .execute(),
        read
          .selectFrom('pages')
          .select(['id', 'url', 'title'])
          .where('client_id', '=', clientId)
          .where('active', '=', true)
          .orderBy('id')
          .execute(),
        read.selectFrom('keyword_pages').select(['keyword_id', 'page_id']).where('client_id', '=', clientId).execute(),
        read.selectFrom('client_locations').select(['id', 'name']).where('client_id', '=', clientId).execute(),
        rankRows(read, clientId),
        gscTotals(read, clientId),
        aeoMonth(read, clientId),
        pageStates(read, clientId),
      ])
      return {
        keywords,
        pages,
        associations,
        ranks,
        locations: new Map(locations.map((l) => [l.id, l.name])),
        gsc: gsc.rows,
        gscPeriod: gsc.period,
        aeo,
        pageStates: states,
      }
    },
  }
}

export function metaReads(read: ReadDb): MetaReads {
  return {
    async page(clientId, pageId) {
      const page = await read
        .selectFrom('pages')
        .select(['id', 'url', 'title', 'active'])
        .where('id', '=', pageId)
        .where('client_id', '=', clientId)
        .executeTakeFirst()
      if (!page) return undefined
      const snapshot = await latestSnapshot(read, page.id)
      return { ...page, snapshot: snapshot ? { id: snapshot.id, title: snapshot.title, content: snapshot.content } : null }
    },
    async insight(clientId, insightId) {
      const row = await read
        .selectFrom('seo_insights')
        .select(['id', 'client_id', 'insight_type', 'page_id', 'evidence'])
        .where('id', '=', insightId)
        .where('client_id', '=', clientId)
        .executeTakeFirst()
      return row
        ? { id: row.id, clientId: row.client_id, insightType: row.insight_type, pageId: row.page_id, evidence: row.evidence }
        : undefined
    },
  }
}
