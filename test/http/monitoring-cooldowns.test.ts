/**
 * Cooldowns through the RPCs, on a hand-moved clock: set (until or minutes), read back, expire by the clock
 * alone, move, clear, the reason filters, the validation refusals; apply_site_edit refused during an operator
 * cooldown and allowed after it is cleared, and the publish cooldown an apply sets; another organization's
 * client answering like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { handClock } from './aeo-runs-helpers.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'

const START = '2026-11-27T09:00:00.000Z'
const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString()

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const clock = handClock(START)
  const ts = await startTestSystem(t, { clock: clock.now })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  return { clock, ts, org, other, clientId }
}

t.test('set, read, expire by the clock, move and clear', async (t) => {
  const { clock, ts, org, clientId } = await setup(t)
  t.same(await ts.call('get_client_cooldown', { client_id: clientId }, org.key), null, 'never had one')
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId }, org.key), false)
  t.same(await ts.call('get_active_cooldowns', {}, org.key), [])

  const set = await ts.call<any>(
    'set_client_cooldown',
    { client_id: clientId, reason: 'operator', minutes: 60, note: 'Theme migration' },
    org.key,
  )
  t.same(set, {
    client_id: clientId,
    reason: 'operator',
    until: at(60),
    note: 'Theme migration',
    active: true,
    holds_back: ['scan', 'publish'],
    set_at: START,
    cleared_at: null,
  })
  t.same(await ts.call('get_client_cooldown', { client_id: clientId }, org.key), set)
  t.same(await ts.call('get_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key), set)
  t.same(await ts.call('get_client_cooldown', { client_id: clientId, reason: 'publish' }, org.key), null, 'no cooldown for that reason')
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId }, org.key), true)
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId, reason: 'operator' }, org.key), true)
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId, reason: 'scan_failures' }, org.key), false)
  t.same(await ts.call('get_active_cooldowns', {}, org.key), [set])

  // The same end and note again (a retried request) records nothing.
  const stream = `client_cooldowns-${clientId}`
  await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', until: at(60), note: 'Theme migration' }, org.key)
  t.equal((await streamEvents(ts, stream)).length, 1)

  clock.advance(59 * 60_000)
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId }, org.key), true, 'a minute before its end')
  clock.advance(60_000)
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId }, org.key), false, 'ended at until, with no event')
  t.same(await ts.call('get_active_cooldowns', {}, org.key), [])
  t.match(await ts.call('get_client_cooldown', { client_id: clientId }, org.key), { reason: 'operator', active: false, until: at(60) })
  t.equal((await streamEvents(ts, stream)).length, 1, 'expiry wrote nothing')

  // Setting the reason again starts it anew and moves its end; the note is replaced.
  const again = await ts.call<any>('set_client_cooldown', { client_id: clientId, reason: 'operator', until: at(180) }, org.key)
  t.match(again, { active: true, until: at(180), note: null, set_at: at(60) })
  const earlier = await ts.call<any>('set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 30 }, org.key)
  t.match(earlier, { active: true, until: at(90) }, 'moved earlier')
  await ts.call('set_client_cooldown', { client_id: clientId, reason: 'scan_failures', minutes: 360 }, org.key)
  const active = await ts.call<any[]>('get_active_cooldowns', {}, org.key)
  t.same(
    active.map((c) => [c.reason, c.until, c.holds_back]),
    [
      ['operator', at(90), ['scan', 'publish']],
      ['scan_failures', at(420), ['scan']],
    ],
    'soonest end first',
  )
  t.match(
    await ts.call('get_client_cooldown', { client_id: clientId }, org.key),
    { reason: 'scan_failures' },
    'any reason: the one ending last',
  )

  clock.advance(5 * 60_000)
  const cleared = await ts.call<any>('clear_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key)
  t.same(cleared, { client_id: clientId, cleared: ['operator'], in_cooldown: true })
  t.match(await ts.call('get_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key), {
    active: false,
    cleared_at: at(65),
    until: at(90),
  })
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId, reason: 'operator' }, org.key), false)
  t.same(await ts.call('clear_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key), {
    client_id: clientId,
    cleared: [],
    in_cooldown: true,
  })
  t.same(await ts.call('clear_client_cooldown', { client_id: clientId }, org.key), {
    client_id: clientId,
    cleared: ['scan_failures'],
    in_cooldown: false,
  })
  const events = await streamEvents(ts, stream)
  t.same(
    events.map((e) => e.type),
    ['ClientCooldownSet', 'ClientCooldownSet', 'ClientCooldownSet', 'ClientCooldownSet', 'ClientCooldownCleared', 'ClientCooldownCleared'],
  )
  t.equal(events[4]!.metadata.org_id, org.orgId)
  t.same(events[4]!.data, { client_id: clientId, reason: 'operator' })

  // A cleared reason set again is active again.
  t.match(await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 10 }, org.key), {
    active: true,
    cleared_at: null,
  })
})

t.test('the refusals of set_client_cooldown', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const set = (params: Record<string, unknown>) =>
    ts.rpc('set_client_cooldown', { client_id: clientId, reason: 'operator', ...params }, org.key)
  expectError(t, await set({ until: START }), 400, 'invalid_cooldown', 'until now')
  expectError(t, await set({ until: at(-1) }), 400, 'invalid_cooldown', 'until in the past')
  expectError(t, await set({ until: at(30 * 24 * 60 + 1) }), 400, 'invalid_cooldown', 'over 30 days ahead')
  expectError(t, await set({ until: at(60), minutes: 60 }), 400, 'invalid_cooldown', 'both')
  expectError(t, await set({}), 400, 'invalid_cooldown', 'neither')
  expectError(t, await set({ minutes: 0 }), 400, 'validation_failed', 'zero minutes')
  expectError(t, await set({ minutes: 30 * 24 * 60 + 1 }), 400, 'validation_failed', 'too many minutes')
  expectError(t, await set({ until: 'tomorrow' }), 400, 'validation_failed', 'not a time')
  expectError(
    t,
    await ts.rpc('set_client_cooldown', { client_id: clientId, reason: 'holiday', minutes: 5 }, org.key),
    400,
    'validation_failed',
    'a reason outside the set',
  )
  t.match(await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', until: at(30 * 24 * 60) }, org.key), {
    until: at(30 * 24 * 60),
  })
  t.equal((await streamEvents(ts, `client_cooldowns-${clientId}`)).length, 1, 'only the valid one was recorded')

  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, org.key)
  expectError(t, await set({ minutes: 5 }), 409, 'client_deleted')
})

t.test('apply_site_edit waits out an operator cooldown and starts a publish cooldown', async (t) => {
  const { clock, ts, org, clientId } = await setup(t)
  await ts.call('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/drains', title: 'Drains' } }, org.key)
  const stage = (content: string) =>
    ts.call<number>(
      'create_site_edit',
      {
        client_id: clientId,
        operation: 'elementor_rewrite',
        payload: JSON.stringify({ proposed_content: content }),
        page_url: 'https://acme.example.com/drains',
      },
      org.key,
    )
  const first = await stage('<p>Same-day drain cleaning.</p>')
  await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 120 }, org.key)

  const refused = expectError(t, await ts.rpc('apply_site_edit', { edit_id: first }, org.key), 409, 'client_in_cooldown')
  t.match(refused.detail, `reason operator) until ${at(120)}`)
  t.match(await ts.call('get_site_edit', { edit_id: first }, org.key), { status: 'proposed', apply_attempts: 0 }, 'nothing published')

  clock.advance(10 * 60_000)
  await ts.call('clear_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key)
  t.match(await ts.call('apply_site_edit', { edit_id: first }, org.key), { status: 'applied' })
  const publish = await ts.call<any>('get_client_cooldown', { client_id: clientId, reason: 'publish' }, org.key)
  t.match(publish, { reason: 'publish', active: true, until: at(25), set_at: at(10), holds_back: ['scan'] })
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId, reason: 'publish' }, org.key), true)
  const setEvent = (await streamEvents(ts, `client_cooldowns-${clientId}`)).at(-1)!
  t.same(setEvent.data, { client_id: clientId, reason: 'publish', until: at(25), note: null })
  t.equal(setEvent.metadata.org_id, org.orgId)

  // publish holds back scans only: the next edit goes out at once and moves the publish cooldown on.
  clock.advance(60_000)
  t.match(await ts.call('apply_site_edit', { edit_id: await stage('<p>Drain cleaning, same day.</p>') }, org.key), { status: 'applied' })
  t.match(await ts.call('get_client_cooldown', { client_id: clientId, reason: 'publish' }, org.key), { until: at(26) })

  // An operator cooldown set by the platform key (org_id passed) holds publishing back too.
  await ts.call('set_client_cooldown', { org_id: org.orgId, client_id: clientId, reason: 'operator', minutes: 5 })
  const third = await stage('<p>Third.</p>')
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: third }, org.key), 409, 'client_in_cooldown')
  clock.advance(5 * 60_000)
  t.match(await ts.call('apply_site_edit', { edit_id: third }, org.key), { status: 'applied' }, 'allowed once it expired')
})

t.test("another organization's client answers like a missing one", async (t) => {
  const { ts, org, other, clientId } = await setup(t)
  const theirs = await ts.call<number>('add_client', clientPayload('Other Dental'), other.key)
  await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 60 }, org.key)
  await ts.call('set_client_cooldown', { client_id: theirs, reason: 'scan_failures', minutes: 60 }, other.key)

  for (const [method, params] of [
    ['get_client_cooldown', { client_id: clientId }],
    ['is_client_in_cooldown', { client_id: clientId }],
    ['set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 5 }],
    ['clear_client_cooldown', { client_id: clientId }],
  ] as const) {
    const foreign = expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', method)
    const missing = expectError(t, await ts.rpc(method, { ...params, client_id: 999_999 }, other.key), 404, 'not_found', method)
    t.equal(foreign.detail, `client ${clientId} not found`)
    t.equal(missing.detail, 'client 999999 not found')
  }
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId }, org.key), true, 'the foreign clear changed nothing')
  t.same(
    (await ts.call<any[]>('get_active_cooldowns', {}, org.key)).map((c) => c.client_id),
    [clientId],
  )
  t.same(
    (await ts.call<any[]>('get_active_cooldowns', {}, other.key)).map((c) => c.client_id),
    [theirs],
  )
  t.same(
    (await ts.call<any[]>('get_active_cooldowns', {})).map((c) => c.client_id).sort((a, b) => a - b),
    [clientId, theirs].sort((a, b) => a - b),
    'a platform key without org_id sees every organization',
  )
  t.same(
    (await ts.call<any[]>('get_active_cooldowns', { org_id: other.orgId })).map((c) => c.client_id),
    [theirs],
  )
})
