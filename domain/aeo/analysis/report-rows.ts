/**
 * The parts of an analysis report (report_json) that the findings are derived from, in a module of their own
 * so that analyze.ts (which assembles the report) and findings.ts (which reads these parts) do not import each other.
 */

import type { SourceClass } from './domains.js'

/** How the client fared in the answer. */
export type Scorecard = {
  /** The client is named in the answer, or its own domain is cited. */
  present: boolean
  /** The client's name appears in the answer text. */
  named: boolean
  /** The client is the first business the answer names. */
  named_first: boolean
  /** 1-based position among the named businesses (the client included), or null when not named. */
  position: number | null
  /** Businesses named, the client included. */
  named_count: number
  /** The client's own domain is among the citations. */
  cited: boolean
  own_domain_citations: number
  citation_count: number
  /** Own-domain sources among those retrieved (but not necessarily cited). */
  retrieved_own: number
  retrieved_count: number
}

export type SourceRow = {
  domain: string
  class: SourceClass
  /** Citations of the domain. */
  count: number
  /** Sources of the domain the engine retrieved (cited or not). */
  retrieved: number
  /** A directory's display name, or the business a competitor domain belongs to. */
  label: string | null
  urls: string[]
}

export type ClaimRow = {
  sentence: string
  /** Index of the sentence in the answer. */
  index: number
}

export type EntityRow = {
  name: string
  /** 1-based order among the businesses named, the client included. */
  position: number
  mentions: number
  /** A cited domain that belongs to this business, if any. */
  domain: string | null
}
