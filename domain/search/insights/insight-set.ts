import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { SeoInsightEvent } from './events.js'
import type { Finding, InsightStatus, InsightType, SettableInsightStatus } from './kinds.js'

/**
 * A client's SEO insights: stream `seo_insights-<client_id>`.
 *
 *   (finding holds) ──raise──▶ open ◀──update_seo_insight──▶ applied / dismissed
 *                                 └──────── (finding no longer holds) ────────▶ resolved (final)
 *
 * One insight per natural key while it holds, whatever its status: an applied or dismissed insight is not
 * raised again while its finding still holds, and resolves like an open one when it stops holding. A
 * finding that comes back after its insight resolved is raised as a new insight.
 *
 * The state keeps only insights that have not resolved (resolved ones are history, in the read model), so
 * it stays the size of what holds now, bounded by MAX_FINDINGS_PER_TYPE per type.
 */
export const seoInsightsStream = (clientId: number) => `seo_insights-${clientId}`

export interface LiveInsight {
  readonly id: number
  readonly naturalKey: string
  readonly type: InsightType
  readonly status: Exclude<InsightStatus, 'resolved'>
  readonly pageId: number | null
}

export interface InsightSetState {
  readonly clientId: number
  /** Insights that hold, by natural key. */
  readonly live: ReadonlyMap<string, LiveInsight>
  /** Natural key of each live insight, by id. */
  readonly keyOf: ReadonlyMap<number, string>
  /** When the inputs of the last refresh that changed something were read (ISO 8601); null before one. */
  readonly readAt: string | null
}

export type InsightSetCommand =
  /**
   * The findings that hold now (deriveInsights); `newIds` gives each finding not yet live an id, in order
   * (the caller allocates at least as many as findings whose key is not live). Raises what is new, resolves
   * what is live but no longer found. `read_at`: when the findings' inputs were read (ISO 8601); a refresh
   * read before the last recorded one's decides nothing.
   */
  | { type: 'RefreshInsights'; client_id: number; findings: readonly Finding[]; new_ids: readonly number[]; read_at: string }
  | { type: 'ChangeInsightStatus'; client_id: number; insight_id: number; status: SettableInsightStatus; note: string }

export const initialInsightSetState = (): InsightSetState => ({ clientId: 0, live: new Map(), keyOf: new Map(), readAt: null })

function evolve(state: InsightSetState, event: SeoInsightEvent): InsightSetState {
  switch (event.type) {
    case 'SeoInsightRaised': {
      const d = event.data
      const live = new Map(state.live)
      const keyOf = new Map(state.keyOf)
      live.set(d.natural_key, { id: d.insight_id, naturalKey: d.natural_key, type: d.insight_type, status: 'open', pageId: d.page_id })
      keyOf.set(d.insight_id, d.natural_key)
      return { ...state, clientId: d.client_id, live, keyOf }
    }
    case 'SeoInsightResolved': {
      const key = state.keyOf.get(event.data.insight_id)
      if (key === undefined) return state
      const live = new Map(state.live)
      const keyOf = new Map(state.keyOf)
      live.delete(key)
      keyOf.delete(event.data.insight_id)
      return { ...state, live, keyOf }
    }
    case 'SeoInsightStatusChanged': {
      const key = state.keyOf.get(event.data.insight_id)
      const current = key === undefined ? undefined : state.live.get(key)
      if (!current) return state
      const live = new Map(state.live)
      live.set(current.naturalKey, { ...current, status: event.data.status })
      return { ...state, live }
    }
    case 'SeoInsightsRefreshed':
      return { ...state, clientId: event.data.client_id, readAt: event.data.read_at }
    default:
      return assertNever(event)
  }
}

/** Whether inputs read at `readAt` are older than those of the last recorded refresh. */
export const isStale = (state: InsightSetState, readAt: string): boolean =>
  state.readAt !== null && Date.parse(readAt) < Date.parse(state.readAt)

/** How many of `findings` are not live yet: the ids a refresh must bring. */
export function newFindingCount(state: InsightSetState, findings: readonly Finding[]): number {
  const seen = new Set<string>()
  let count = 0
  for (const finding of findings) {
    if (state.live.has(finding.natural_key) || seen.has(finding.natural_key)) continue
    seen.add(finding.natural_key)
    count++
  }
  return count
}

function refresh(command: Extract<InsightSetCommand, { type: 'RefreshInsights' }>, state: InsightSetState): SeoInsightEvent[] {
  if (isStale(state, command.read_at)) return []
  const events: SeoInsightEvent[] = []
  const found = new Set<string>()
  let next = 0
  for (const f of command.findings) {
    if (found.has(f.natural_key)) continue
    found.add(f.natural_key)
    if (state.live.has(f.natural_key)) continue
    const insight_id = command.new_ids[next++]
    if (insight_id === undefined) throw new Error(`RefreshInsights: ${next} new findings but ${command.new_ids.length} ids`)
    const { insight_type, source, natural_key, severity, summary, keyword_id, page_id, evidence } = f
    events.push({
      type: 'SeoInsightRaised',
      data: {
        insight_id,
        client_id: command.client_id,
        insight_type,
        source,
        natural_key,
        severity,
        summary,
        keyword_id,
        page_id,
        evidence,
      },
    })
  }
  const raised = events.length
  for (const insight of state.live.values()) {
    if (!found.has(insight.naturalKey)) {
      events.push({ type: 'SeoInsightResolved', data: { insight_id: insight.id, client_id: command.client_id } })
    }
  }
  if (events.length === 0) return events // nothing changed: nothing to record, not even the read
  const resolved = events.length - raised
  events.push({ type: 'SeoInsightsRefreshed', data: { client_id: command.client_id, read_at: command.read_at, raised, resolved } })
  return events
}

/** The live insight, or why it cannot change: never raised for this client (404), or already resolved (409). */
export function liveInsight(state: InsightSetState, insightId: number): LiveInsight {
  const key = state.keyOf.get(insightId)
  const insight = key === undefined ? undefined : state.live.get(key)
  if (!insight) {
    throw new DomainError(
      'seo_insight_resolved',
      'The insight no longer holds',
      `insight ${insightId} of client ${state.clientId} is resolved (or was never raised)`,
    )
  }
  return insight
}

function decide(command: InsightSetCommand, state: InsightSetState): SeoInsightEvent[] {
  switch (command.type) {
    case 'RefreshInsights':
      return refresh(command, state)
    case 'ChangeInsightStatus': {
      if (state.clientId !== 0 && state.clientId !== command.client_id) throw new NotFoundError('seo insight', command.insight_id)
      const insight = liveInsight(state, command.insight_id)
      if (insight.status === command.status) return [] // the same status again (a retried request) changes nothing
      return [
        {
          type: 'SeoInsightStatusChanged',
          data: { insight_id: insight.id, client_id: command.client_id, status: command.status, note: command.note.trim().slice(0, 2000) },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const seoInsightSet: Aggregate<InsightSetState, InsightSetCommand, SeoInsightEvent> = {
  streamOf: seoInsightsStream,
  initialState: initialInsightSetState,
  evolve,
  decide,
}
