import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { BLOG_POSTS_PER_WEEK_MAX, TimeOfDay, Weekday } from './schedule.js'
import {
  BLOG_TOPIC_KEYWORD_MAX_LENGTH,
  BLOG_TOPIC_NOTES_MAX_LENGTH,
  BLOG_TOPIC_REASON_MAX_LENGTH,
  BLOG_TOPIC_SOURCE_REF_MAX_LENGTH,
  BLOG_TOPIC_TITLE_MAX_LENGTH,
  BlogTopicSource,
  BlogTopicStatus,
} from './topics.js'

/*
 * The blog sub-area's events (issue 28): a client's blog topics live in the stream `blog_topics-<client_id>`
 * (one title per client is decided against them all), its publishing schedule in `blog_schedule-<client_id>`.
 * The drafts and posts built on the topics record their own events.
 */

const PlannedDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .nullable()

const TopicFields = {
  title: z.string().min(1).max(BLOG_TOPIC_TITLE_MAX_LENGTH),
  /** '' when none. */
  target_keyword: z.string().max(BLOG_TOPIC_KEYWORD_MAX_LENGTH),
  /** What in the source the topic came from (a keyword id, a query's text, a question id); '' when none. */
  source_ref: z.string().max(BLOG_TOPIC_SOURCE_REF_MAX_LENGTH),
  notes: z.string().max(BLOG_TOPIC_NOTES_MAX_LENGTH),
  /** The local date the post is planned for (YYYY-MM-DD); null when not planned. */
  planned_date: PlannedDate,
}

/** add_blog_topic (and the pipeline's proposals). */
export const BlogTopicAdded = z.object({
  client_id: Id,
  topic_id: Id,
  source: BlogTopicSource,
  status: BlogTopicStatus,
  ...TopicFields,
})

/** update_blog_topic: the topic's values after the change (absolute, so a projector sets them as they are). */
export const BlogTopicUpdated = z.object({ client_id: Id, topic_id: Id, ...TopicFields })

/** set_blog_topic_status: a move along the status table, with the planned date it leaves and why (rejections). */
export const BlogTopicStatusChanged = z.object({
  client_id: Id,
  topic_id: Id,
  from: BlogTopicStatus,
  to: BlogTopicStatus,
  planned_date: PlannedDate,
  /** Why, as given ('' when none): a rejection's reason, say. */
  reason: z.string().max(BLOG_TOPIC_REASON_MAX_LENGTH),
})

/** delete_blog_topic: the topic leaves every read; its id is never reused. */
export const BlogTopicDeleted = z.object({ client_id: Id, topic_id: Id })

/** set_blog_schedule: the whole schedule as it now is. */
export const BlogScheduleSet = z.object({
  client_id: Id,
  posts_per_week: z.number().int().min(1).max(BLOG_POSTS_PER_WEEK_MAX),
  days: z.array(Weekday).min(1).max(7),
  time: TimeOfDay,
  timezone: z.string().min(1).max(64),
  active: z.boolean(),
  start_date: PlannedDate,
})

export const blogEventSchemas = { BlogTopicAdded, BlogTopicUpdated, BlogTopicStatusChanged, BlogTopicDeleted, BlogScheduleSet } as const

type Schemas = typeof blogEventSchemas
export type BlogEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type BlogTopicEvent = Exclude<BlogEvent, { type: 'BlogScheduleSet' }>
export type BlogScheduleEvent = Extract<BlogEvent, { type: 'BlogScheduleSet' }>
