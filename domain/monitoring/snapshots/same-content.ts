/**
 * The one rule for "did the page change": two observations say the same when their content hashes are equal.
 * The hash (PageState.content_hash, computed by whoever extracts the state) covers everything a page says but
 * its URL and the truncation flag, so a page fetched again unchanged records nothing, and snapshots are change
 * points. Compared case-insensitively: a hash is hex, and upper-case hex from another extractor is the same hash.
 */
export function sameContent(previousHash: string | null, observedHash: string): boolean {
  return previousHash !== null && previousHash.toLowerCase() === observedHash.toLowerCase()
}
