import type { PageState } from '../page-state.js'
import { type AttributionContext, attributionOf, normalized } from './attribution.js'
import { MAX_CHANGE_VALUE, type SiteChangeDetectedData, type SiteChangeEvent, type SiteChangeKind } from './events.js'
import { type SeverityFacts, severityOf } from './severity.js'
import { wordDifference } from './words.js'

/**
 * The rule: what changed between a page's previous recorded state and its new one. Pure: the ids come in
 * (`subject`), the change ids are allocated by the command afterwards (`withChangeIds`), so this function
 * can be called before knowing how many ids to ask for.
 */

/** A body change smaller than this (words added + removed) is not a change: a date, a counter or a copyright year ticking moves two to four. */
export const BODY_CHANGE_MIN_WORDS = 5
/** How many added (or removed) words a body_changed shows in `after` (or `before`). */
const BODY_SAMPLE_WORDS = 40

/** Which page and snapshots the changes are about (the command knows them; the rule does not invent ids). */
export interface ChangeSubject {
  readonly client_id: number
  readonly page_id: number
  /** The snapshot recording `after`. */
  readonly snapshot_id: number
  /** The snapshot recording `before`; null when `before` is null. */
  readonly previous_snapshot_id: number | null
}

/** A change without its id. */
export type SiteChangeDraft = Omit<SiteChangeDetectedData, 'change_id'>

/** Cut at MAX_CHANGE_VALUE characters (an ellipsis marks the cut; never half a surrogate pair); '' reads as null. */
export function boundedValue(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null
  if (value.length <= MAX_CHANGE_VALUE) return value
  let end = MAX_CHANGE_VALUE - 1
  const code = value.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${value.slice(0, end)}…`
}

const isSuccess = (s: PageState) => s.status >= 200 && s.status < 300
const isGone = (s: PageState) => s.status === 404 || s.status === 410

/** A URL's address for "did it redirect elsewhere": scheme, `www.`, a trailing slash and case of the host ignored. */
function address(url: string): string {
  try {
    const u = new URL(url)
    const path = u.pathname.replace(/\/+$/, '') || '/'
    return `${u.hostname.toLowerCase().replace(/^www\./, '')}${path}${u.search}`
  } catch {
    return url
  }
}

/** Where its redirects end, when they end somewhere other than the URL itself (https or a slash added is not elsewhere). */
function redirectTarget(s: PageState): string | null {
  return s.redirects.length > 0 && address(s.final_url) !== address(s.url) ? s.final_url : null
}

/** The page stopped being there: now 404/410 (and was not), or it answered 200 itself and now redirects elsewhere. */
function pageGone(before: PageState, after: PageState): boolean {
  if (isGone(after)) return !isGone(before)
  return before.status === 200 && redirectTarget(before) === null && redirectTarget(after) !== null
}

const headingLine = (h: { level: number; text: string }) => `h${h.level}: ${h.text}`
const headingsText = (s: PageState) => s.headings.map(headingLine).join(' | ')
const h1Texts = (s: PageState) =>
  s.headings
    .filter((h) => h.level === 1)
    .map((h) => normalized(h.text))
    .join('\n')
const statusText = (s: PageState) => (redirectTarget(s) ? `${s.status} → ${s.final_url}` : String(s.status))

interface Found {
  readonly facts: SeverityFacts
  readonly before: string | null
  readonly after: string | null
}

/** The changes of two states of a page that was there before; content fields only when both answered 2xx. */
function changesOf(before: PageState, after: PageState): Found[] {
  if (pageGone(before, after)) return [{ facts: { kind: 'page_gone' }, before: statusText(before), after: statusText(after) }]
  const found: Found[] = []
  if (before.status !== after.status) {
    found.push({ facts: { kind: 'status_changed' }, before: String(before.status), after: String(after.status) })
  }
  if (redirectTarget(before) !== redirectTarget(after)) {
    found.push({ facts: { kind: 'redirect_changed' }, before: redirectTarget(before), after: redirectTarget(after) })
  }
  // An error page's title and text are the server's, not the page's: comparing them would report noise.
  if (!isSuccess(before) || !isSuccess(after)) return found
  if (normalized(before.title) !== normalized(after.title)) {
    const titleLost = normalized(before.title) !== '' && normalized(after.title) === ''
    found.push({ facts: { kind: 'title_changed', titleLost }, before: before.title, after: after.title })
  }
  if (normalized(before.meta_description) !== normalized(after.meta_description)) {
    found.push({ facts: { kind: 'meta_description_changed' }, before: before.meta_description, after: after.meta_description })
  }
  if ((before.canonical ?? '') !== (after.canonical ?? '')) {
    found.push({ facts: { kind: 'canonical_changed' }, before: before.canonical, after: after.canonical })
  }
  if (normalized(before.robots) !== normalized(after.robots) || before.noindex !== after.noindex) {
    const noindex = before.noindex === after.noindex ? 'same' : after.noindex ? 'added' : 'removed'
    found.push({ facts: { kind: 'robots_changed', noindex }, before: before.robots, after: after.robots })
  }
  if (normalized(headingsText(before)) !== normalized(headingsText(after))) {
    const h1Changed = h1Texts(before) !== h1Texts(after)
    found.push({ facts: { kind: 'headings_changed', h1Changed }, before: headingsText(before), after: headingsText(after) })
  }
  const words = wordDifference(before.main_text, after.main_text)
  const wordsChanged = words.added + words.removed
  if (wordsChanged >= BODY_CHANGE_MIN_WORDS) {
    found.push({
      facts: { kind: 'body_changed', wordsChanged },
      before: words.removedWords.slice(0, BODY_SAMPLE_WORDS).join(' '),
      after: words.addedWords.slice(0, BODY_SAMPLE_WORDS).join(' '),
    })
  }
  return found
}

/**
 * Every change between `before` (the page's previous recorded state; null when none) and `after`, each with
 * its severity and attribution. No earlier state: one page_added (attribution unknown). Equal states: [].
 * For body_changed, `before` holds words removed and `after` words added (each word once, in text order).
 */
export function siteChangesBetween(
  before: PageState | null,
  after: PageState,
  subject: ChangeSubject,
  attribution: AttributionContext,
): SiteChangeDraft[] {
  const found: Found[] =
    before === null ? [{ facts: { kind: 'page_added' }, before: null, after: statusText(after) }] : changesOf(before, after)
  return found.map(({ facts, before: was, after: now }) => ({
    client_id: subject.client_id,
    page_id: subject.page_id,
    url: after.url,
    kind: facts.kind,
    severity: severityOf(facts),
    before: boundedValue(was),
    after: boundedValue(now),
    words_changed: facts.kind === 'body_changed' ? (facts.wordsChanged ?? 0) : null,
    ...attributionOf(facts.kind, before, after, attribution),
    snapshot_id: subject.snapshot_id,
    previous_snapshot_id: before === null ? null : subject.previous_snapshot_id,
  }))
}

/** The drafts as SiteChangeDetected events, with the ids the command allocated (one per draft, in order). */
export function withChangeIds(drafts: readonly SiteChangeDraft[], ids: readonly number[]): SiteChangeEvent[] {
  if (ids.length !== drafts.length) throw new Error(`withChangeIds: ${drafts.length} changes but ${ids.length} ids`)
  return drafts.map((draft, i) => ({ type: 'SiteChangeDetected', data: { change_id: ids[i] as number, ...draft } }))
}

export type { SiteChangeKind }
