import { BLOG_TOPIC_KEYWORD_MAX_LENGTH, BLOG_TOPIC_TITLE_MAX_LENGTH, type BlogTopicSource, topicTitleKey } from './topics.js'

/** What topic candidates are proposed from: the gaps the pipeline found, as plain values. */
export interface TopicCandidateInputs {
  /** Tracked keywords without a page. */
  readonly keywordGaps: readonly { readonly keywordId: number; readonly keyword: string }[]
  /** Search Console queries without a page, with their impressions (more first). */
  readonly gscQueries: readonly { readonly query: string; readonly impressions: number }[]
  /** AI Visibility questions the client is not named for. */
  readonly aeoQuestions: readonly { readonly queryId: number; readonly prompt: string }[]
}

/** What the client already has (get_recent_topic_profile and get_blog_topics_for_client answer it). */
export interface ExistingTopics {
  readonly titles: readonly string[]
  readonly targetKeywords: readonly string[]
}

export interface TopicCandidate {
  readonly title: string
  readonly targetKeyword: string
  readonly source: Exclude<BlogTopicSource, 'manual'>
  readonly sourceRef: string
}

const QUESTION_START = /^(how|what|why|when|where|which|who|can|could|should|is|are|do|does|will)\b/i

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .map((word) => (word.length > 3 || /^[a-z]/.test(word) ? capitalize(word) : word))
    .join(' ')
}

/** A working title for a phrase: a question stays a question; anything else becomes a guide to it. */
export function candidateTitle(phrase: string): string {
  const clean = phrase.replace(/\s+/g, ' ').trim()
  const title = QUESTION_START.test(clean) ? `${capitalize(clean.replace(/[?.!\s]+$/, ''))}?` : `A Guide to ${titleCase(clean)}`
  return title.slice(0, BLOG_TOPIC_TITLE_MAX_LENGTH)
}

/**
 * Topic candidates from the gaps, at most `max`, none repeating an existing title or target keyword nor each
 * other (compared as titles are: without case, punctuation or spacing). AI Visibility questions come first
 * (the client is missing from answers), then Search Console queries by impressions, then keywords in the
 * order given. Pure: the pipeline adds the ones it keeps with add_blog_topic.
 */
export function proposeTopicCandidates(inputs: TopicCandidateInputs, existing: ExistingTopics, max: number): TopicCandidate[] {
  const seenTitles = new Set(existing.titles.map(topicTitleKey))
  const seenKeywords = new Set(existing.targetKeywords.map(topicTitleKey).filter((k) => k !== ''))
  const ordered: { phrase: string; source: TopicCandidate['source']; sourceRef: string }[] = [
    ...inputs.aeoQuestions.map((q) => ({ phrase: q.prompt, source: 'aeo_question' as const, sourceRef: String(q.queryId) })),
    ...[...inputs.gscQueries]
      .sort((a, b) => b.impressions - a.impressions)
      .map((q) => ({ phrase: q.query, source: 'gsc_query' as const, sourceRef: q.query })),
    ...inputs.keywordGaps.map((k) => ({ phrase: k.keyword, source: 'keyword_gap' as const, sourceRef: String(k.keywordId) })),
  ]
  const candidates: TopicCandidate[] = []
  for (const { phrase, source, sourceRef } of ordered) {
    if (candidates.length >= max) break
    const keyword = phrase.replace(/\s+/g, ' ').trim().slice(0, BLOG_TOPIC_KEYWORD_MAX_LENGTH)
    const keywordKey = topicTitleKey(keyword)
    if (keywordKey === '' || seenKeywords.has(keywordKey)) continue
    const title = candidateTitle(keyword)
    const titleKey = topicTitleKey(title)
    if (seenTitles.has(titleKey)) continue
    seenKeywords.add(keywordKey)
    seenTitles.add(titleKey)
    candidates.push({ title, targetKeyword: keyword, source, sourceRef: sourceRef.slice(0, 500) })
  }
  return candidates
}
