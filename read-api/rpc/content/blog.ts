import { z } from 'zod'
import { addBlogTopic, deleteBlogTopic, setBlogSchedule, setBlogTopicStatus, updateBlogTopic } from '../../../commands/content/blog.js'
import { BLOG_POSTS_PER_WEEK_MAX, TimeOfDay, TimeZone, Weekday } from '../../../domain/content/blog/schedule.js'
import {
  BLOG_TOPIC_KEYWORD_MAX_LENGTH,
  BLOG_TOPIC_NOTES_MAX_LENGTH,
  BLOG_TOPIC_REASON_MAX_LENGTH,
  BLOG_TOPIC_SOURCE_REF_MAX_LENGTH,
  BLOG_TOPIC_TITLE_MAX_LENGTH,
  BLOG_TOPIC_SOURCES,
  BLOG_TOPIC_STATUSES,
  BlogTopicInitialStatus,
  BlogTopicSource,
  BlogTopicStatus,
  CalendarDate,
} from '../../../domain/content/blog/topics.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  blogScheduleOf,
  blogTopicsForClient,
  blogTopicView,
  countScheduledBlogTopicsByClient,
  RECENT_TOPICS_MAX,
  recentTopicProfile,
  visibleBlogTopic,
} from '../../../projections/content/blog/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'content'

const TopicId = Id.describe('The blog topic (an integer id, as add_blog_topic or get_blog_topics_for_client answered)')
/** A count per value, every value present: an object with one described integer per key (OpenAPI sees each property). */
const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int().describe(`Count for ${k}`)])) as Record<K, z.ZodNumber>)

const Status = BlogTopicStatus.describe(
  'proposed, approved, drafted (a draft is written), scheduled (has a planned date), published (live; final) or rejected',
)
const Source = BlogTopicSource.describe(
  'Where the topic came from: keyword_gap (a keyword without a page), gsc_query (a Search Console query without a page), aeo_question (an AI Visibility question the client is not named for) or manual (a person)',
)
const limit = (max: number) => `at most ${max} characters`
const Title = z
  .string()
  .trim()
  .min(1)
  .max(BLOG_TOPIC_TITLE_MAX_LENGTH)
  .describe(`The post's working title (${limit(BLOG_TOPIC_TITLE_MAX_LENGTH)})`)
const TargetKeyword = z
  .string()
  .max(BLOG_TOPIC_KEYWORD_MAX_LENGTH)
  .describe(`The search phrase the post targets (${limit(BLOG_TOPIC_KEYWORD_MAX_LENGTH)}; '' for none)`)
const SourceRef = z
  .string()
  .max(BLOG_TOPIC_SOURCE_REF_MAX_LENGTH)
  .describe(
    `What in the source it came from: a keyword id, a Search Console query, an AI Visibility question id (${limit(BLOG_TOPIC_SOURCE_REF_MAX_LENGTH)}; '' for none)`,
  )
const Notes = z
  .string()
  .max(BLOG_TOPIC_NOTES_MAX_LENGTH)
  .describe(`Notes for the writer (${limit(BLOG_TOPIC_NOTES_MAX_LENGTH)})`)
const PlannedDate = CalendarDate.nullable().describe(
  "The local date (YYYY-MM-DD, in the schedule's time zone) the post is planned for; null: not planned",
)

const TopicSchema = z
  .object({
    id: TopicId,
    client_id: ClientId,
    title: z.string().describe("The post's working title"),
    target_keyword: z.string().describe("The search phrase it targets; '' when none"),
    source: Source,
    source_ref: z.string().describe("What in the source it came from; '' when none"),
    notes: z.string().describe('Notes for the writer'),
    status: Status,
    planned_date: z.string().nullable().describe('The local date the post is planned for (YYYY-MM-DD); null when not planned'),
    status_reason: z.string().describe("Why the last status move was made, as given; '' when none"),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
    status_changed_at: z.string().describe('When its status last changed, or it was added (ISO 8601)'),
  })
  .describe("A blog topic of the client's")

