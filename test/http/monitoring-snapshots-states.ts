import { createHash } from 'node:crypto'
import type { PageState } from '../../domain/monitoring/page-state.js'

/**
 * PageStates built by hand for the snapshot tests (no crawl needed): the fields a page says, with a content
 * hash over them as the crawler computes it (everything but url and truncated), so equal content gives equal
 * hashes and any changed field a new one.
 */
export type PageStateInput = Partial<Omit<PageState, 'content_hash'>> & { url: string }

export function pageState(input: PageStateInput): PageState {
  const mainText = input.main_text ?? `Welcome to ${input.url}. We fix drains the same day.`
  const content: Omit<PageState, 'content_hash'> = {
    final_url: input.url,
    status: 200,
    redirects: [],
    content_type: 'text/html; charset=utf-8',
    canonical: input.url,
    robots: null,
    noindex: false,
    title: `Title of ${input.url}`,
    meta_description: null,
    headings: [{ level: 1, text: `Heading of ${input.url}` }],
    word_count: mainText.split(/\s+/).filter(Boolean).length,
    internal_links: [],
    outgoing_links: [],
    images: [],
    json_ld_types: [],
    hreflang: [],
    truncated: false,
    ...input,
    main_text: mainText,
  }
  const { url: _url, truncated: _truncated, ...hashed } = content
  return { ...content, content_hash: createHash('sha256').update(JSON.stringify(hashed)).digest('hex') }
}
