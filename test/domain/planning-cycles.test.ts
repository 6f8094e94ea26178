/**
 * Hour budgets and the cycle ledger, pure: the budget aggregate (a setting holds from its month on, a later
 * one replaces it, null removes it, the same setting again records nothing), budgetFor, the month arithmetic,
 * the rollover rule (unused hours of a closed month roll into the month it carried into, capped at that
 * month's budget; no budget rolls nothing and takes nothing in; an open month rolls nothing) and the count of
 * consecutive closed months that carried items over.
 */
import t from 'tap'
import { budgetFor, hourBudget, hourBudgetStream } from '../../domain/planning/cycles/hour-budget.js'
import type { CyclesEvent } from '../../domain/planning/cycles/events.js'
import { monthAfter, monthOfDate, monthRange, monthsBefore } from '../../domain/shared/months.js'
import { consecutiveRolloverMonths, hourLedger, type MonthFacts } from '../../domain/planning/cycles/rollover.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const budgetSet = (from_month: string, hours: number | null): CyclesEvent => ({
  type: 'HourBudgetSet',
  data: { client_id: 7, from_month, hours },
})
const setCommand = (from_month: string, hours: number | null) => ({ type: 'SetHourBudget', client_id: 7, from_month, hours }) as const

t.test('the hour budget aggregate', async (t) => {
  t.equal(hourBudgetStream(7), 'hour_budget-7')
  const given = spec(hourBudget)
  given()
    .when(setCommand('2026-09', 10))
    .then(t, [budgetSet('2026-09', 10)])
  given(budgetSet('2026-09', 10)).when(setCommand('2026-09', 10)).thenNothingHappens(t)
  given(budgetSet('2026-09', 10))
    .when(setCommand('2026-09', 12))
    .then(t, [budgetSet('2026-09', 12)])
  given(budgetSet('2026-09', 10))
    .when(setCommand('2026-11', null))
    .then(t, [budgetSet('2026-11', null)])
  // Another month: a setting of its own.
  given(budgetSet('2026-09', 10))
    .when(setCommand('2026-10', 10))
    .then(t, [budgetSet('2026-10', 10)])
})

t.test('budgetFor: the latest setting from the month or before', async (t) => {
  const state = fold(hourBudget, [budgetSet('2026-11', null), budgetSet('2026-09', 10), budgetSet('2026-10', 6), budgetSet('2026-09', 8)])
  t.same(
    state.settings.map((s) => [s.fromMonth, s.hours]),
    [
      ['2026-09', 8],
      ['2026-10', 6],
      ['2026-11', null],
    ],
    'by month, a later setting for a month replacing the earlier',
  )
  t.equal(budgetFor(state, '2026-08'), null, 'before any setting')
  t.equal(budgetFor(state, '2026-09'), 8)
  t.equal(budgetFor(state, '2026-10'), 6)
  t.equal(budgetFor(state, '2026-11'), null, 'removed')
  t.equal(budgetFor(state, '2027-03'), null, 'still removed')
  t.equal(budgetFor(hourBudget.initialState(), '2026-09'), null, 'no settings')
})

t.test('months', async (t) => {
  t.equal(monthAfter('2026-11'), '2026-12')
  t.equal(monthAfter('2026-12'), '2027-01')
  t.equal(monthsBefore('2026-02', 3), '2025-11')
  t.equal(monthOfDate(new Date('2026-11-30T23:59:59Z')), '2026-11')
  t.same(monthRange('2026-11', '2027-02'), ['2026-11', '2026-12', '2027-01', '2027-02'])
  t.same(monthRange('2026-11', '2026-11'), ['2026-11'])
  t.same(monthRange('2026-12', '2026-11'), [])
})

const month = (m: string, over: Partial<MonthFacts> = {}): MonthFacts => ({
  month: m,
  budgetHours: 10,
  plannedHours: 0,
  doneHours: 0,
  itemsPlanned: 0,
  itemsDone: 0,
  itemsCarriedOut: 0,
  closedInto: null,
  ...over,
})

