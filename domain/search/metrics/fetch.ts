import type { z } from 'zod'
import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import {
  type DifficultyOutcome,
  type FetchEvent,
  type KeywordMetricsRow,
  MAX_KEYWORDS_PER_FETCH,
  type MetricsLocation,
  type MetricsSource,
  type ProviderFailure,
  ROWS_PER_EVENT,
} from './events.js'
import type { SentKeyword } from './results.js'

/**
 * One fetch of keyword metrics (a provider batch of at most 1000 keywords in one market, or one
 * record_keyword_metrics call): its own stream, `keyword_metrics_fetch-<fetch_id>`. Its outcome, the rows or
 * the failure, is recorded once: the invariant is "a fetch ends once", so a write retried after a lost
 * answer records nothing twice, and a fetch that failed cannot later claim rows.
 */
export const fetchStream = (fetchId: string) => `keyword_metrics_fetch-${fetchId}`

export interface FetchState {
  readonly outcome: 'none' | 'succeeded' | 'failed'
}

/** How the fetch went, beside its rows. */
export interface FetchSummary {
  readonly difficulty: z.infer<typeof DifficultyOutcome>
  readonly difficulty_error: ProviderFailure | null
  readonly attempts: number
  readonly provider_calls: number
  readonly cost_usd: number | null
  readonly last_error: ProviderFailure | null
}

export type FetchCommand =
  | {
      type: 'RecordMetrics'
      fetch_id: string
      source: MetricsSource
      location: MetricsLocation
      rows: readonly KeywordMetricsRow[]
      summary: FetchSummary
    }
  | {
      type: 'RecordFailure'
      fetch_id: string
      location: MetricsLocation
      keywords: readonly SentKeyword[]
      error: ProviderFailure
      attempts: number
      provider_calls: number
      cost_usd: number | null
    }

/** One row per keyword: the last given wins (a caller may list a phrase twice, in two spellings). */
function uniqueRows(rows: readonly KeywordMetricsRow[]): KeywordMetricsRow[] {
  const byKey = new Map<string, KeywordMetricsRow>()
  for (const row of rows) {
    byKey.delete(row.keyword_key)
    byKey.set(row.keyword_key, row)
  }
  return [...byKey.values()]
}

function recordMetrics(command: Extract<FetchCommand, { type: 'RecordMetrics' }>): FetchEvent[] {
  const rows = uniqueRows(command.rows)
  if (rows.length === 0) throw new DomainError('validation_failed', 'A fetch records at least one keyword', `fetch ${command.fetch_id}`)
  if (rows.length > MAX_KEYWORDS_PER_FETCH) {
    throw new DomainError('validation_failed', `A fetch records at most ${MAX_KEYWORDS_PER_FETCH} keywords`, `${rows.length} given`)
  }
  const events: FetchEvent[] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_EVENT) {
    events.push({
      type: 'KeywordMetricsRecorded',
      data: { fetch_id: command.fetch_id, ...command.location, source: command.source, rows: rows.slice(i, i + ROWS_PER_EVENT) },
    })
  }
  events.push({
    type: 'KeywordMetricsFetchCompleted',
    data: {
      fetch_id: command.fetch_id,
      ...command.location,
      source: command.source,
      keywords: rows.length,
      with_data: rows.filter((r) => r.search_volume !== null).length,
      ...command.summary,
    },
  })
  return events
}

function decide(command: FetchCommand, state: FetchState): FetchEvent[] {
  // A fetch ends once: the same outcome written again (a retried write) changes nothing.
  if (state.outcome !== 'none') return []
  switch (command.type) {
    case 'RecordMetrics':
      return recordMetrics(command)
    case 'RecordFailure': {
      const keywords = [...new Map(command.keywords.map((k) => [k.keyword_key, k])).values()]
      return [
        {
          type: 'KeywordMetricsFetchFailed',
          data: {
            fetch_id: command.fetch_id,
            ...command.location,
            keywords,
            error: command.error,
            attempts: command.attempts,
            provider_calls: command.provider_calls,
            cost_usd: command.cost_usd,
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

function evolve(state: FetchState, event: FetchEvent): FetchState {
  switch (event.type) {
    case 'KeywordMetricsRecorded':
      return state
    case 'KeywordMetricsFetchCompleted':
      return { outcome: 'succeeded' }
    case 'KeywordMetricsFetchFailed':
      return { outcome: 'failed' }
    default:
      return assertNever(event)
  }
}

export const metricsFetch: Aggregate<FetchState, FetchCommand, FetchEvent, string> = {
  streamOf: fetchStream,
  initialState: () => ({ outcome: 'none' }),
  evolve,
  decide,
  entity: 'keyword metrics fetch',
}
