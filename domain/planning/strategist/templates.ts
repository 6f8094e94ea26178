import type { KnownActionType } from '../action-items/action-types.js'
import type { Candidate } from './candidates.js'

/**
 * The deterministic description of a planned item: what to do, on which page, and why (the finding). Used
 * when no language model is configured, or when its answer could not be used.
 */
export const TEMPLATE_WRITER = 'built-in-templates'

const page = (url: string) => (url === '' ? 'the site' : url)

const WHAT: Record<KnownActionType, (c: Candidate) => string> = {
  title_meta_rewrite: (c) => `Rewrite the title and meta description of ${page(c.page_url)} for "${c.subject}".`,
  redirect: (c) => `Redirect ${page(c.page_url)} to the closest live page, so its visitors and links land somewhere.`,
  internal_links: (c) => `Add internal links to ${page(c.page_url)} from related pages, with anchors about "${c.subject}".`,
  create_page: (c) => `Create a page that answers "${c.subject}"${c.page_url === '' ? '' : ` (or make ${c.page_url} the page for it)`}.`,
  remove_noindex: (c) => `Remove the noindex from ${page(c.page_url)} so search engines list it again.`,
  improve_content: (c) =>
    `Strengthen the content of ${page(c.page_url)} for "${c.subject}": depth, freshness and the questions searchers ask.`,
  resolve_cannibalization: (c) => `Merge or differentiate the pages competing for "${c.subject}", so one page clearly owns it.`,
  ai_overview_content: (c) => `Answer "${c.subject}" directly on ${page(c.page_url)}, in a form AI answers can cite.`,
  ai_visibility: (c) => `AI Visibility: ${c.subject}.`,
  manual: (c) => `${c.subject}.`,
}

const MAX = 4000

export function templateDescription(candidate: Candidate): string {
  const what = WHAT[candidate.action_type](candidate)
  const why = candidate.finding.trim() === '' || candidate.finding === candidate.subject ? '' : ` Why: ${candidate.finding.trim()}`
  return `${what}${why}`.slice(0, MAX)
}
