import { blogScheduleStream, clientBlogSchedule } from '../../domain/content/blog/blog-schedule.js'
import { type BlogTopicsCommand, clientBlogTopics } from '../../domain/content/blog/client-blog-topics.js'
import type { BlogSchedule } from '../../domain/content/blog/schedule.js'
import type { BlogTopicSource, BlogTopicStatus } from '../../domain/content/blog/topics.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

export { blogScheduleStream }

/** The client's publishing schedule, folded from its stream (null until one is set). */
export async function loadBlogSchedule(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<BlogSchedule | null> {
  return (await loadState(deps.store, clientBlogSchedule, clientId)).schedule
}

async function onTopics(
  deps: WriteDeps,
  context: CommandContext,
  callerOrgId: number | null,
  command: BlogTopicsCommand,
): Promise<{ changed: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, command.client_id, callerOrgId)
  const outcome = await handleCommand(deps, { aggregate: clientBlogTopics, id: command.client_id, command, context, orgId: client.orgId })
  return { changed: outcome.events.length > 0, position: outcome.position }
}

/**
 * add_blog_topic (and the pipeline's proposals): a new topic of the client, one per title (blog_topic_exists
 * names the other). The client must be the caller's and not deleted.
 */
export async function addBlogTopic(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    title: string
    targetKeyword: string
    source: BlogTopicSource
    sourceRef: string
    notes: string
    status: BlogTopicStatus
    plannedDate: string | null
  },
): Promise<{ topicId: number; position: Position | null }> {
  await writableClient(deps.store, input.clientId, input.callerOrgId)
  const topicId = await deps.ids.next('blog_topic')
  const { position } = await onTopics(deps, context, input.callerOrgId, {
    type: 'AddBlogTopic',
    client_id: input.clientId,
    topic_id: topicId,
    title: input.title,
    target_keyword: input.targetKeyword,
    source: input.source,
    source_ref: input.sourceRef,
    notes: input.notes,
    status: input.status,
    planned_date: input.plannedDate,
  })
  return { topicId, position }
}

/** update_blog_topic: new title, keyword, source ref, notes or planned date; what is left out stays. */
export function updateBlogTopic(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    topicId: number
    title?: string | undefined
    targetKeyword?: string | undefined
    sourceRef?: string | undefined
    notes?: string | undefined
    plannedDate?: string | null | undefined
  },
) {
  return onTopics(deps, context, input.callerOrgId, {
    type: 'UpdateBlogTopic',
    client_id: input.clientId,
    topic_id: input.topicId,
    title: input.title,
    target_keyword: input.targetKeyword,
    source_ref: input.sourceRef,
    notes: input.notes,
    planned_date: input.plannedDate,
  })
}

/** set_blog_topic_status: a move along the status table (a scheduled topic needs a planned date). */
export function setBlogTopicStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    topicId: number
    status: BlogTopicStatus
    plannedDate?: string | null | undefined
    reason: string
  },
) {
  return onTopics(deps, context, input.callerOrgId, {
    type: 'SetBlogTopicStatus',
    client_id: input.clientId,
    topic_id: input.topicId,
    status: input.status,
    planned_date: input.plannedDate,
    reason: input.reason,
  })
}

/** delete_blog_topic: only a topic nothing was written for yet (proposed, approved, rejected). */
export function deleteBlogTopic(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; topicId: number },
) {
  return onTopics(deps, context, input.callerOrgId, { type: 'DeleteBlogTopic', client_id: input.clientId, topic_id: input.topicId })
}

/** set_blog_schedule: the client's whole publishing schedule; the same schedule again changes nothing. */
export async function setBlogSchedule(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; schedule: BlogSchedule },
): Promise<{ changed: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: clientBlogSchedule,
    id: input.clientId,
    command: { type: 'SetBlogSchedule', client_id: input.clientId, schedule: input.schedule },
    context,
    orgId: client.orgId,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}
