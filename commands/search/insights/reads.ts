import type { InsightInputs } from '../../../domain/search/insights/inputs.js'

/**
 * What the insight and meta optimization commands read from the read models: a port declared here with
 * exactly those reads, implemented over the tables by projections/search/insights/reads.ts, so commands never
 * import the read models themselves.
 */
export interface InsightReads {
  /** Everything the rules read about the client (domain/search/insights/inputs.ts). */
  inputsFor(clientId: number): Promise<InsightInputs>
}

export interface MetaPageFacts {
  readonly id: number
  readonly url: string
  readonly title: string
  readonly active: boolean
  /** The page's latest snapshot (its content and title as the site has them); null when none was recorded. */
  readonly snapshot: { readonly id: number; readonly title: string; readonly content: string } | null
}

export interface MetaInsightFacts {
  readonly id: number
  readonly clientId: number
  readonly insightType: string
  readonly pageId: number | null
  readonly evidence: Record<string, unknown>
}

export interface MetaReads {
  /** The client's page (active or not); undefined when the client has no such page. */
  page(clientId: number, pageId: number): Promise<MetaPageFacts | undefined>
  /** The insight, if it is the client's. */
  insight(clientId: number, insightId: number): Promise<MetaInsightFacts | undefined>
}
