/**
 * Cooldowns, pure: the rule table (which activity each reason holds back), the validation of an end, and the
 * client's cooldowns aggregate (set, set again, the same again, clear one or every active one, expiry by the
 * clock given, which cooldown holds an activity back).
 */
import t from 'tap'
import {
  activeRecords,
  clientCooldowns,
  clientCooldownsStream,
  holdingCooldown,
  validUntil,
} from '../../domain/monitoring/cooldowns/client-cooldowns.js'
import type { CooldownEvent } from '../../domain/monitoring/cooldowns/events.js'
import {
  COOLDOWN_HOLDS,
  CooldownReason,
  DEFAULT_COOLDOWN_MINUTES,
  holdsBack,
  MAX_COOLDOWN_MINUTES,
  reasonsHolding,
} from '../../domain/monitoring/cooldowns/reasons.js'
import { fold } from '../../domain/shared/aggregate.js'
import { untilOf } from '../../commands/monitoring/cooldowns.js'
import { spec } from './given-when-then.js'

const NOW = '2026-11-27T09:00:00.000Z'
const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString()
const set = (reason: CooldownReason, until: string, note: string | null = null): CooldownEvent => ({
  type: 'ClientCooldownSet',
  data: { client_id: 7, reason, until, note },
})
const cleared = (reason: CooldownReason): CooldownEvent => ({ type: 'ClientCooldownCleared', data: { client_id: 7, reason } })

t.test('the rule table: what each reason holds back', async (t) => {
  t.same(COOLDOWN_HOLDS, { publish: ['scan'], scan_failures: ['scan'], operator: ['scan', 'publish'] })
  t.equal(holdsBack('publish', 'scan'), true, 'a scan waits after a publish')
  t.equal(holdsBack('publish', 'publish'), false, 'edits in a row are not held back')
  t.equal(holdsBack('scan_failures', 'publish'), false)
  t.equal(holdsBack('operator', 'publish'), true)
  t.same(reasonsHolding('scan'), ['publish', 'scan_failures', 'operator'])
  t.same(reasonsHolding('publish'), ['operator'])
  for (const reason of CooldownReason.options) {
    t.ok(DEFAULT_COOLDOWN_MINUTES[reason] > 0 && DEFAULT_COOLDOWN_MINUTES[reason] <= MAX_COOLDOWN_MINUTES, `${reason} default in range`)
  }
})

t.test('an end is in the future and at most 30 days ahead', async (t) => {
  t.equal(validUntil('2026-11-27T11:00:00+01:00', NOW), at(60), 'normalised to UTC')
  t.equal(validUntil(at(30 * 24 * 60), NOW), at(30 * 24 * 60), 'exactly 30 days')
  const refused = (until: string, what: string) => {
    try {
      validUntil(until, NOW)
      t.fail(`${what}: accepted`)
    } catch (error) {
      t.equal((error as { code?: string }).code, 'invalid_cooldown', what)
    }
  }
  refused('2026-11-27T10:00:00+01:00', 'the same instant as now')
  refused(at(-1), 'in the past')
  refused(at(30 * 24 * 60 + 1), 'past 30 days')
  refused('soon', 'not a time')
})

t.test('the length a setter gives: until, minutes, or the reason default', async (t) => {
  const now = new Date(NOW)
  t.equal(untilOf('operator', { minutes: 90 }, now), at(90))
  t.equal(untilOf('operator', { until: at(5) }, now), at(5))
  t.equal(untilOf('operator', { until: new Date(at(5)) }, now), at(5))
  t.equal(untilOf('publish', {}, now), at(15), 'publish: 15 minutes')
  t.equal(untilOf('scan_failures', {}, now), at(360), 'scan_failures: 6 hours')
  t.throws(() => untilOf('operator', { until: at(5), minutes: 5 }, now), { code: 'invalid_cooldown' }, 'both')
  t.throws(() => untilOf('operator', { requireLength: true }, now), { code: 'invalid_cooldown' }, 'a person names the length')
  t.throws(() => untilOf('operator', { minutes: 0 }, now), { code: 'invalid_cooldown' })
  t.throws(() => untilOf('operator', { minutes: MAX_COOLDOWN_MINUTES + 1 }, now), { code: 'invalid_cooldown' })
})

t.test("a client's cooldowns", async (t) => {
  const given = spec(clientCooldowns)
  t.equal(clientCooldownsStream(7), 'client_cooldowns-7')
  const setCommand = (reason: CooldownReason, until: string, note: string | null = null, now = NOW) =>
    ({ type: 'SetClientCooldown', client_id: 7, reason, until, note, now }) as const
  given()
    .when(setCommand('operator', at(60), 'Migration'))
    .then(t, [set('operator', at(60), 'Migration')])
  given(set('operator', at(60), 'Migration'))
    .when(setCommand('operator', at(60), 'Migration'))
    .thenNothingHappens(t)
  given(set('operator', at(60)))
    .when(setCommand('operator', at(30)))
    .then(t, [set('operator', at(30))])
  given(set('operator', at(60), 'Migration'))
    .when(setCommand('operator', at(60), null))
    .then(t, [set('operator', at(60), null)])
  given(set('operator', at(60)))
    .when(setCommand('operator', at(120), null, at(61)))
    .then(t, [set('operator', at(120))])
  given(set('operator', at(60)))
    .when(setCommand('operator', at(60), null, at(61)))
    .thenThrows(t, 'invalid_cooldown')
  given()
    .when(setCommand('publish', at(-5)))
    .thenThrows(t, 'invalid_cooldown')

  const clear = (reason: CooldownReason | null, now = NOW) => ({ type: 'ClearClientCooldown', client_id: 7, reason, now }) as const
  given(set('operator', at(60)), set('publish', at(15)))
    .when(clear('operator'))
    .then(t, [cleared('operator')])
  given(set('operator', at(60)), set('publish', at(15)))
    .when(clear(null))
    .then(t, [cleared('operator'), cleared('publish')])
  given(set('operator', at(60)), set('publish', at(15)))
    .when(clear(null, at(20)))
    .then(t, [cleared('operator')])
  given(set('operator', at(60)))
    .when(clear('scan_failures'))
    .thenNothingHappens(t)
  given(set('operator', at(60)), cleared('operator'))
    .when(clear('operator'))
    .thenNothingHappens(t)
  given().when(clear(null)).thenNothingHappens(t)
  given(set('operator', at(60)), cleared('operator'))
    .when(setCommand('operator', at(60)))
    .then(t, [set('operator', at(60))])
})

t.test('which cooldown holds an activity back', async (t) => {
  const state = fold(clientCooldowns, [set('publish', at(15)), set('scan_failures', at(360)), set('operator', at(30))])
  t.same(
    activeRecords(state, NOW).map((r) => r.reason),
    ['scan_failures', 'operator', 'publish'],
    'latest end first',
  )
  t.equal(holdingCooldown(state, 'scan', NOW)?.reason, 'scan_failures', 'the one ending last')
  t.equal(holdingCooldown(state, 'publish', NOW)?.reason, 'operator')
  t.equal(holdingCooldown(state, 'publish', at(30)), null, 'the operator one ended at its until')
  t.equal(holdingCooldown(state, 'scan', at(360)), null)
  const afterClear = fold(clientCooldowns, [set('operator', at(30)), { ...cleared('operator'), metadata: { occurred_at: at(1) } }])
  t.equal(holdingCooldown(afterClear, 'publish', at(2)), null, 'cleared')
  t.equal(afterClear.byReason.operator?.clearedAt, at(1))
})