const ScheduleSchema = z
  .object({
    client_id: ClientId,
    posts_per_week: z.number().int().describe('Posts a week'),
    days: z.array(Weekday).describe('The days that may carry a post, in week order (mon … sun)'),
    time: z.string().describe('The local time of day posts go out, HH:MM (24-hour)'),
    timezone: z.string().describe('The IANA time zone of days and time (e.g. America/Chicago)'),
    active: z.boolean().describe('Whether posts go out on this schedule (false: paused)'),
    start_date: z.string().nullable().describe('The first local date a post may go out (YYYY-MM-DD); null: no start limit'),
    created_at: z.string().describe('When it was first set (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe("The client's publishing schedule")

const exampleTopic = {
  id: 41,
  client_id: 34,
  title: 'How Often Should You Clean Your Drains?',
  target_keyword: 'drain cleaning frequency',
  source: 'gsc_query' as const,
  source_ref: 'how often should drains be cleaned',
  notes: 'Answer the question in the first paragraph; link the drain cleaning page.',
  status: 'scheduled' as const,
  planned_date: '2026-12-08',
  status_reason: '',
  created_at: '2026-11-20T09:40:00.000Z',
  updated_at: '2026-11-24T15:02:00.000Z',
  status_changed_at: '2026-11-24T15:02:00.000Z',
}
const exampleSchedule = {
  client_id: 34,
  posts_per_week: 2,
  days: ['tue', 'thu'] as ('tue' | 'thu')[],
  time: '09:30',
  timezone: 'America/Chicago',
  active: true,
  start_date: '2026-12-01',
  created_at: '2026-11-20T09:40:00.000Z',
  updated_at: '2026-11-20T09:40:00.000Z',
}

const TRANSITIONS =
  'Statuses move proposed → approved → drafted → scheduled → published; a draft thrown away goes back to approved, a scheduled topic taken off ' +
  'the calendar back to drafted, any unpublished topic may be rejected and a rejected one re-opened as proposed; published is final. Another move ' +
  'answers 409 blog_topic_status_invalid naming the allowed ones.'

async function settledTopic(ctx: { read: ReadDb; orgId: number | null; settle: () => Promise<void> }, topicId: number) {
  await ctx.settle()
  return blogTopicView(await visibleBlogTopic(ctx.read, ctx.orgId, topicId))
}

export const blogRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_blog_topic',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      `Add a blog topic for the client: one per title (compared case- and punctuation-insensitively; 409 blog_topic_exists names the other). ` +
      `A title over ${BLOG_TOPIC_TITLE_MAX_LENGTH} characters or notes over ${BLOG_TOPIC_NOTES_MAX_LENGTH} answer 400 validation_failed. Returns the topic.`,
    example: {
      params: {
        client_id: 34,
        title: 'How Often Should You Clean Your Drains?',
        target_keyword: 'drain cleaning frequency',
        source: 'gsc_query',
        source_ref: 'how often should drains be cleaned',
      },
      result: {
        ...exampleTopic,
        status: 'proposed' as const,
        planned_date: null,
        notes: '',
        updated_at: exampleTopic.created_at,
        status_changed_at: exampleTopic.created_at,
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      title: Title,
      target_keyword: TargetKeyword.optional().describe("The search phrase the post targets (default '')"),
      source: Source.optional().describe('Where the topic came from (default manual)'),
      source_ref: SourceRef.optional().describe("What in the source it came from (default '')"),
      notes: Notes.optional().describe("Notes for the writer (default '')"),
      status: BlogTopicInitialStatus.optional().describe('proposed (default) or approved: a person may approve a topic as they add it'),
      planned_date: PlannedDate.optional().describe('The local date it is planned for (default null: not planned)'),
    }),
    result: TopicSchema,
    async handler(ctx) {
      const p = ctx.params
      await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const { topicId } = await addBlogTopic(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        title: p.title,
        targetKeyword: p.target_keyword ?? '',
        source: p.source ?? 'manual',
        sourceRef: p.source_ref ?? '',
        notes: p.notes ?? '',
        status: p.status ?? 'proposed',
        plannedDate: p.planned_date ?? null,
      })
      return settledTopic(ctx, topicId)
    },
  }),
  rpc({
    name: 'update_blog_topic',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a blog topic's title, target keyword, source ref, notes or planned date; what is left out stays, and the same values again change nothing. " +
      'A scheduled topic keeps a planned date (400 blog_topic_planned_date_required). Returns the topic.',
    example: {
      params: { topic_id: 41, notes: 'Answer the question in the first paragraph; link the drain cleaning page.' },
      result: exampleTopic,
    },
    params: z.strictObject({
      topic_id: TopicId,
      title: Title.optional().describe('The new title (default: unchanged)'),
      target_keyword: TargetKeyword.optional().describe('The new target keyword (default: unchanged)'),
      source_ref: SourceRef.optional().describe('The new source ref (default: unchanged)'),
      notes: Notes.optional().describe('The new notes (default: unchanged)'),
      planned_date: PlannedDate.optional().describe('The new planned local date, YYYY-MM-DD, or null to clear it (default: unchanged)'),
    }),
    result: TopicSchema,
    async handler(ctx) {
      const p = ctx.params
      const topic = await visibleBlogTopic(ctx.read, ctx.orgId, p.topic_id)
      await updateBlogTopic(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: topic.client_id,
        topicId: topic.id,
        title: p.title,
        targetKeyword: p.target_keyword,
        sourceRef: p.source_ref,
        notes: p.notes,
        plannedDate: p.planned_date,
      })
      return settledTopic(ctx, topic.id)
    },
  }),
  rpc({
    name: 'set_blog_topic_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      `Move a blog topic to another status. ${TRANSITIONS} Moving to scheduled needs a planned date (given here or already on the topic; ` +
      '400 blog_topic_planned_date_required otherwise). Staying where it is with the same planned date changes nothing. Returns the topic.',
    example: { params: { topic_id: 41, status: 'scheduled', planned_date: '2026-12-08' }, result: exampleTopic },
    params: z.strictObject({
      topic_id: TopicId,
      status: Status,
      planned_date: PlannedDate.optional().describe(
        'The planned local date to record with the move, or null to clear it (default: the topic’s)',
      ),
      reason: z
        .string()
        .max(BLOG_TOPIC_REASON_MAX_LENGTH)
        .optional()
        .describe(`Why (a rejection's reason, say; ${limit(BLOG_TOPIC_REASON_MAX_LENGTH)}; default '')`),
    }),
    result: TopicSchema,
    async handler(ctx) {
      const p = ctx.params
      const topic = await visibleBlogTopic(ctx.read, ctx.orgId, p.topic_id)
      await setBlogTopicStatus(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: topic.client_id,
        topicId: topic.id,
        status: p.status,
        plannedDate: p.planned_date,
        reason: p.reason ?? '',
      })
      return settledTopic(ctx, topic.id)
    },
  }),
  rpc({
    name: 'delete_blog_topic',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Delete a blog topic nothing was written for yet (proposed, approved or rejected): it leaves every read and its title is free again. ' +
      'A drafted, scheduled or published topic answers 409 blog_topic_not_deletable (reject it instead). Returns true.',
    example: { params: { topic_id: 42 }, result: true },
    params: z.strictObject({ topic_id: TopicId }),
    result: z.literal(true).describe('Always true: the topic is deleted'),
    async handler(ctx) {
      const topic = await visibleBlogTopic(ctx.read, ctx.orgId, ctx.params.topic_id)
      await deleteBlogTopic(ctx.write, ctx.command, { callerOrgId: ctx.orgId, clientId: topic.client_id, topicId: topic.id })
      return true as const
    },
  }),
  rpc({
    name: 'get_blog_topic',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'A blog topic: its title, target keyword, source, status and planned date.',
    example: { params: { topic_id: 41 }, result: exampleTopic },
    params: z.strictObject({ topic_id: TopicId }),
    result: TopicSchema,
    handler: async (ctx) => blogTopicView(await visibleBlogTopic(ctx.read, ctx.orgId, ctx.params.topic_id)),
  }),
  rpc({
    name: 'get_blog_topics_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's blog topics, oldest first, optionally only those of one status.",
    example: { params: { client_id: 34, status: 'scheduled' }, result: [exampleTopic] },
    params: z.strictObject({ client_id: ClientId, status: Status.optional().describe('Only topics of this status (default: all)') }),
    result: z.array(TopicSchema),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return (await blogTopicsForClient(ctx.read, ctx.params.client_id, ctx.params.status)).map(blogTopicView)
    },
  }),
  rpc({
    name: 'count_scheduled_blog_topics_by_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "How many scheduled blog topics each of the organization's clients has planned in the month (by planned_date): an object of client id → count; clients with none are left out (a platform key names org_id).",
    example: { params: { month: '2026-12' }, result: { '34': 8, '35': 4 } },
    params: z.strictObject({ month: Month.describe('The month of the planned dates, YYYY-MM') }),
    result: z.record(z.string(), z.number().int()).describe('Client id (as text) → scheduled topics planned in the month'),
    handler: async (ctx) => countScheduledBlogTopicsByClient(ctx.read, requireOrgId(ctx.orgId), ctx.params.month),
  }),
  rpc({
    name: 'get_recent_topic_profile',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "What the client's blog topics did in the last `days` days (default 30): topics added (by current status and by source), approved, published " +
      `and rejected, and the recent titles and target keywords (at most ${RECENT_TOPICS_MAX}, newest first), so a topic generator avoids repeats.`,
    example: {
      params: { client_id: 34, days: 30 },
      result: {
        client_id: 34,
        days: 30,
        since: '2026-10-28T12:00:00.000Z',
        added: 3,
        by_status: { proposed: 1, approved: 0, drafted: 0, scheduled: 1, published: 0, rejected: 1 },
        by_source: { keyword_gap: 1, gsc_query: 1, aeo_question: 0, manual: 1 },
        approved: 1,
        published: 0,
        rejected: 1,
        recent: [
          {
            topic_id: 41,
            title: exampleTopic.title,
            target_keyword: exampleTopic.target_keyword,
            status: 'scheduled' as const,
            source: 'gsc_query' as const,
            changed_at: '2026-11-24T15:02:00.000Z',
          },
        ],
        target_keywords: ['drain cleaning frequency'],
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      days: z.number().int().min(1).max(365).default(30).describe('The window, in days back from now (default 30, at most 365)'),
    }),
    result: z
      .object({
        client_id: ClientId,
        days: z.number().int().describe('The window in days'),
        since: z.string().describe('The window’s start (ISO 8601)'),
        added: z.number().int().describe('Topics added in the window'),
        by_status: countsOf(BLOG_TOPIC_STATUSES).describe('Topics added in the window, by their status now'),
        by_source: countsOf(BLOG_TOPIC_SOURCES).describe('Topics added in the window, by source'),
        approved: z.number().int().describe('Topics moved to approved in the window'),
        published: z.number().int().describe('Topics moved to published in the window'),
        rejected: z.number().int().describe('Topics moved to rejected in the window'),
        recent: z
          .array(
            z.object({
              topic_id: TopicId,
              title: z.string().describe('Its title'),
              target_keyword: z.string().describe("Its target keyword; '' when none"),
              status: Status,
              source: Source,
              changed_at: z.string().describe('When it was added or last moved (ISO 8601)'),
            }),
          )
          .describe('Topics added or moved in the window, newest first'),
        target_keywords: z.array(z.string()).describe('The distinct target keywords of those topics'),
      })
      .describe("The client's recent topic activity"),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const since = new Date(ctx.write.clock().getTime() - ctx.params.days * 24 * 60 * 60 * 1000)
      return recentTopicProfile(ctx.read, client.id, ctx.params.days, since)
    },
  }),
  rpc({
    name: 'set_blog_schedule',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Set the client's publishing schedule whole: posts_per_week posts go out each week on the listed days (spread evenly over them when fewer), at " +
      'the local time in the IANA time zone (clock changes followed). More posts than days, an unknown zone or a bad time answer 400 validation_failed. Returns the schedule.',
    example: {
      params: {
        client_id: 34,
        posts_per_week: 2,
        days: ['tue', 'thu'],
        time: '09:30',
        timezone: 'America/Chicago',
        start_date: '2026-12-01',
      },
      result: exampleSchedule,
    },
    params: z.strictObject({
      client_id: ClientId,
      posts_per_week: z
        .number()
        .int()
        .min(1)
        .max(BLOG_POSTS_PER_WEEK_MAX)
        .describe(`Posts a week (1 to ${BLOG_POSTS_PER_WEEK_MAX}); at most as many as days`),
      days: z
        .array(Weekday)
        .min(1)
        .max(7)
        .describe('The days that may carry a post: mon, tue, wed, thu, fri, sat, sun (each at most once)'),
      time: TimeOfDay.describe('The local time of day posts go out, HH:MM (24-hour)'),
      timezone: TimeZone.describe('The IANA time zone of days and time (e.g. America/Chicago, Europe/London, UTC)'),
      active: z.boolean().optional().describe('Whether posts go out on it (default true; false pauses it)'),
      start_date: CalendarDate.nullable()
        .optional()
        .describe('The first local date a post may go out, YYYY-MM-DD (default null: no start limit)'),
    }),
    result: ScheduleSchema,
    async handler(ctx) {
      const p = ctx.params
      await visibleClient(ctx.read, ctx.orgId, p.client_id)
      await setBlogSchedule(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        schedule: {
          postsPerWeek: p.posts_per_week,
          days: p.days,
          time: p.time,
          timezone: p.timezone,
          active: p.active ?? true,
          startDate: p.start_date ?? null,
        },
      })
      await ctx.settle()
      return (await blogScheduleOf(ctx.read, p.client_id))!
    },
  }),
  rpc({
    name: 'get_blog_schedule',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's publishing schedule (posts a week, days, time of day, time zone, active, start date); null when none was set.",
    example: { params: { client_id: 34 }, result: exampleSchedule },
    params: z.strictObject({ client_id: ClientId }),
    result: ScheduleSchema.nullable(),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return blogScheduleOf(ctx.read, client.id)
    },
  }),
]
