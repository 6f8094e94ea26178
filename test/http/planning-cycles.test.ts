/**
 * Hour budgets and the cycle views through HTTP, on a hand-moved clock: budgets set (default month, a later
 * setting, the same again recording nothing), three months of one client's items made with the action item
 * commands, two of them closed with carry-overs, and every view checked number by number (get_hour_budgets
 * with the rollover and its cap, get_consecutive_rollover_months, get_org_cycle_overview for a past and the
 * current month, list_cycle_tier_a_todo, get_resolved_cycle_pairs, get_outstanding_summary); a budget changed
 * after a close leaving the closed month's history; validation refusals; another organization's client and
 * organization answering like missing ones, writing nothing.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { addActionItems, closeActionItemMonth, setActionItemStatus, type ActionItemInput } from '../../commands/planning/action-items.js'
import { hourBudgetFor } from '../../commands/planning/cycles.js'
import type { ActionItemStatus } from '../../domain/planning/action-items/events.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { monthHours } from '../../projections/planning/cycles/queries.js'
import { startTestSystem } from '../support/system.js'
import { handClock } from './aeo-runs-helpers.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

const item = (action_type: string, tier: 'A' | 'B', hours: number, description: string, key: string): ActionItemInput => ({
  action_type,
  page_url: `https://acme.example/${key}`,
  description,
  tier,
  hours,
  impact: 50,
  source: { kind: 'insight', id: null, by: '' },
  source_key: key,
  carried_from_item_id: null,
  job_id: null,
})

t.test('budgets, rollover and the owner views over three months', async (t) => {
  const clock = handClock('2026-09-01T08:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now })
  const a = await orgWithKey(ts, 'Acme Agency')
  const b = await orgWithKey(ts, 'Other Agency')
  const acme = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), a.key)
  const beta = await ts.call<number>('add_client', clientPayload('Beta Heating'), a.key)
  const gamma = await ts.call<number>('add_client', clientPayload('Gamma Roofing'), a.key)
  const bravo = await ts.call<number>('add_client', clientPayload('Bravo Builders'), b.key)
  const write = ts.system.write
  const ctx = systemContext('test')
  let last: { position: unknown } = { position: null }
  const target = (clientId: number, month: string | null) => ({ clientId, callerOrgId: a.orgId, month })
  const status = async (clientId: number, month: string | null, itemId: number, s: ActionItemStatus) => {
    const outcome = await setActionItemStatus(write, ctx, { ...target(clientId, month), itemId }, { status: s })
    if (outcome.position) last = outcome
  }
  const close = async (clientId: number, month: string, nextMonth: string) => {
    const closed = await closeActionItemMonth(write, ctx, {
      clientId,
      callerOrgId: a.orgId,
      month,
      nextMonth,
      budgetHours: await hourBudgetFor(write, clientId, month),
    })
    last = closed
    return closed
  }
  const settle = async () => {
    await readModelsAt(ts, last.position as never)
  }

  // Budgets: Acme 10 hours from September.
  const set = await ts.call<any>('set_hour_budget', { client_id: acme, hours: 10, from_month: '2026-09' }, a.key)
  t.strictSame(set, { client_id: acme, settings: [{ from_month: '2026-09', hours: 10, set_at: '2026-09-01T08:00:00.000Z' }] })
  await ts.call('set_hour_budget', { client_id: acme, hours: 10, from_month: '2026-09' }, a.key)
  t.equal((await streamEvents(ts, `hour_budget-${acme}`)).length, 1, 'the same setting again records nothing')

  // September: four items; two done, one skipped, the tier A page still pending at the close.
  const sep = await addActionItems(write, ctx, target(acme, '2026-09'), [
    item('title_meta_rewrite', 'A', 0.5, 'Rewrite the drain cleaning title', 'insight:1'),
    item('improve_content', 'B', 2, 'Strengthen the boiler page', 'insight:2'),
    item('create_page', 'A', 3, 'Draft a page for emergency plumber', 'insight:3'),
    item('manual', 'B', 1, 'Ask for reviews', 'insight:4'),
  ])
  const [sTitle, sContent, sPage, sManual] = sep.added as [number, number, number, number]
  await status(acme, '2026-09', sTitle, 'done')
  await status(acme, '2026-09', sContent, 'done')
  await status(acme, '2026-09', sManual, 'skipped')
  clock.set('2026-10-01T06:00:00.000Z')
  const sepClosed = await close(acme, '2026-09', '2026-10')
  t.strictSame(
    sepClosed.carried.map((c) => c.item_id),
    [sPage],
    'the pending page carried',
  )
  const oPage = sepClosed.carried[0]!.new_item_id

  // October: the carried page (started, not finished), a redirect done, content pending; closed into November.
  clock.set('2026-10-02T06:00:00.000Z')
  const oct = await addActionItems(write, ctx, target(acme, '2026-10'), [
    item('redirect', 'A', 0.5, 'Redirect the old boiler URL', 'insight:5'),
    item('improve_content', 'B', 2, 'Strengthen the water heater page', 'insight:6'),
  ])
  const [oRedirect] = oct.added as [number, number]
  await status(acme, '2026-10', oPage, 'in_progress')
  await status(acme, '2026-10', oRedirect, 'done')
  // Beta: an item in October (no budget then), done; its month stays open.
  const betaOct = await addActionItems(write, ctx, target(beta, '2026-10'), [
    item('manual', 'B', 1, 'Call the client about photos', 'insight:7'),
  ])
  await status(beta, '2026-10', betaOct.added[0]!, 'done')
  clock.set('2026-11-01T06:00:00.000Z')
  const octClosed = await close(acme, '2026-10', '2026-11')
  t.equal(octClosed.carried.length, 2)
  const [nPage, nContent] = octClosed.carried.map((c) => c.new_item_id) as [number, number]

  // November: the two carried (the page in progress, the content done) and internal links pending.
  clock.set('2026-11-02T06:00:00.000Z')
  const nov = await addActionItems(write, ctx, target(acme, '2026-11'), [
    item('internal_links', 'A', 1, 'Link the emergency page from the services', 'insight:8'),
  ])
  const nLinks = nov.added[0]!
  await status(acme, '2026-11', nPage, 'in_progress')
  await status(acme, '2026-11', nContent, 'done')
  clock.set('2026-11-03T06:00:00.000Z')
  const betaNov = await addActionItems(write, ctx, target(beta, '2026-11'), [
    item('title_meta_rewrite', 'A', 0.5, 'Rewrite the furnace repair title', 'insight:9'),
  ])
  const betaUndated = await addActionItems(write, ctx, target(beta, null), [item('manual', 'B', 1, 'Photos for the gallery', 'insight:10')])
  last = betaUndated
  await settle()

  clock.set('2026-11-15T09:00:00.000Z')
  // Beta: 4 hours from this month (the default).
  const betaSet = await ts.call<any>('set_hour_budget', { client_id: beta, hours: 4 }, a.key)
  t.strictSame(betaSet.settings, [{ from_month: '2026-11', hours: 4, set_at: '2026-11-15T09:00:00.000Z' }])

  await t.test('get_hour_budgets: the ledger, newest first', async (t) => {
    const months = await ts.call<any[]>('get_hour_budgets', { client_id: acme }, a.key)
    t.strictSame(months, [
      {
        month: '2026-11',
        budget_hours: 10,
        // October left 17 unused, capped at November's own 10.
        rolled_over_in_hours: 10,
        available_hours: 20,
        planned_hours: 6,
        done_hours: 2,
        unused_hours: 18,
        items_planned: 3,
        items_done: 1,
        items_carried_out: 0,
        closed: false,
      },
      {
        month: '2026-10',
        budget_hours: 10,
        rolled_over_in_hours: 7.5,
        available_hours: 17.5,
        planned_hours: 5.5,
        done_hours: 0.5,
        unused_hours: 17,
        items_planned: 3,
        items_done: 1,
        items_carried_out: 2,
        closed: true,
      },
      {
        month: '2026-09',
        budget_hours: 10,
        rolled_over_in_hours: 0,
        available_hours: 10,
        planned_hours: 5.5,
        done_hours: 2.5,
        unused_hours: 7.5,
        items_planned: 4,
        items_done: 2,
        items_carried_out: 1,
        closed: true,
      },
    ])
    t.same(
      (await ts.call<any[]>('get_hour_budgets', { client_id: acme, limit: 1 }, a.key)).map((m) => m.month),
      ['2026-11'],
      'limit',
    )
    const betaMonths = await ts.call<any[]>('get_hour_budgets', { client_id: beta }, a.key)
    t.same(
      betaMonths.map((m) => [m.month, m.budget_hours, m.available_hours, m.planned_hours, m.done_hours, m.unused_hours, m.closed]),
      [
        ['2026-11', 4, 4, 0.5, 0, 4, false],
        ['2026-10', null, null, 1, 1, null, false],
      ],
      'from the first month with an item; no budget in October',
    )
    t.same(await ts.call('get_hour_budgets', { client_id: gamma }, a.key), [], 'neither a budget nor an item')
  })

  await t.test("monthHours: the strategist's fit, the same numbers", async (t) => {
    const read = ts.system.read
    t.strictSame(await monthHours(read, acme, '2026-11'), { budgetHours: 10, rolledOverInHours: 10, availableHours: 20 })
    t.strictSame(await monthHours(read, acme, '2026-10'), { budgetHours: 10, rolledOverInHours: 7.5, availableHours: 17.5 })
    t.strictSame(await monthHours(read, acme, '2027-02'), { budgetHours: 10, rolledOverInHours: 0, availableHours: 10 }, 'a month ahead')
    t.strictSame(await monthHours(read, gamma, '2026-11'), { budgetHours: null, rolledOverInHours: 0, availableHours: null }, 'no budget')
  })

  await t.test('get_consecutive_rollover_months', async (t) => {
    t.equal(await ts.call('get_consecutive_rollover_months', { client_id: acme }, a.key), 2, 'September and October both carried')
    t.equal(await ts.call('get_consecutive_rollover_months', { client_id: beta }, a.key), 0, 'nothing closed')
  })

  await t.test('get_org_cycle_overview: a past month and the current one', async (t) => {
    const zero = {
      items_planned: 0,
      items_pending: 0,
      items_in_progress: 0,
      items_done: 0,
      items_skipped: 0,
      items_rolled_over_in: 0,
      items_carried_out: 0,
      budget_hours: null,
      rolled_over_in_hours: 0,
      available_hours: null,
      planned_hours: 0,
      hours_used: 0,
      closed: false,
      behind: false,
    }
    const october = await ts.call<any>('get_org_cycle_overview', { month: '2026-10', current_month: '2026-11' }, a.key)
    t.strictSame(october, {
      month: '2026-10',
      current_month: '2026-11',
      is_current: false,
      is_past: true,
      clients: [
        {
          client_id: acme,
          client_name: 'Acme Plumbing',
          items_planned: 3,
          items_pending: 1,
          items_in_progress: 1,
          items_done: 1,
          items_skipped: 0,
          items_rolled_over_in: 1,
          items_carried_out: 2,
          budget_hours: 10,
          rolled_over_in_hours: 7.5,
          available_hours: 17.5,
          planned_hours: 5.5,
          hours_used: 0.5,
          closed: true,
          behind: true,
        },
        { ...zero, client_id: beta, client_name: 'Beta Heating', items_planned: 1, items_done: 1, planned_hours: 1, hours_used: 1 },
        { ...zero, client_id: gamma, client_name: 'Gamma Roofing' },
      ],
      totals: {
        clients: 3,
        items_planned: 4,
        items_done: 2,
        items_in_progress: 1,
        items_rolled_over_in: 1,
        budget_hours: 10,
        hours_used: 1.5,
        clients_behind: 1,
        clients_closed: 1,
      },
    })
    const november = await ts.call<any>('get_org_cycle_overview', { month: '2026-11', current_month: '2026-11' }, a.key)
    t.match(november, { is_current: true, is_past: false })
    t.strictSame(november.clients[0], {
      client_id: acme,
      client_name: 'Acme Plumbing',
      items_planned: 3,
      items_pending: 1,
      items_in_progress: 1,
      items_done: 1,
      items_skipped: 0,
      items_rolled_over_in: 2,
      items_carried_out: 0,
      budget_hours: 10,
      rolled_over_in_hours: 10,
      available_hours: 20,
      planned_hours: 6,
      hours_used: 2,
      closed: false,
      behind: false,
    })
    t.match(november.clients[1], {
      client_id: beta,
      items_planned: 1,
      items_pending: 1,
      budget_hours: 4,
      available_hours: 4,
      behind: false,
    })
    t.same(november.totals.clients_behind, 0, 'the live month is never behind')
    const later = await ts.call<any>('get_org_cycle_overview', { month: '2026-11', current_month: '2026-12' }, a.key)
    t.same(
      later.clients.map((c: any) => c.behind),
      [true, true, false],
      'seen from December, November is behind where items are unfinished',
    )
  })

  await t.test('list_cycle_tier_a_todo: oldest first, with client names', async (t) => {
    const todo = await ts.call<any[]>('list_cycle_tier_a_todo', { month: '2026-11' }, a.key)
    t.same(
      todo.map((i) => [i.item_id, i.client_name, i.action_type, i.status, i.hours, i.carried_from_item_id, i.created_at]),
      [
        [nPage, 'Acme Plumbing', 'create_page', 'in_progress', 3, oPage, '2026-11-01T06:00:00.000Z'],
        [nLinks, 'Acme Plumbing', 'internal_links', 'pending', 1, null, '2026-11-02T06:00:00.000Z'],
        [betaNov.added[0], 'Beta Heating', 'title_meta_rewrite', 'pending', 0.5, null, '2026-11-03T06:00:00.000Z'],
      ],
    )
    t.match(todo[1], { client_id: acme, month: '2026-11', page_url: 'https://acme.example/insight:8', impact: 50 })
    t.same(
      (await ts.call<any[]>('list_cycle_tier_a_todo', { month: '2026-11', limit: 1, offset: 1 }, a.key)).map((i) => i.item_id),
      [nLinks],
      'paged',
    )
    t.same(
      await ts.call('list_cycle_tier_a_todo', { month: '2026-09' }, a.key),
      [],
      'September: its pending page was carried over, so only its copy in October (now November) is to do',
    )
  })

  await t.test('get_resolved_cycle_pairs: newest first', async (t) => {
    t.strictSame(await ts.call('get_resolved_cycle_pairs', {}, a.key), [
      {
        client_id: acme,
        client_name: 'Acme Plumbing',
        month: '2026-10',
        next_month: '2026-11',
        carried: 2,
        done_hours: 0.5,
        budget_hours: 10,
        closed_at: '2026-11-01T06:00:00.000Z',
      },
      {
        client_id: acme,
        client_name: 'Acme Plumbing',
        month: '2026-09',
        next_month: '2026-10',
        carried: 1,
        done_hours: 2.5,
        budget_hours: 10,
        closed_at: '2026-10-01T06:00:00.000Z',
      },
    ])
  })

  await t.test('get_outstanding_summary: open months and undated items', async (t) => {
    t.strictSame(await ts.call('get_outstanding_summary', {}, a.key), {
      clients: [
        {
          client_id: acme,
          client_name: 'Acme Plumbing',
          items: 2,
          items_in_progress: 1,
          hours: 4,
          oldest_month: '2026-11',
          open_months: 1,
          undated_items: 0,
        },
        {
          client_id: beta,
          client_name: 'Beta Heating',
          items: 2,
          items_in_progress: 0,
          hours: 1.5,
          oldest_month: '2026-11',
          open_months: 1,
          undated_items: 1,
        },
      ],
      totals: { clients: 2, items: 4, items_in_progress: 1, hours: 5.5, oldest_month: '2026-11' },
    })
  })

  await t.test('a budget changed after a close leaves the closed months as they were', async (t) => {
    await ts.call('set_hour_budget', { client_id: acme, hours: 6, from_month: '2026-09' }, a.key)
    const months = await ts.call<any[]>('get_hour_budgets', { client_id: acme }, a.key)
    t.same(
      months.map((m) => [m.month, m.budget_hours, m.rolled_over_in_hours, m.available_hours]),
      [
        ['2026-11', 6, 6, 12],
        ['2026-10', 10, 7.5, 17.5],
        ['2026-09', 10, 0, 10],
      ],
      'November now 6 (October’s 17 unused capped at 6); the closed months keep the budget they closed with',
    )
    await ts.call('set_hour_budget', { client_id: acme, hours: null, from_month: '2026-12' }, a.key)
    const ahead = await ts.call<any[]>('get_hour_budgets', { client_id: acme }, a.key)
    t.same(
      ahead[0],
      {
        month: '2026-12',
        budget_hours: null,
        rolled_over_in_hours: 0,
        available_hours: null,
        planned_hours: 0,
        done_hours: 0,
        unused_hours: null,
        items_planned: 0,
        items_done: 0,
        items_carried_out: 0,
        closed: false,
      },
      'a setting planned ahead shows its month',
    )
  })

  await t.test('validation', async (t) => {
    expectError(t, await ts.rpc('set_hour_budget', { client_id: acme, hours: 5, from_month: '2026-13' }, a.key), 400, 'validation_failed')
    expectError(t, await ts.rpc('set_hour_budget', { client_id: acme, hours: -1 }, a.key), 400, 'validation_failed')
    expectError(
      t,
      await ts.rpc('set_hour_budget', { client_id: acme }, a.key),
      400,
      'validation_failed',
      'hours is required (null removes)',
    )
    expectError(t, await ts.rpc('get_hour_budgets', { client_id: acme, limit: 0 }, a.key), 400, 'validation_failed')
    expectError(
      t,
      await ts.rpc('get_org_cycle_overview', { month: '2026-11' }, a.key),
      400,
      'validation_failed',
      'current_month is required',
    )
    expectError(t, await ts.rpc('list_cycle_tier_a_todo', { month: 'November' }, a.key), 400, 'validation_failed')
    expectError(
      t,
      await ts.rpc('get_org_cycle_overview', { month: '2026-11', current_month: '2026-11' }),
      400,
      'org_id_required',
      'a platform key names the organization',
    )
  })

  await t.test("another organization's client and organization answer like missing ones", async (t) => {
    const before = await eventCount(ts)
    const missing = acme + bravo + 1000
    for (const [method, body] of [
      ['get_hour_budgets', {}],
      ['get_consecutive_rollover_months', {}],
      ['set_hour_budget', { hours: 3 }],
    ] as const) {
      const foreign = expectError(t, await ts.rpc(method, { ...body, client_id: acme }, b.key), 404, 'not_found', `${method} foreign`)
      const absent = expectError(t, await ts.rpc(method, { ...body, client_id: missing }, b.key), 404, 'not_found', `${method} missing`)
      t.equal(foreign.error.replace(String(acme), '#'), absent.error.replace(String(missing), '#'), `${method}: the same answer`)
    }
    for (const [method, body] of [
      ['get_org_cycle_overview', { month: '2026-11', current_month: '2026-11' }],
      ['list_cycle_tier_a_todo', { month: '2026-11' }],
      ['get_resolved_cycle_pairs', {}],
      ['get_outstanding_summary', {}],
    ] as const) {
      expectError(t, await ts.rpc(method, { ...body, org_id: a.orgId }, b.key), 404, 'not_found', `${method} with A's org_id`)
    }
    t.equal(await eventCount(ts), before, 'nothing appended')
    t.strictSame(await ts.call('get_resolved_cycle_pairs', {}, b.key), [], "B sees none of A's")
    t.strictSame(await ts.call('get_outstanding_summary', {}, b.key), {
      clients: [],
      totals: { clients: 0, items: 0, items_in_progress: 0, hours: 0, oldest_month: null },
    })
    const bOverview = await ts.call<any>('get_org_cycle_overview', { month: '2026-11', current_month: '2026-11' }, b.key)
    t.same(
      bOverview.clients.map((c: any) => c.client_id),
      [bravo],
      "only B's client",
    )
    // A platform key names the organization.
    t.equal((await ts.call<any[]>('get_resolved_cycle_pairs', { org_id: a.orgId })).length, 2)
  })
})

t.test("the sandbox's budget and its closed month", async (t) => {
  const ts = await startTestSystem(t)
  const seeded = await resetSandbox({
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  })
  const [current, last] = [seeded.months.at(-1)!, seeded.months.at(-2)!]
  const months = await ts.call<any[]>('get_hour_budgets', { client_id: seeded.clientId }, SANDBOX_KEY)
  t.same(
    months.map((m) => [m.budget_hours, m.closed]),
    [
      [10, false],
      [8, true],
      [8, false],
      [8, false],
    ],
    '10 hours this month, 8 in the three before; last month closed with its budget',
  )
  t.equal(months[0].month, current)
  t.equal(months[1].month, last)
  t.ok(months[1].items_carried_out > 0 && months[1].items_done > 0, 'last month did some and carried some')
  t.equal(months[0].rolled_over_in_hours, Math.min(months[1].unused_hours, 10), "last month's unused hours rolled in")
  t.equal(await ts.call('get_consecutive_rollover_months', { client_id: seeded.clientId }, SANDBOX_KEY), 1)
  const overview = await ts.call<any>('get_org_cycle_overview', { month: current, current_month: current }, SANDBOX_KEY)
  t.match(overview.clients, [{ client_id: seeded.clientId, budget_hours: 10, items_rolled_over_in: months[1].items_carried_out }])
})
