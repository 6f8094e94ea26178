import { sql } from 'kysely'
import type { ProviderFailure } from '../../../domain/search/metrics/events.js'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

const KEY = ['org_id', 'keyword_key', 'location_code'] as const

/** The fetch row's error columns from a recorded failure (all null without one). */
function errorColumns(error: ProviderFailure | null) {
  return {
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
    error_http_status: error?.http_status ?? null,
    error_provider_status: error?.provider_status ?? null,
  }
}

/**
 * keyword_metrics and keyword_metrics_fetches. A metrics row holds what the last event about it said (rows
 * recorded: the numbers, fetched now, no error; a failed fetch: the error, numbers kept; a refresh request:
 * its time), each write setting absolute values, so applying an event twice leaves the same row. A fetch row
 * is inserted once, by the event that ends the fetch.
 */
export const keywordMetricsProjector: Projector = eachEvent({
  name: 'keyword_metrics',
  handlers: {
    async KeywordMetricsRecorded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const orgId = orgIdOf(event)
      await db
        .insertInto('keyword_metrics')
        .values(
          d.rows.map((r) => ({
            org_id: orgId,
            keyword_key: r.keyword_key,
            location_code: d.location_code,
            keyword: r.keyword,
            location_name: d.location_name,
            language_code: d.language_code,
            search_volume: r.search_volume,
            cpc: r.cpc,
            competition: r.competition,
            competition_index: r.competition_index,
            low_top_of_page_bid: r.low_top_of_page_bid,
            high_top_of_page_bid: r.high_top_of_page_bid,
            difficulty: r.difficulty,
            monthly_searches: JSON.stringify(r.monthly_searches),
            spell: r.spell,
            source: d.source,
            fetch_id: d.fetch_id,
            fetched_at: at,
            refresh_requested_at: null,
            last_error_code: null,
            last_error_message: null,
            last_error_at: null,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(KEY).doUpdateSet((eb) => ({
            keyword: eb.ref('excluded.keyword'),
            location_name: eb.ref('excluded.location_name'),
            language_code: eb.ref('excluded.language_code'),
            search_volume: eb.ref('excluded.search_volume'),
            cpc: eb.ref('excluded.cpc'),
            competition: eb.ref('excluded.competition'),
            competition_index: eb.ref('excluded.competition_index'),
            low_top_of_page_bid: eb.ref('excluded.low_top_of_page_bid'),
            high_top_of_page_bid: eb.ref('excluded.high_top_of_page_bid'),
            difficulty: eb.ref('excluded.difficulty'),
            monthly_searches: eb.ref('excluded.monthly_searches'),
            spell: eb.ref('excluded.spell'),
            source: eb.ref('excluded.source'),
            fetch_id: eb.ref('excluded.fetch_id'),
            fetched_at: eb.ref('excluded.fetched_at'),
            // The request stays: a later fetch time is what answers it (freshness.ts compares the two).
            last_error_code: null,
            last_error_message: null,
            last_error_at: null,
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute()
    },
    async KeywordMetricsFetchCompleted(db, event) {
      const d = event.data
      await db
        .insertInto('keyword_metrics_fetches')
        .values({
          id: d.fetch_id,
          org_id: orgIdOf(event),
          source: d.source,
          status: 'succeeded',
          location_code: d.location_code,
          location_name: d.location_name,
          language_code: d.language_code,
          keywords: d.keywords,
          with_data: d.with_data,
          difficulty: d.difficulty,
          difficulty_error_code: d.difficulty_error?.code ?? null,
          difficulty_error_message: d.difficulty_error?.message ?? null,
          attempts: d.attempts,
          provider_calls: d.provider_calls,
          cost_usd: d.cost_usd,
          ...errorColumns(d.last_error),
          recorded_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async KeywordMetricsFetchFailed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const orgId = orgIdOf(event)
      await db
        .insertInto('keyword_metrics_fetches')
        .values({
          id: d.fetch_id,
          org_id: orgId,
          source: 'dataforseo',
          status: 'failed',
          location_code: d.location_code,
          location_name: d.location_name,
          language_code: d.language_code,
          keywords: d.keywords.length,
          with_data: 0,
          difficulty: null,
          difficulty_error_code: null,
          difficulty_error_message: null,
          attempts: d.attempts,
          provider_calls: d.provider_calls,
          cost_usd: d.cost_usd,
          ...errorColumns(d.error),
          recorded_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      // The keywords keep whatever numbers they had; the failure shows beside them until a fetch succeeds.
      await db
        .insertInto('keyword_metrics')
        .values(
          d.keywords.map((k) => ({
            org_id: orgId,
            keyword_key: k.keyword_key,
            location_code: d.location_code,
            keyword: k.keyword,
            location_name: d.location_name,
            language_code: d.language_code,
            monthly_searches: '[]',
            last_error_code: d.error.code,
            last_error_message: d.error.message,
            last_error_at: at,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(KEY)
            .doUpdateSet({ last_error_code: d.error.code, last_error_message: d.error.message, last_error_at: at, updated_at: at }),
        )
        .execute()
    },
    async KeywordMetricsRefreshRequested(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('keyword_metrics')
        .set({ refresh_requested_at: at, updated_at: at })
        .where('org_id', '=', orgIdOf(event))
        .where('location_code', '=', d.location_code)
        .where(sql<boolean>`keyword_key = any(${sql.val(d.keyword_keys)}::text[])`)
        .execute()
    },
  },
})

/** The metrics projectors. */
export const keywordMetricsProjectors: readonly Projector[] = [keywordMetricsProjector]
