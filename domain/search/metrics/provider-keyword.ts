/**
 * What Google Ads (through DataForSEO's Keywords Data API) accepts as a keyword: at most 80 characters and 10
 * words, and no symbols it refuses. The service sends a keyword's normalized text (keywordKey: lower-case
 * letters and digits separated by single spaces), which has no symbols; a longer or wordier phrase is never
 * sent, since the whole task would be refused for it. It stays without metrics unless a caller records them.
 */
export const PROVIDER_KEYWORD_MAX_CHARS = 80
export const PROVIDER_KEYWORD_MAX_WORDS = 10

/** Why the provider would refuse this normalized keyword, or null when it can be sent. */
export function providerKeywordProblem(keywordKey: string): string | null {
  if (keywordKey.length > PROVIDER_KEYWORD_MAX_CHARS) return `longer than ${PROVIDER_KEYWORD_MAX_CHARS} characters`
  if (keywordKey.split(' ').length > PROVIDER_KEYWORD_MAX_WORDS) return `more than ${PROVIDER_KEYWORD_MAX_WORDS} words`
  return null
}
