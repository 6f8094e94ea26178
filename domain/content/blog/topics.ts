import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/**
 * A blog topic's life: suggested (`proposed`), accepted by a person or a rule (`approved`), written as a draft
 * (`drafted`), given a publishing date (`scheduled`), live on the client's site (`published`), or turned down
 * (`rejected`). The drafts, posts and the blog pipeline move topics along this table.
 */
export const BLOG_TOPIC_STATUSES = ['proposed', 'approved', 'drafted', 'scheduled', 'published', 'rejected'] as const
export const BlogTopicStatus = z.enum(BLOG_TOPIC_STATUSES)
export type BlogTopicStatus = z.infer<typeof BlogTopicStatus>

/** The statuses a topic may be created in: a person adding a topic may approve it at once. */
export const BLOG_TOPIC_INITIAL_STATUSES = ['proposed', 'approved'] as const
export const BlogTopicInitialStatus = z.enum(BLOG_TOPIC_INITIAL_STATUSES)

/**
 * Where a topic came from: `keyword_gap` (a tracked keyword without a page), `gsc_query` (a Search Console
 * query without a page), `aeo_question` (an AI Visibility question the client is not named for), `manual`
 * (added by a person).
 */
export const BLOG_TOPIC_SOURCES = ['keyword_gap', 'gsc_query', 'aeo_question', 'manual'] as const
export const BlogTopicSource = z.enum(BLOG_TOPIC_SOURCES)
export type BlogTopicSource = z.infer<typeof BlogTopicSource>

export const BLOG_TOPIC_TITLE_MAX_LENGTH = 300
export const BLOG_TOPIC_KEYWORD_MAX_LENGTH = 200
export const BLOG_TOPIC_SOURCE_REF_MAX_LENGTH = 500
export const BLOG_TOPIC_NOTES_MAX_LENGTH = 10_000
export const BLOG_TOPIC_REASON_MAX_LENGTH = 1000
/** Topics a client may hold (rejected ones included; deleted ones not): a generator gone wrong stops here. */
export const BLOG_TOPICS_PER_CLIENT_MAX = 5000

/**
 * Where each status may go. A draft thrown away sends the topic back to approved; a scheduled topic taken off
 * the calendar goes back to drafted; a rejected topic may be reconsidered (back to proposed); a published
 * topic is final (its post is live).
 */
const NEXT: Record<BlogTopicStatus, readonly BlogTopicStatus[]> = {
  proposed: ['approved', 'rejected'],
  approved: ['drafted', 'proposed', 'rejected'],
  drafted: ['scheduled', 'approved', 'rejected'],
  scheduled: ['published', 'drafted', 'rejected'],
  published: [],
  rejected: ['proposed'],
}

export function nextBlogTopicStatuses(from: BlogTopicStatus): readonly BlogTopicStatus[] {
  return NEXT[from]
}

/** Refuses a move the table above does not allow (staying where it is is always allowed: nothing changes). */
export function assertBlogTopicTransition(topicId: number, from: BlogTopicStatus, to: BlogTopicStatus): void {
  if (from === to || NEXT[from].includes(to)) return
  const allowed = NEXT[from].length > 0 ? `it may move to ${NEXT[from].join(', ')}` : 'it may not move (published is final)'
  throw new DomainError(
    'blog_topic_status_invalid',
    'The blog topic cannot move to this status',
    `blog topic ${topicId} is ${from}; ${allowed}, not ${to}`,
  )
}

/** Statuses a topic may be deleted in: nothing was written for it yet. */
export const BLOG_TOPIC_DELETABLE: readonly BlogTopicStatus[] = ['proposed', 'approved', 'rejected']

/**
 * The key two titles are compared by: case, accents' composition, punctuation and spacing do not make a new
 * topic ("Drain Cleaning: 5 Tips" and "drain cleaning 5 tips" are the same).
 */
export function topicTitleKey(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** `YYYY-MM-DD`, a real calendar date. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

export const CalendarDate = z.string().refine(isCalendarDate, 'expected a calendar date as YYYY-MM-DD')
