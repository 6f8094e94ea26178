import { pageUrlKey } from '../../pages/url.js'
import { DomainError } from '../../shared/errors.js'
import type { RankRow } from './rank-row.js'

/**
 * What a rank row may name, from the client's own records: its keywords (deleted ones marked), its current
 * locations and its pages. A row about anything else is refused before anything is recorded, so a rank is
 * never filed under another client's keyword, a removed location or a page that is not the client's.
 */
export interface RankFacts {
  /** keyword id → deleted */
  readonly keywords: ReadonlyMap<number, boolean>
  readonly locationIds: ReadonlySet<number>
  readonly pageIds: ReadonlySet<number>
}

/** Throws a coded DomainError (400) naming the first row that breaks a rule; `label` names rows for the caller (`ranks`). */
export function checkRankRows(rows: readonly RankRow[], facts: RankFacts, clientId: number, label = 'ranks'): void {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const deleted = facts.keywords.get(row.keyword_id)
    if (deleted === undefined) {
      throw new DomainError(
        'rank_keyword_unknown',
        'A rank names a keyword the client does not track',
        `${label}[${i}]: keyword ${row.keyword_id} is not a keyword of client ${clientId}`,
      )
    }
    if (deleted) {
      throw new DomainError(
        'rank_keyword_deleted',
        'A rank names a deleted keyword',
        `${label}[${i}]: keyword ${row.keyword_id} is deleted`,
      )
    }
    if (row.location_id !== null && !facts.locationIds.has(row.location_id)) {
      throw new DomainError(
        'rank_location_unknown',
        'A rank names a location the client does not have',
        `${label}[${i}]: location ${row.location_id} is not a current location of client ${clientId}`,
      )
    }
    if (row.page_id !== null && !facts.pageIds.has(row.page_id)) {
      throw new DomainError(
        'rank_page_unknown',
        'A rank names a page that is not the client’s',
        `${label}[${i}]: page ${row.page_id} is not a page of client ${clientId}`,
      )
    }
  }
}

/**
 * Finds the client's page a ranking URL is (compared as pages are: scheme and host case, fragment, trailing
 * slash ignored); null when none. Built once per call, since a check matches hundreds of URLs.
 */
export function pageMatcher(pages: readonly { readonly id: number; readonly url: string }[]): (url: string | null) => number | null {
  const byKey = new Map<string, number>()
  // The first page of a URL wins, as findPageByUrl's does.
  for (const page of pages) if (!byKey.has(pageUrlKey(page.url))) byKey.set(pageUrlKey(page.url), page.id)
  return (url) => (url === null ? null : (byKey.get(pageUrlKey(url)) ?? null))
}
