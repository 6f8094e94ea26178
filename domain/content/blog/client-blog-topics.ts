import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { BlogTopicEvent } from './events.js'
import {
  assertBlogTopicTransition,
  BLOG_TOPIC_DELETABLE,
  BLOG_TOPIC_INITIAL_STATUSES,
  BLOG_TOPICS_PER_CLIENT_MAX,
  type BlogTopicSource,
  type BlogTopicStatus,
  topicTitleKey,
} from './topics.js'

/**
 * A client's blog topics: one stream, `blog_topics-<client_id>`, so "one topic per title of the client" is
 * decided against them all with one append (two generators proposing the same title cannot both win).
 */
export const blogTopicsStream = (clientId: number) => `blog_topics-${clientId}`

export interface BlogTopicRecord {
  readonly id: number
  readonly title: string
  readonly titleKey: string
  readonly targetKeyword: string
  readonly source: BlogTopicSource
  readonly sourceRef: string
  readonly notes: string
  readonly status: BlogTopicStatus
  readonly plannedDate: string | null
  readonly deleted: boolean
}

export interface ClientBlogTopicsState {
  readonly clientId: number
  readonly topics: readonly BlogTopicRecord[]
}

interface TopicValues {
  title: string
  target_keyword: string
  source_ref: string
  notes: string
  planned_date: string | null
}

export type BlogTopicsCommand =
  | ({ type: 'AddBlogTopic'; client_id: number; topic_id: number; source: BlogTopicSource; status: BlogTopicStatus } & TopicValues)
  | ({ type: 'UpdateBlogTopic'; client_id: number; topic_id: number } & { [K in keyof TopicValues]?: TopicValues[K] | undefined })
  | {
      type: 'SetBlogTopicStatus'
      client_id: number
      topic_id: number
      status: BlogTopicStatus
      /** The planned local date to record with the move; undefined keeps the topic's. */
      planned_date?: string | null | undefined
      reason: string
    }
  | { type: 'DeleteBlogTopic'; client_id: number; topic_id: number }

const initialState = (): ClientBlogTopicsState => ({ clientId: 0, topics: [] })

/** The topic with this id, deleted or not. */
export function findBlogTopic(state: ClientBlogTopicsState, topicId: number): BlogTopicRecord | undefined {
  return state.topics.find((t) => t.id === topicId)
}

function liveTopic(state: ClientBlogTopicsState, topicId: number): BlogTopicRecord {
  const topic = findBlogTopic(state, topicId)
  if (!topic || topic.deleted) throw new NotFoundError('blog topic', topicId)
  return topic
}

function patch(state: ClientBlogTopicsState, topicId: number, change: Partial<BlogTopicRecord>): ClientBlogTopicsState {
  return { ...state, topics: state.topics.map((t) => (t.id === topicId ? { ...t, ...change } : t)) }
}

function evolve(state: ClientBlogTopicsState, event: BlogTopicEvent): ClientBlogTopicsState {
  switch (event.type) {
    case 'BlogTopicAdded': {
      const d = event.data
      const topic: BlogTopicRecord = {
        id: d.topic_id,
        title: d.title,
        titleKey: topicTitleKey(d.title),
        targetKeyword: d.target_keyword,
        source: d.source,
        sourceRef: d.source_ref,
        notes: d.notes,
        status: d.status,
        plannedDate: d.planned_date,
        deleted: false,
      }
      return { clientId: d.client_id, topics: [...state.topics, topic] }
    }
    case 'BlogTopicUpdated': {
      const d = event.data
      return patch(state, d.topic_id, {
        title: d.title,
        titleKey: topicTitleKey(d.title),
        targetKeyword: d.target_keyword,
        sourceRef: d.source_ref,
        notes: d.notes,
        plannedDate: d.planned_date,
      })
    }
    case 'BlogTopicStatusChanged':
      return patch(state, event.data.topic_id, { status: event.data.to, plannedDate: event.data.planned_date })
    case 'BlogTopicDeleted':
      return patch(state, event.data.topic_id, { deleted: true })
    default:
      return assertNever(event)
  }
}

function assertTitleFree(state: ClientBlogTopicsState, title: string, self: number): string {
  const key = topicTitleKey(title)
  if (key === '') throw new DomainError('validation_failed', 'The blog topic is invalid', 'title: must hold a letter or a digit')
  const holder = state.topics.find((t) => !t.deleted && t.id !== self && t.titleKey === key)
  if (holder) {
    throw new DomainError(
      'blog_topic_exists',
      'The client already has a blog topic with this title',
      `blog topic ${holder.id} ("${holder.title}", ${holder.status}) has the same title`,
    )
  }
  return key
}

