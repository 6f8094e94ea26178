import type { Aggregate } from '../../shared/aggregate.js'
import type { BlogScheduleEvent } from './events.js'
import { type BlogSchedule, normalizeSchedule } from './schedule.js'

/** A client's publishing schedule: its own stream, `blog_schedule-<client_id>`, set whole each time. */
export const blogScheduleStream = (clientId: number) => `blog_schedule-${clientId}`

export interface BlogScheduleState {
  readonly clientId: number
  /** null until the first set_blog_schedule. */
  readonly schedule: BlogSchedule | null
}

export interface SetBlogScheduleCommand {
  type: 'SetBlogSchedule'
  client_id: number
  schedule: BlogSchedule
}

const initialState = (): BlogScheduleState => ({ clientId: 0, schedule: null })

function evolve(_state: BlogScheduleState, event: BlogScheduleEvent): BlogScheduleState {
  const d = event.data
  return {
    clientId: d.client_id,
    schedule: {
      postsPerWeek: d.posts_per_week,
      days: d.days,
      time: d.time,
      timezone: d.timezone,
      active: d.active,
      startDate: d.start_date,
    },
  }
}

function sameSchedule(a: BlogSchedule, b: BlogSchedule): boolean {
  return (
    a.postsPerWeek === b.postsPerWeek &&
    a.days.join(',') === b.days.join(',') &&
    a.time === b.time &&
    a.timezone === b.timezone &&
    a.active === b.active &&
    a.startDate === b.startDate
  )
}

function decide(command: SetBlogScheduleCommand, state: BlogScheduleState): BlogScheduleEvent[] {
  const next = normalizeSchedule(command.schedule)
  if (state.schedule && sameSchedule(state.schedule, next)) return [] // the same schedule again changes nothing
  return [
    {
      type: 'BlogScheduleSet',
      data: {
        client_id: command.client_id,
        posts_per_week: next.postsPerWeek,
        days: [...next.days],
        time: next.time,
        timezone: next.timezone,
        active: next.active,
        start_date: next.startDate,
      },
    },
  ]
}

export const clientBlogSchedule: Aggregate<BlogScheduleState, SetBlogScheduleCommand, BlogScheduleEvent> = {
  streamOf: blogScheduleStream,
  initialState,
  evolve,
  decide,
  entity: 'blog schedule',
}
