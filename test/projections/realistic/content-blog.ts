import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The blog part of the realistic log, through HTTP: topics added with defaults and with every field, a
 * duplicate title refused, updates, moves along the statuses to published and to rejected, a refused move,
 * a deletion, schedules set and changed, and a foreign update refused.
 */
export async function writeBlogLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const drains = await call<{ id: number }>('add_blog_topic', { client_id: plumbers, title: 'How to Unclog a Drain' }, keys.orgA)
  const heater = await call<{ id: number }>(
    'add_blog_topic',
    {
      client_id: heaters,
      title: 'Tankless Water Heaters',
      target_keyword: 'tankless water heater',
      source: 'keyword_gap',
      source_ref: '17',
      notes: 'Compare costs',
      status: 'approved',
      planned_date: '2026-12-10',
    },
    keys.orgA,
  )
  const dup = await ts.rpc('add_blog_topic', { client_id: plumbers, title: 'how to unclog a drain!' }, keys.orgA)
  if (dup.statusCode !== 409) throw new Error(`a duplicate title answered ${dup.statusCode}`)
  await call('update_blog_topic', { topic_id: drains.id, target_keyword: 'unclog drain', notes: 'No chemicals' }, keys.orgA)
  for (const status of ['approved', 'drafted']) await call('set_blog_topic_status', { topic_id: drains.id, status }, keys.orgA)
  await call('set_blog_topic_status', { topic_id: drains.id, status: 'scheduled', planned_date: '2026-12-03' }, keys.orgA)
  await call('set_blog_topic_status', { topic_id: drains.id, status: 'published' }, keys.orgA)
  const refused = await ts.rpc('set_blog_topic_status', { topic_id: drains.id, status: 'drafted' }, keys.orgA)
  if (refused.statusCode !== 409) throw new Error(`a refused status move answered ${refused.statusCode}`)
  await call('set_blog_topic_status', { topic_id: heater.id, status: 'rejected', reason: 'Covered already' }, keys.orgA)
  const spare = await call<{ id: number }>(
    'add_blog_topic',
    { client_id: plumbers, title: 'Spare topic', source: 'aeo_question' },
    keys.orgA,
  )
  await call('delete_blog_topic', { topic_id: spare.id }, keys.orgA)
  const schedule = { client_id: plumbers, posts_per_week: 2, days: ['tue', 'thu'], time: '09:30', timezone: 'America/Chicago' }
  await call('set_blog_schedule', schedule, keys.orgA)
  await call('set_blog_schedule', { ...schedule, active: false, start_date: '2027-01-04' }, keys.orgA)
  await call('set_blog_schedule', { client_id: bravo, posts_per_week: 1, days: ['mon'], time: '08:00', timezone: 'UTC' }, keys.orgB)
  await call('add_blog_topic', { client_id: bravo, title: 'About us', source: 'gsc_query' }, keys.orgB)
  const foreign = await ts.rpc('update_blog_topic', { topic_id: drains.id, title: 'Taken over' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign update_blog_topic answered ${foreign.statusCode}`)
}
