import { randomUUID } from 'node:crypto'
import { keywordText } from '../../domain/keywords/keyword-set.js'
import type {
  KeywordMetricsRow,
  MetricsLocation,
  MetricsSource,
  MetricsValues,
  ProviderFailure,
} from '../../domain/search/metrics/events.js'
import { type FetchCommand, type FetchSummary, metricsFetch } from '../../domain/search/metrics/fetch.js'
import { metricsLocationFor } from '../../domain/search/metrics/location.js'
import { metricsRefresh } from '../../domain/search/metrics/refresh.js'
import type { SentKeyword } from '../../domain/search/metrics/results.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { loadKeywordSet } from '../keywords.js'

/*
 * The writes of keyword metrics: a fetch's outcome (by the metrics processor, or a caller's own numbers) and
 * a client's request for fresh numbers. Metrics belong to the organization, so every event carries its id.
 */

function runFetch(deps: WriteDeps, context: CommandContext, orgId: number, command: FetchCommand) {
  return handleCommand(deps, { aggregate: metricsFetch, id: command.fetch_id, command, context, orgId })
}

export interface FetchedMetrics {
  readonly orgId: number
  readonly fetchId: string
  readonly source: MetricsSource
  readonly location: MetricsLocation
  readonly rows: readonly KeywordMetricsRow[]
  readonly summary: FetchSummary
}

/** A fetch's rows and summary. Recording the same fetch again changes nothing (position null). */
export async function recordFetchedMetrics(
  deps: WriteDeps,
  context: CommandContext,
  input: FetchedMetrics,
): Promise<{ recorded: number; position: Position | null }> {
  const outcome = await runFetch(deps, context, input.orgId, {
    type: 'RecordMetrics',
    fetch_id: input.fetchId,
    source: input.source,
    location: input.location,
    rows: input.rows,
    summary: input.summary,
  })
  const completed = outcome.events.find((e) => e.type === 'KeywordMetricsFetchCompleted')
  return { recorded: completed?.type === 'KeywordMetricsFetchCompleted' ? completed.data.keywords : 0, position: outcome.position }
}

export interface FetchFailure {
  readonly orgId: number
  readonly fetchId: string
  readonly location: MetricsLocation
  readonly keywords: readonly SentKeyword[]
  readonly error: ProviderFailure
  readonly attempts: number
  readonly providerCalls: number
  readonly costUsd: number | null
}

/** A fetch that ended without rows, with its coded error. Recording it again changes nothing. */
export async function recordFetchFailure(
  deps: WriteDeps,
  context: CommandContext,
  input: FetchFailure,
): Promise<{ position: Position | null }> {
  const outcome = await runFetch(deps, context, input.orgId, {
    type: 'RecordFailure',
    fetch_id: input.fetchId,
    location: input.location,
    keywords: input.keywords,
    error: input.error,
    attempts: input.attempts,
    provider_calls: input.providerCalls,
    cost_usd: input.costUsd,
  })
  return { position: outcome.position }
}

/** A caller's numbers for one keyword: any it leaves out are unknown (null). */
export type CallerMetrics = { readonly keyword: string } & { readonly [K in keyof MetricsValues]?: MetricsValues[K] | undefined }

/**
 * record_keyword_metrics: numbers a caller brings (another keyword tool, an operator agent), as one fetch
 * of source `recorded`. A phrase is validated like add_keyword's and keyed by its normalized text, so it
 * lands on the same row as the organization's keywords of that text.
 */
export async function recordCallerMetrics(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    orgId: number
    location: MetricsLocation
    metrics: readonly CallerMetrics[]
    /** A fetch id of the caller's choosing (the sandbox seed's is derived, so a reseed writes nothing twice); default: a new one. */
    fetchId?: string
  },
): Promise<{ fetchId: string; recorded: number; position: Position | null }> {
  const rows = input.metrics.map((m): KeywordMetricsRow => {
    const { keyword, key } = keywordText(m.keyword)
    return {
      keyword_key: key,
      keyword,
      spell: null,
      search_volume: m.search_volume ?? null,
      cpc: m.cpc ?? null,
      competition: m.competition ?? null,
      competition_index: m.competition_index ?? null,
      low_top_of_page_bid: m.low_top_of_page_bid ?? null,
      high_top_of_page_bid: m.high_top_of_page_bid ?? null,
      difficulty: m.difficulty ?? null,
      monthly_searches: [...(m.monthly_searches ?? [])].sort((a, b) => b.year - a.year || b.month - a.month),
    }
  })
  const fetchId = input.fetchId ?? randomUUID()
  const { recorded, position } = await recordFetchedMetrics(deps, context, {
    orgId: input.orgId,
    fetchId,
    source: 'recorded',
    location: input.location,
    rows,
    summary: { difficulty: 'not_requested', difficulty_error: null, attempts: 1, provider_calls: 0, cost_usd: null, last_error: null },
  })
  return { fetchId, recorded, position }
}

/**
 * refresh_keyword_metrics: the client's active keywords, in its metrics market, are wanted again now. The
 * metrics processor fetches them on its next pass (an organization waiting out a credentials or billing
 * failure is tried again at once). `keywords`: how many distinct phrases were marked.
 */
export async function requestMetricsRefresh(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number },
): Promise<{ location: MetricsLocation; keywords: number; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const keywords = await loadKeywordSet(deps, owner.id)
  const keys = [...new Set(keywords.keywords.filter((k) => !k.deleted).map((k) => k.key))]
  const { location } = metricsLocationFor({ settings: owner.settings, locations: owner.locations })
  const outcome = await handleCommand(deps, {
    aggregate: metricsRefresh,
    id: owner.id,
    command: { type: 'RequestRefresh', client_id: owner.id, location, keyword_keys: keys },
    context,
    orgId: owner.orgId,
  })
  return { location, keywords: keys.length, position: outcome.position }
}
