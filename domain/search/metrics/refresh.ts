import type { Aggregate } from '../../shared/aggregate.js'
import type { MetricsLocation, RefreshEvent } from './events.js'

/**
 * A client's requests for fresh keyword metrics: one stream per client, `keyword_metrics_refresh-<client_id>`.
 * A request names the client's keywords (normalized) and market as they were when it was made, so the
 * projection marks exactly those metrics rows and a keyword added later is simply missing (fetched anyway).
 * Nothing is decided against earlier requests: each one is a fact of its own.
 */
export const refreshStream = (clientId: number) => `keyword_metrics_refresh-${clientId}`

export interface RefreshState {
  readonly requests: number
}

export interface RequestRefresh {
  readonly type: 'RequestRefresh'
  readonly client_id: number
  readonly location: MetricsLocation
  readonly keyword_keys: readonly string[]
}

function decide(command: RequestRefresh, _state: RefreshState): RefreshEvent[] {
  const keys = [...new Set(command.keyword_keys)]
  // A client without keywords has nothing to refresh: no event, nothing for the processor to do.
  if (keys.length === 0) return []
  return [{ type: 'KeywordMetricsRefreshRequested', data: { client_id: command.client_id, ...command.location, keyword_keys: keys } }]
}

/** Only counts requests: nothing is decided against them. */
function evolve(state: RefreshState, _event: RefreshEvent): RefreshState {
  return { requests: state.requests + 1 }
}

export const metricsRefresh: Aggregate<RefreshState, RequestRefresh, RefreshEvent> = {
  streamOf: refreshStream,
  initialState: () => ({ requests: 0 }),
  evolve,
  decide,
}
