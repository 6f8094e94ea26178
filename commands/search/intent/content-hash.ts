import { createHash } from 'node:crypto'

/**
 * The identity of what the intent classifier reads of a page: sha256 (hex) of its title and content, those
 * of the newest snapshot, or the page's title and no content while it has none. The URL is not in it (a
 * page's URL never changes), nor the client's services and locations (classify_page_intents with force
 * re-reads those). The projector (current content) and the processor (what it classified) both use it, so
 * "this content was classified" is the same test on both sides.
 */
export function intentContentHash(title: string, content: string): string {
  return createHash('sha256')
    .update(JSON.stringify([title, content]), 'utf8')
    .digest('hex')
}
