/**
 * Blog topics and the publishing schedule through the RPCs: add with defaults and every field, one topic per
 * title, updates, the status table (and moves it refuses), deletion, the reads and the profile, the schedule,
 * limits, and another organization's records answering like missing ones.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, client, foreignClient }
}

t.test('topics: add, read, update, move, delete, count and profile', async (t) => {
  const { ts, org, client } = await setup(t)
  const bare = await ts.call<any>('add_blog_topic', { client_id: client, title: '  How to Unclog a Drain ' }, org.key)
  t.match(bare, {
    client_id: client,
    title: 'How to Unclog a Drain',
    target_keyword: '',
    source: 'manual',
    source_ref: '',
    notes: '',
    status: 'proposed',
    planned_date: null,
  })
  const full = await ts.call<any>(
    'add_blog_topic',
    {
      client_id: client,
      title: 'Tankless Heaters',
      target_keyword: 'tankless heater',
      source: 'keyword_gap',
      source_ref: '17',
      notes: 'Costs',
      status: 'approved',
      planned_date: '2026-12-10',
    },
    org.key,
  )
  t.match(full, { status: 'approved', source: 'keyword_gap', planned_date: '2026-12-10' })
  const dup = expectError(
    t,
    await ts.rpc('add_blog_topic', { client_id: client, title: 'how to UNCLOG a drain?' }, org.key),
    409,
    'blog_topic_exists',
  )
  t.match(dup.detail, `blog topic ${bare.id}`)
  t.same(await ts.call('get_blog_topic', { topic_id: bare.id }, org.key), bare)

  const stream = `blog_topics-${client}`
  const updated = await ts.call<any>('update_blog_topic', { topic_id: bare.id, notes: 'No chemicals' }, org.key)
  t.match(updated, { notes: 'No chemicals', title: 'How to Unclog a Drain' }, 'what is left out stays')
  const count = (await streamEvents(ts, stream)).length
  t.same(await ts.call('update_blog_topic', { topic_id: bare.id, notes: 'No chemicals' }, org.key), updated)
  t.equal((await streamEvents(ts, stream)).length, count, 'the same values again record nothing')

  // The status table.
  const refused = expectError(
    t,
    await ts.rpc('set_blog_topic_status', { topic_id: bare.id, status: 'published' }, org.key),
    409,
    'blog_topic_status_invalid',
  )
  t.match(refused.detail, /proposed; it may move to approved, rejected, not published/)
  await ts.call('set_blog_topic_status', { topic_id: bare.id, status: 'approved' }, org.key)
  await ts.call('set_blog_topic_status', { topic_id: bare.id, status: 'drafted' }, org.key)
  expectError(
    t,
    await ts.rpc('set_blog_topic_status', { topic_id: bare.id, status: 'scheduled' }, org.key),
    400,
    'blog_topic_planned_date_required',
  )
  t.match(await ts.call('set_blog_topic_status', { topic_id: bare.id, status: 'scheduled', planned_date: '2026-12-03' }, org.key), {
    status: 'scheduled',
    planned_date: '2026-12-03',
  })
  expectError(
    t,
    await ts.rpc('update_blog_topic', { topic_id: bare.id, planned_date: null }, org.key),
    400,
    'blog_topic_planned_date_required',
  )
  t.same(await ts.call('count_scheduled_blog_topics_by_client', { month: '2026-12' }, org.key), { [String(client)]: 1 })
  t.same(await ts.call('count_scheduled_blog_topics_by_client', { month: '2026-11' }, org.key), {})
  expectError(t, await ts.rpc('delete_blog_topic', { topic_id: bare.id }, org.key), 409, 'blog_topic_not_deletable')
  await ts.call('set_blog_topic_status', { topic_id: bare.id, status: 'published' }, org.key)
  const final = expectError(
    t,
    await ts.rpc('set_blog_topic_status', { topic_id: bare.id, status: 'drafted' }, org.key),
    409,
    'blog_topic_status_invalid',
  )
  t.match(final.detail, 'published is final')
  t.match(await ts.call('set_blog_topic_status', { topic_id: full.id, status: 'rejected', reason: 'Covered already' }, org.key), {
    status: 'rejected',
    status_reason: 'Covered already',
  })

  t.same(
    (await ts.call<any[]>('get_blog_topics_for_client', { client_id: client }, org.key)).map((x) => x.id),
    [bare.id, full.id],
  )
  t.same(
    (await ts.call<any[]>('get_blog_topics_for_client', { client_id: client, status: 'published' }, org.key)).map((x) => x.id),
    [bare.id],
  )

  const profile = await ts.call<any>('get_recent_topic_profile', { client_id: client }, org.key)
  t.match(profile, { client_id: client, days: 30, added: 2, approved: 2, published: 1, rejected: 1 })
  t.match(profile.by_status, { published: 1, rejected: 1, proposed: 0 })
  t.match(profile.by_source, { manual: 1, keyword_gap: 1 })
  t.same(profile.recent.map((r: any) => r.topic_id).sort(), [bare.id, full.id].sort())
  t.same(profile.target_keywords, ['tankless heater'])

  // Deleting frees the title; a deleted topic reads as missing.
  const spare = await ts.call<any>('add_blog_topic', { client_id: client, title: 'Spare' }, org.key)
  t.equal(await ts.call('delete_blog_topic', { topic_id: spare.id }, org.key), true)
  expectError(t, await ts.rpc('get_blog_topic', { topic_id: spare.id }, org.key), 404, 'not_found')
  t.match(await ts.call('add_blog_topic', { client_id: client, title: 'spare' }, org.key), { title: 'spare' })
  const events = await streamEvents(ts, stream)
  t.equal(events[0]!.metadata.org_id, org.orgId)
  t.ok(events.some((e) => e.type === 'BlogTopicDeleted'))
})

t.test('limits and bad input are refused and record nothing', async (t) => {
  const { ts, org, client } = await setup(t)
  const huge = expectError(
    t,
    await ts.rpc('add_blog_topic', { client_id: client, title: 'x'.repeat(100_000) }, org.key),
    400,
    'validation_failed',
  )
  t.match(JSON.stringify(huge), /300/, 'the limit is named')
  expectError(
    t,
    await ts.rpc('add_blog_topic', { client_id: client, title: 'ok', notes: 'x'.repeat(10_001) }, org.key),
    400,
    'validation_failed',
  )
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: '   ' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: '!!!' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: 'ok', status: 'published' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: 'ok', source: 'rss' }, org.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('add_blog_topic', { client_id: client, title: 'ok', planned_date: '2026-02-30' }, org.key),
    400,
    'validation_failed',
  )
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: 'ok', other: 1 }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('count_scheduled_blog_topics_by_client', { month: '2026-13' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('get_recent_topic_profile', { client_id: client, days: 0 }, org.key), 400, 'validation_failed')
  t.same(await ts.call('get_blog_topics_for_client', { client_id: client }, org.key), [], 'nothing refused was recorded')
  await ts.call('set_client_status', { client_id: client, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('add_blog_topic', { client_id: client, title: 'ok' }, org.key), 409, 'client_deleted')
})

t.test('the publishing schedule', async (t) => {
  const { ts, org, client } = await setup(t)
  t.equal(await ts.call('get_blog_schedule', { client_id: client }, org.key), null, 'none until set')
  const base = { client_id: client, posts_per_week: 2, days: ['thu', 'tue'], time: '09:30', timezone: 'America/Chicago' }
  const set = await ts.call<any>('set_blog_schedule', base, org.key)
  t.match(set, {
    client_id: client,
    posts_per_week: 2,
    days: ['tue', 'thu'],
    time: '09:30',
    timezone: 'America/Chicago',
    active: true,
    start_date: null,
  })
  t.same(await ts.call('get_blog_schedule', { client_id: client }, org.key), set)
  const stream = `blog_schedule-${client}`
  await ts.call('set_blog_schedule', base, org.key)
  t.equal((await streamEvents(ts, stream)).length, 1, 'the same schedule again records nothing')
  t.match(await ts.call('set_blog_schedule', { ...base, active: false, start_date: '2027-01-04', timezone: 'europe/london' }, org.key), {
    active: false,
    start_date: '2027-01-04',
    timezone: 'Europe/London',
  })
  for (const [label, bad] of [
    ['an unknown zone', { timezone: 'Mars/Olympus' }],
    ['more posts than days', { posts_per_week: 3 }],
    ['a repeated day', { days: ['tue', 'tue'] }],
    ['a bad time', { time: '9:30' }],
    ['too many posts', { posts_per_week: 8 }],
    ['no days', { days: [] }],
  ] as const) {
    expectError(t, await ts.rpc('set_blog_schedule', { ...base, ...bad }, org.key), 400, 'validation_failed', label)
  }
  t.equal((await streamEvents(ts, stream)).length, 2, 'nothing refused was recorded')
})

t.test("another organization's topics, clients and schedule answer like missing ones", async (t) => {
  const { ts, org, other, foreignClient } = await setup(t)
  const foreign = await ts.call<any>('add_blog_topic', { client_id: foreignClient, title: 'Theirs' }, other.key)
  await ts.call('set_blog_topic_status', { topic_id: foreign.id, status: 'approved' }, other.key)
  const missing = foreign.id + 10_000
  for (const [method, extra] of [
    ['get_blog_topic', {}],
    ['update_blog_topic', { title: 'Taken over' }],
    ['set_blog_topic_status', { status: 'rejected' }],
    ['delete_blog_topic', {}],
  ] as const) {
    const a = expectError(t, await ts.rpc(method, { topic_id: foreign.id, ...extra }, org.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, { topic_id: missing, ...extra }, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [foreign.id]), withoutIds(b, [missing]), `${method}: foreign reads as missing`)
  }
  for (const [method, params] of [
    ['get_blog_topics_for_client', {}],
    ['get_recent_topic_profile', {}],
    ['get_blog_schedule', {}],
    ['add_blog_topic', { title: 'Mine now' }],
    ['set_blog_schedule', { posts_per_week: 1, days: ['mon'], time: '08:00', timezone: 'UTC' }],
  ] as const) {
    expectError(t, await ts.rpc(method, { client_id: foreignClient, ...params }, org.key), 404, 'not_found', method)
  }
  t.same(await ts.call('count_scheduled_blog_topics_by_client', { month: '2026-12' }, org.key), {})
  t.match(await ts.call('get_blog_topic', { topic_id: foreign.id }, other.key), { title: 'Theirs', status: 'approved' }, 'untouched')
  t.match(await ts.call('get_blog_topic', { topic_id: foreign.id }, ts.platformKey), { id: foreign.id })
  expectError(t, await ts.rpc('count_scheduled_blog_topics_by_client', { month: '2026-12' }, ts.platformKey), 400, 'org_id_required')
})