t.test('the rollover rule', async (t) => {
  const ledger = hourLedger([
    // Given out of order: the ledger sorts.
    month('2026-10', { doneHours: 4, plannedHours: 9, itemsPlanned: 5, itemsDone: 2, itemsCarriedOut: 3, closedInto: '2026-11' }),
    month('2026-09', { doneHours: 7.5, plannedHours: 8, itemsPlanned: 4, itemsDone: 3, itemsCarriedOut: 1, closedInto: '2026-10' }),
    month('2026-11', { doneHours: 2, plannedHours: 12, itemsPlanned: 6, itemsDone: 1 }),
  ])
  t.same(
    ledger.map((m) => [m.month, m.budgetHours, m.rolledOverInHours, m.availableHours, m.doneHours, m.unusedHours, m.closed]),
    [
      ['2026-09', 10, 0, 10, 7.5, 2.5, true],
      // 2.5 unused rolls in: 12.5 available, 8.5 unused.
      ['2026-10', 10, 2.5, 12.5, 4, 8.5, true],
      // 8.5 offered, capped at the month's own budget of 10: all of it.
      ['2026-11', 10, 8.5, 18.5, 2, 16.5, false],
    ],
  )
  t.same(
    ledger.map((m) => [m.plannedHours, m.itemsPlanned, m.itemsDone, m.itemsCarriedOut]),
    [
      [8, 4, 3, 1],
      [9, 5, 2, 3],
      [12, 6, 1, 0],
    ],
    'the counts pass through',
  )

  const capped = hourLedger([
    month('2026-09', { budgetHours: 20, doneHours: 2, closedInto: '2026-10' }),
    month('2026-10', { budgetHours: 5 }),
  ])
  t.same(
    capped.map((m) => [m.rolledOverInHours, m.availableHours]),
    [
      [0, 20],
      [5, 10],
    ],
    '18 unused, capped at the next budget of 5: available at most twice the budget',
  )

  const noBudget = hourLedger([
    month('2026-08', { budgetHours: null, doneHours: 3, closedInto: '2026-09' }),
    month('2026-09', { doneHours: 1, closedInto: '2026-10' }),
    month('2026-10', { budgetHours: null }),
    month('2026-11'),
  ])
  t.same(
    noBudget.map((m) => [m.month, m.rolledOverInHours, m.availableHours, m.unusedHours]),
    [
      ['2026-08', 0, null, null],
      ['2026-09', 0, 10, 9],
      ['2026-10', 0, null, null],
      ['2026-11', 0, 10, 10],
    ],
    'no budget rolls nothing out and takes nothing in (09 → 10 lost, 10 → 11 never closed)',
  )

  const open = hourLedger([month('2026-09', { doneHours: 4 }), month('2026-10')])
  t.same(
    open.map((m) => [m.rolledOverInHours, m.unusedHours]),
    [
      [0, 6],
      [0, 10],
    ],
    'an open month has unused hours but rolls nothing',
  )

  const overspent = hourLedger([month('2026-09', { doneHours: 14, closedInto: '2026-10' }), month('2026-10')])
  t.same(
    overspent.map((m) => [m.unusedHours, m.rolledOverInHours]),
    [
      [0, 0],
      [10, 0],
    ],
    'more done than available: unused is 0, nothing negative rolls',
  )

  const skipping = hourLedger([month('2026-09', { closedInto: '2026-11' }), month('2026-10'), month('2026-11')])
  t.same(
    skipping.map((m) => m.rolledOverInHours),
    [0, 0, 10],
    'the hours roll into the month the close carried into',
  )
  t.same(
    hourLedger([month('2026-09', { doneHours: 1 / 3, budgetHours: 1 })]).map((m) => m.unusedHours),
    [0.67],
    'hours rounded to hundredths',
  )
  t.same(hourLedger([]), [])
})

t.test('consecutive rollover months', async (t) => {
  const close = (m: string, carried: number, next = monthAfter(m)) => ({ month: m, nextMonth: next, carried })
  t.equal(consecutiveRolloverMonths([]), 0, 'nothing closed')
  t.equal(consecutiveRolloverMonths([close('2026-09', 2), close('2026-10', 0)]), 0, 'the latest finished everything')
  t.equal(consecutiveRolloverMonths([close('2026-10', 1), close('2026-08', 3), close('2026-09', 2)]), 3, 'three in a row, any order')
  t.equal(
    consecutiveRolloverMonths([close('2026-08', 3), close('2026-09', 0), close('2026-10', 1)]),
    1,
    'a month that finished breaks the run',
  )
  t.equal(consecutiveRolloverMonths([close('2026-07', 3), close('2026-09', 2)]), 1, 'a month never closed between breaks it')
  t.equal(consecutiveRolloverMonths([close('2026-07', 3, '2026-09'), close('2026-09', 2)]), 2, 'a close that carried past a month chains')
})