function assertPlanned(topicId: number, status: BlogTopicStatus, plannedDate: string | null): void {
  if (status === 'scheduled' && plannedDate === null) {
    throw new DomainError(
      'blog_topic_planned_date_required',
      'A scheduled blog topic needs a planned date',
      `blog topic ${topicId}: give planned_date (YYYY-MM-DD) to schedule it`,
    )
  }
}

function decide(command: BlogTopicsCommand, state: ClientBlogTopicsState): BlogTopicEvent[] {
  switch (command.type) {
    case 'AddBlogTopic': {
      // The id was allocated for this request: finding it means a retried request already added it.
      if (findBlogTopic(state, command.topic_id)) return []
      if (!(BLOG_TOPIC_INITIAL_STATUSES as readonly string[]).includes(command.status)) {
        throw new DomainError(
          'validation_failed',
          'The blog topic is invalid',
          `status: a new topic is ${BLOG_TOPIC_INITIAL_STATUSES.join(' or ')}`,
        )
      }
      const title = command.title.trim()
      assertTitleFree(state, title, command.topic_id)
      const live = state.topics.filter((t) => !t.deleted).length
      if (live >= BLOG_TOPICS_PER_CLIENT_MAX) {
        throw new DomainError(
          'blog_topic_limit',
          'The client has the most blog topics allowed',
          `at most ${BLOG_TOPICS_PER_CLIENT_MAX} topics per client`,
        )
      }
      const { type: _type, ...data } = command
      return [
        {
          type: 'BlogTopicAdded',
          data: {
            ...data,
            title,
            target_keyword: data.target_keyword.trim(),
            source_ref: data.source_ref.trim(),
            notes: data.notes.trim(),
          },
        },
      ]
    }
    case 'UpdateBlogTopic': {
      const topic = liveTopic(state, command.topic_id)
      const next = {
        title: command.title === undefined ? topic.title : command.title.trim(),
        target_keyword: command.target_keyword === undefined ? topic.targetKeyword : command.target_keyword.trim(),
        source_ref: command.source_ref === undefined ? topic.sourceRef : command.source_ref.trim(),
        notes: command.notes === undefined ? topic.notes : command.notes.trim(),
        planned_date: command.planned_date === undefined ? topic.plannedDate : command.planned_date,
      }
      if (next.title !== topic.title) assertTitleFree(state, next.title, topic.id)
      assertPlanned(topic.id, topic.status, next.planned_date)
      const unchanged =
        next.title === topic.title &&
        next.target_keyword === topic.targetKeyword &&
        next.source_ref === topic.sourceRef &&
        next.notes === topic.notes &&
        next.planned_date === topic.plannedDate
      if (unchanged) return [] // the same values again (a retried request) change nothing
      return [{ type: 'BlogTopicUpdated', data: { client_id: command.client_id, topic_id: topic.id, ...next } }]
    }
    case 'SetBlogTopicStatus': {
      const topic = liveTopic(state, command.topic_id)
      assertBlogTopicTransition(topic.id, topic.status, command.status)
      const plannedDate = command.planned_date === undefined ? topic.plannedDate : command.planned_date
      assertPlanned(topic.id, command.status, plannedDate)
      if (command.status === topic.status && plannedDate === topic.plannedDate) return []
      return [
        {
          type: 'BlogTopicStatusChanged',
          data: {
            client_id: command.client_id,
            topic_id: topic.id,
            from: topic.status,
            to: command.status,
            planned_date: plannedDate,
            reason: command.reason.trim(),
          },
        },
      ]
    }
    case 'DeleteBlogTopic': {
      const topic = findBlogTopic(state, command.topic_id)
      if (!topic) throw new NotFoundError('blog topic', command.topic_id)
      if (topic.deleted) return [] // deleting again changes nothing (a retried request)
      if (!BLOG_TOPIC_DELETABLE.includes(topic.status)) {
        throw new DomainError(
          'blog_topic_not_deletable',
          'The blog topic has been written and cannot be deleted',
          `blog topic ${topic.id} is ${topic.status}; only ${BLOG_TOPIC_DELETABLE.join(', ')} topics can be deleted`,
        )
      }
      return [{ type: 'BlogTopicDeleted', data: { client_id: command.client_id, topic_id: topic.id } }]
    }
    default:
      return assertNever(command)
  }
}

export const clientBlogTopics: Aggregate<ClientBlogTopicsState, BlogTopicsCommand, BlogTopicEvent> = {
  streamOf: blogTopicsStream,
  initialState,
  evolve,
  decide,
  entity: 'blog topic',
}
