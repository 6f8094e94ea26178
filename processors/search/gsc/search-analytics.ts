import type { GscErrorCode, GscRow } from '../../../domain/search/gsc/events.js'
import type { GscSecret } from '../../../domain/search/gsc/credentials.js'

/**
 * The port to Search Console's Search Analytics: one page of one day's query × page rows of a property,
 * read with the client's credentials. The adapter (google-search-analytics.ts) speaks to Google through
 * @googleapis/searchconsole and google-auth-library; tests point it at a local stand-in, never replace it.
 */
export interface DayPageRequest {
  /** The property as Search Console names it (sc-domain:… or https://…/). */
  readonly property: string
  /** YYYY-MM-DD. */
  readonly date: string
  readonly startRow: number
  readonly rowLimit: number
}

export interface SearchAnalyticsSource {
  /** The rows of the page (up to rowLimit; fewer: the day has no more), in the API's order. */
  dayPage(request: DayPageRequest, signal: AbortSignal): Promise<GscRow[]>
}

/** A source reading with one client's credentials. */
export type ConnectSearchAnalytics = (secret: GscSecret) => SearchAnalyticsSource

/** The most rows the API answers per call. */
export const API_ROW_LIMIT = 25_000

/**
 * A provider failure, classified: what the capture records (`code`) and whether trying again can help
 * (outages, quota) or not (refused credentials, a property the account may not read).
 */
export class GscProviderError extends Error {
  constructor(
    readonly code: GscErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** The provider's Retry-After, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message)
    this.name = 'GscProviderError'
  }
}
