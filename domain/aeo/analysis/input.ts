/**
 * What the analysis of one captured answer reads: the answer, its sources, the client and the question asked.
 * Its own module so that analyze.ts and findings.ts, which both read it, do not import each other.
 */

/** A source the engine cited or retrieved. */
export interface AnalysisCitation {
  readonly url: string
  readonly title?: string | undefined
}

export interface AnalysisClient {
  readonly name: string
  readonly websiteUrl: string
  readonly services: readonly string[]
  readonly locations: readonly string[]
}

export interface AnalysisQuestion {
  readonly prompt: string
  readonly service: string
  readonly location: string
  readonly kind: string
}

export interface AnalysisInput {
  readonly answerText: string
  readonly citations: readonly AnalysisCitation[]
  /** Sources retrieved but not cited. */
  readonly retrieved: readonly AnalysisCitation[]
  readonly client: AnalysisClient
  readonly question: AnalysisQuestion
}
