import type { Finding, InsightSeverity } from '../kinds.js'
import type { InsightInputs, InsightPageState } from '../inputs.js'

/** What is wrong with a page as its latest crawl saw it, worst first: one finding per page. */
type Problem = 'gone' | 'noindex' | 'no_title'

function problemOf(state: InsightPageState): Problem | null {
  if (state.status >= 400) return 'gone'
  if (state.status >= 300) return null // a redirect: its target is a page of its own
  if (state.noindex) return 'noindex'
  if (state.title === null || state.title.trim() === '') return 'no_title'
  return null
}

const SEVERITY: Record<Problem, InsightSeverity> = { gone: 'high', noindex: 'high', no_title: 'medium' }

const SUMMARY: Record<Problem, (s: InsightPageState) => string> = {
  gone: (s) => `${s.url} answers ${s.status}: search engines drop it and its links lead nowhere`,
  noindex: (s) => `${s.url} says noindex: search engines leave it out of their results`,
  no_title: (s) => `${s.url} has no title: search engines make one up for it`,
}

/**
 * page_problem: an active page whose latest crawl (or render) found it gone (4xx or 5xx), telling search
 * engines not to index it, or without a title: the site changes that matter (domain/monitoring/changes), held
 * as a finding while the page stays so and resolved by the first crawl that sees it fixed. A change is a point
 * in time; the insight is the state it left the page in, so a page already broken when first crawled is raised
 * too, and one fixed since is not.
 */
export function pageProblemFindings(inputs: Pick<InsightInputs, 'pageStates'>): Finding[] {
  const findings: Finding[] = []
  for (const state of inputs.pageStates) {
    const problem = problemOf(state)
    if (problem === null) continue
    findings.push({
      insight_type: 'page_problem',
      source: 'crawl',
      natural_key: `page_problem:${state.page_id}:${problem}`,
      severity: SEVERITY[problem],
      summary: SUMMARY[problem](state),
      keyword_id: null,
      page_id: state.page_id,
      evidence: { problem, url: state.url, status: state.status, noindex: state.noindex, title: state.title, crawled_at: state.crawled_at },
    })
  }
  return findings
}
