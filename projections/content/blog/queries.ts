import { sql, type Selectable } from 'kysely'
import { type Weekday, WEEKDAYS } from '../../../domain/content/blog/schedule.js'
import { BLOG_TOPIC_SOURCES, BLOG_TOPIC_STATUSES, type BlogTopicSource, type BlogTopicStatus } from '../../../domain/content/blog/topics.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { BlogSchedulesTable, BlogTopicsTable } from './tables.js'

export type BlogTopicRow = Selectable<BlogTopicsTable>

/** A blog topic as the API shows it. */
export interface BlogTopicView {
  id: number
  client_id: number
  title: string
  target_keyword: string
  source: BlogTopicSource
  source_ref: string
  notes: string
  status: BlogTopicStatus
  planned_date: string | null
  status_reason: string
  created_at: string
  updated_at: string
  status_changed_at: string
}

export function blogTopicView(row: BlogTopicRow): BlogTopicView {
  return {
    id: row.id,
    client_id: row.client_id,
    title: row.title,
    target_keyword: row.target_keyword,
    source: row.source as BlogTopicSource,
    source_ref: row.source_ref,
    notes: row.notes,
    status: row.status as BlogTopicStatus,
    planned_date: row.planned_date,
    status_reason: row.status_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    status_changed_at: row.status_changed_at.toISOString(),
  }
}

/** The topic if the caller may see it (null: any organization) and it is not deleted; otherwise the same not-found. */
export async function visibleBlogTopic(db: ReadDb, orgId: number | null, topicId: number): Promise<BlogTopicRow> {
  let query = db.selectFrom('blog_topics').selectAll().where('id', '=', topicId).where('deleted', '=', false)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('blog topic', topicId)
  return row
}

/** The client's topics (not deleted), oldest first, optionally of one status. */
export async function blogTopicsForClient(db: ReadDb, clientId: number, status?: BlogTopicStatus): Promise<BlogTopicRow[]> {
  let query = db.selectFrom('blog_topics').selectAll().where('client_id', '=', clientId).where('deleted', '=', false)
  if (status !== undefined) query = query.where('status', '=', status)
  return query.orderBy('id').execute()
}

/** Scheduled topics planned in `month` (YYYY-MM), per client of the organization: client id → count; clients with none are absent. */
export async function countScheduledBlogTopicsByClient(db: ReadDb, orgId: number, month: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('blog_topics')
    .select(['client_id', sql<number>`count(*)::int`.as('count')])
    .where('org_id', '=', orgId)
    .where('status', '=', 'scheduled')
    .where('deleted', '=', false)
    .where('planned_date', '>=', `${month}-01`)
    .where('planned_date', '<=', `${month}-31`)
    .groupBy('client_id')
    .orderBy('client_id')
    .execute()
  return Object.fromEntries(rows.map((r) => [String(r.client_id), Number(r.count)]))
}

/** How many recent titles the profile lists at most. */
export const RECENT_TOPICS_MAX = 200

export interface RecentTopicProfile {
  client_id: number
  days: number
  since: string
  /** Topics added in the window. */
  added: number
  /** Of the topics added in the window, how many are in each status now. */
  by_status: Record<BlogTopicStatus, number>
  /** Of the topics added in the window, how many came from each source. */
  by_source: Record<BlogTopicSource, number>
  /** Topics moved to approved / published / rejected in the window (whenever they were added). */
  approved: number
  published: number
  rejected: number
  /** Topics added, approved, published or rejected in the window, newest change first (at most RECENT_TOPICS_MAX). */
  recent: {
    topic_id: number
    title: string
    target_keyword: string
    status: BlogTopicStatus
    source: BlogTopicSource
    changed_at: string
  }[]
  /** The distinct target keywords of those topics, as written. */
  target_keywords: string[]
}

/** What the client's topics did since `since`: for a generator to avoid repeating itself. */
export async function recentTopicProfile(db: ReadDb, clientId: number, days: number, since: Date): Promise<RecentTopicProfile> {
  const rows = await db
    .selectFrom('blog_topics')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('deleted', '=', false)
    .where((eb) =>
      eb.or([
        eb('created_at', '>=', since),
        eb('approved_at', '>=', since),
        eb('published_at', '>=', since),
        eb('rejected_at', '>=', since),
      ]),
    )
    .execute()
  const byStatus = Object.fromEntries(BLOG_TOPIC_STATUSES.map((s) => [s, 0])) as Record<BlogTopicStatus, number>
  const bySource = Object.fromEntries(BLOG_TOPIC_SOURCES.map((s) => [s, 0])) as Record<BlogTopicSource, number>
  const inWindow = (at: Date | null) => at !== null && at.getTime() >= since.getTime()
  let added = 0
  let approved = 0
  let published = 0
  let rejected = 0
  for (const row of rows) {
    if (inWindow(row.created_at)) {
      added += 1
      byStatus[row.status as BlogTopicStatus] += 1
      bySource[row.source as BlogTopicSource] += 1
    }
    if (inWindow(row.approved_at)) approved += 1
    if (inWindow(row.published_at)) published += 1
    if (inWindow(row.rejected_at)) rejected += 1
  }
  const recent = rows
    .map((row) => ({ row, changedAt: row.status_changed_at }))
    .sort((a, b) => b.changedAt.getTime() - a.changedAt.getTime() || b.row.id - a.row.id)
    .slice(0, RECENT_TOPICS_MAX)
    .map(({ row, changedAt }) => ({
      topic_id: row.id,
      title: row.title,
      target_keyword: row.target_keyword,
      status: row.status as BlogTopicStatus,
      source: row.source as BlogTopicSource,
      changed_at: changedAt.toISOString(),
    }))
  const keywords = [...new Set(recent.map((r) => r.target_keyword).filter((k) => k !== ''))]
  return {
    client_id: clientId,
    days,
    since: since.toISOString(),
    added,
    by_status: byStatus,
    by_source: bySource,
    approved,
    published,
    rejected,
    recent,
    target_keywords: keywords,
  }
}

/** A publishing schedule as the API shows it. */
export interface BlogScheduleView {
  client_id: number
  posts_per_week: number
  days: Weekday[]
  time: string
  timezone: string
  active: boolean
  start_date: string | null
  created_at: string
  updated_at: string
}

export function blogScheduleView(row: Selectable<BlogSchedulesTable>): BlogScheduleView {
  return {
    client_id: row.client_id,
    posts_per_week: row.posts_per_week,
    days: row.days.split(',').filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d)),
    time: row.time_of_day,
    timezone: row.timezone,
    active: row.active,
    start_date: row.start_date,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The client's publishing schedule; null when none was ever set. */
export async function blogScheduleOf(db: ReadDb, clientId: number): Promise<BlogScheduleView | null> {
  const row = await db.selectFrom('blog_schedules').selectAll().where('client_id', '=', clientId).executeTakeFirst()
  return row ? blogScheduleView(row) : null
}
