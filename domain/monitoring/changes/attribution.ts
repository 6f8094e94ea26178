import type { PageState } from '../page-state.js'
import type { SiteChangeAttribution, SiteChangeKind } from './events.js'
import { wordsContained } from './words.js'

/**
 * What the page's stream knows about edits this service applied, handed in by the command that records the
 * crawl (commands/monitoring/snapshots.ts): the page's latest snapshot written by the site-edit publisher
 * (source `site_edit`, or `site_edit_rollback` when the edit was rolled back) recorded after the previous
 * crawl or render snapshot. Only that one counts: an edit the previous crawl already saw was attributed then.
 */
export interface SiteEditSnapshot {
  readonly edit_id: number
  readonly snapshot_id: number
  readonly source: 'site_edit' | 'site_edit_rollback'
  /** The title the publisher recorded with it (the edit's new title, or the page's unchanged one). */
  readonly title: string
  /** What it published: the edit's proposed content (HTML or text), or the restored content for a rollback. */
  readonly content: string
}

export interface AttributionContext {
  /** null: no edit of this service touched the page since the previous crawl (or ever). */
  readonly latestSiteEdit: SiteEditSnapshot | null
}

export const NO_SITE_EDIT: AttributionContext = { latestSiteEdit: null }

/** Whitespace collapsed and lower-cased: how a crawled value and an edit's text are compared. */
export function normalized(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase()
}

/** An edit's content as text: tags and entities dropped (they are not words a crawl's main text shows). */
export function editText(content: string): string {
  return content
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[#a-z0-9]+;/gi, ' ')
}

/**
 * Whether the new state shows, for the changed field, what the edit published. Per kind:
 * - title: the crawled title equals the edit's title;
 * - meta description, canonical, robots: the new value appears in the edit's content (an edit that carries
 *   its head tags); a value removed is never the edit's (an edit that dropped a tag cannot be told from a
 *   theme that did);
 * - headings: every heading the page gained appears in the edit's content; when it only lost headings, none of
 *   them is still in the edit's content;
 * - body: every word of the edit's text is in the new main text or headings (as bags, markup ignored).
 * Status, redirects and a page gone are never an edit's: the publisher changes content, not how a URL answers.
 */
function editExplains(kind: SiteChangeKind, before: PageState, after: PageState, edit: SiteEditSnapshot): boolean {
  const content = normalized(edit.content)
  const inContent = (value: string | null) => normalized(value) !== '' && content.includes(normalized(value))
  switch (kind) {
    case 'title_changed':
      return normalized(after.title) !== '' && normalized(after.title) === normalized(edit.title)
    case 'meta_description_changed':
      return inContent(after.meta_description)
    case 'canonical_changed':
      return inContent(after.canonical)
    case 'robots_changed':
      return inContent(after.robots)
    case 'headings_changed': {
      const beforeTexts = new Set(before.headings.map((h) => normalized(h.text)))
      const afterTexts = new Set(after.headings.map((h) => normalized(h.text)))
      const gained = [...afterTexts].filter((t) => t !== '' && !beforeTexts.has(t))
      if (gained.length > 0) return gained.every((t) => content.includes(t))
      const lost = [...beforeTexts].filter((t) => t !== '' && !afterTexts.has(t))
      return content !== '' && lost.length > 0 && lost.every((t) => !content.includes(t))
    }
    case 'body_changed':
      // With the headings: Readability lifts the article's title heading out of the main text (an edit's h1
      // that repeats the <title> is never in it), yet the page shows it.
      return wordsContained(editText(edit.content), [after.main_text, ...after.headings.map((h) => h.text)].join(' '))
    case 'page_added':
    case 'page_gone':
    case 'status_changed':
    case 'redirect_changed':
      return false
  }
}

/** The attribution of one change: unknown without an earlier state, site_edit when the edit explains it, else external. */
export function attributionOf(
  kind: SiteChangeKind,
  before: PageState | null,
  after: PageState,
  context: AttributionContext,
): { attribution: SiteChangeAttribution; edit_id: number | null } {
  if (before === null) return { attribution: 'unknown', edit_id: null }
  const edit = context.latestSiteEdit
  if (edit && editExplains(kind, before, after, edit)) return { attribution: 'site_edit', edit_id: edit.edit_id }
  return { attribution: 'external', edit_id: null }
}
