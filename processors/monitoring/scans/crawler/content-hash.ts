import { createHash } from 'node:crypto'
import type { PageState } from '../../../../domain/monitoring/page-state.js'

/**
 * SHA-256 of what a page says: a canonical JSON (keys sorted at every level, so the same content always
 * serialises the same way) of every PageState field except `url` (the same content at another URL is the same
 * content), `truncated` (how much was read, not what the page says) and the hash itself. Equal hashes: the
 * page did not change, and no new snapshot is recorded.
 */
export function contentHash(state: Omit<PageState, 'content_hash'>): string {
  const { url: _url, truncated: _truncated, ...content } = state
  return createHash('sha256').update(canonicalJson(content)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  return JSON.stringify(value)
}
