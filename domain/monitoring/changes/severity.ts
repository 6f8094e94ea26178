import type { SiteChangeKind, SiteChangeSeverity } from './events.js'

/**
 * How much a change matters to the strategist. high is what can lose a page its search traffic at once: the
 * page gone, noindex added, the title lost (high changes become insights and are worth a webhook alert).
 * medium: what search engines read and may act on (status, redirects, canonical, a changed title, the h1,
 * noindex removed, a body change of BODY_CHANGE_MEDIUM_WORDS words or more). low: the rest (page added, the
 * meta description, other headings, other robots directives, small body edits).
 */

/** A body change this large (added + removed words) is medium; below it, low. */
export const BODY_CHANGE_MEDIUM_WORDS = 100

export interface SeverityFacts {
  readonly kind: SiteChangeKind
  /** robots_changed: whether noindex was added, removed, or neither. */
  readonly noindex?: 'added' | 'removed' | 'same'
  /** title_changed: the page had a title and now has none. */
  readonly titleLost?: boolean
  /** headings_changed: the h1 text changed. */
  readonly h1Changed?: boolean
  /** body_changed: words added + removed. */
  readonly wordsChanged?: number
}

export function severityOf(facts: SeverityFacts): SiteChangeSeverity {
  switch (facts.kind) {
    case 'page_gone':
      return 'high'
    case 'robots_changed':
      return facts.noindex === 'added' ? 'high' : facts.noindex === 'removed' ? 'medium' : 'low'
    case 'title_changed':
      return facts.titleLost ? 'high' : 'medium'
    case 'status_changed':
    case 'redirect_changed':
    case 'canonical_changed':
      return 'medium'
    case 'headings_changed':
      return facts.h1Changed ? 'medium' : 'low'
    case 'body_changed':
      return (facts.wordsChanged ?? 0) >= BODY_CHANGE_MEDIUM_WORDS ? 'medium' : 'low'
    case 'page_added':
    case 'meta_description_changed':
      return 'low'
  }
}
