import type { SerpFeatures } from '../ranks/rank-row.js'

/**
 * What the insight rules read, as plain values: the client's keywords, pages and associations, its latest
 * rank rows, Search Console totals for the latest period and AI Visibility counts for the latest month.
 * The processor and refresh_seo_insights load these from the read models (projections/search/insights/reads.ts);
 * the rules themselves never do I/O, so each is tested on its own.
 */
export interface InsightKeyword {
  readonly id: number
  readonly keyword: string
  /** The client's service it is about ('' when none): how AI Visibility questions are matched to it. */
  readonly service: string
  /** The location it is about ('' when none). */
  readonly location: string
}

export interface InsightPage {
  readonly id: number
  readonly url: string
  readonly title: string
}

export interface InsightAssociation {
  readonly keyword_id: number
  readonly page_id: number
}

/** One rank row (domain/search/ranks/rank-row.ts), as the rules need it. */
export interface RankObservation {
  readonly keyword_id: number
  readonly location_id: number | null
  readonly device: string
  readonly date: string
  readonly position: number | null
  readonly url: string | null
  readonly page_id: number | null
  readonly serp_features: SerpFeatures
}

/** A query × page's Search Console totals over the period (position impression-weighted). */
export interface GscQueryPage {
  readonly query: string
  readonly page: string
  readonly clicks: number
  readonly impressions: number
  readonly position: number
}

export interface GscPeriod {
  /** YYYY-MM-DD, inclusive. */
  readonly start: string
  readonly end: string
}

/** An AI Visibility question's answers in one month, over every engine. */
export interface AeoQuestionMonth {
  readonly query_id: number
  readonly prompt: string
  readonly service: string
  readonly location: string
  readonly month: string
  readonly engines: readonly string[]
  readonly captures: number
  /** Answers that named the client. */
  readonly present: number
}

/** An active page as its latest crawl or render saw it (domain/monitoring/page-state.ts, the fields the rules read). */
export interface InsightPageState {
  readonly page_id: number
  readonly url: string
  readonly status: number
  readonly noindex: boolean
  readonly title: string | null
  /** When that crawl recorded it (ISO 8601). */
  readonly crawled_at: string
}

export interface InsightInputs {
  /** Active keywords. */
  readonly keywords: readonly InsightKeyword[]
  /** Active pages. */
  readonly pages: readonly InsightPage[]
  readonly associations: readonly InsightAssociation[]
  /** The latest rows of each keyword × location × device (up to RANK_ROWS_PER_SERIES of them), any order. */
  readonly ranks: readonly RankObservation[]
  /** The client's location names by id (to say where a rank was seen). */
  readonly locations: ReadonlyMap<number, string>
  /** Query × page totals over `gscPeriod`; empty without Search Console data. */
  readonly gsc: readonly GscQueryPage[]
  readonly gscPeriod: GscPeriod | null
  /** The latest month's AI Visibility answers per question; empty without captures. */
  readonly aeo: readonly AeoQuestionMonth[]
  /** Each active page's latest crawled or rendered state; empty before any scan. */
  readonly pageStates: readonly InsightPageState[]
}
