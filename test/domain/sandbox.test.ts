/**
 * The public sandbox's pure parts: the job policy the jobs endpoint will apply to the sandbox key (export_org
 * only, one per 10 minutes), the reset schedule, the sandbox aggregate, and the fixture's story (months
 * relative to the clock, answers the analysis reads as intended, deterministic).
 */
import t from 'tap'
import { analyze } from '../../domain/aeo/analysis/analyze.js'
import { fixtureAnswer, fixtureMonths, momentIn, noise, SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'
import { SANDBOX_EXPORT_INTERVAL_MS, sandboxMayCreateJob, sandboxResetDue } from '../../domain/sandbox/policy.js'
import { sandbox } from '../../domain/sandbox/sandbox.js'
import { spec } from './given-when-then.js'

const now = new Date('2026-11-22T08:00:00.000Z')
const minutes = (n: number) => new Date(now.getTime() - n * 60_000)

t.test('sandboxMayCreateJob: export_org once per 10 minutes, every other kind refused', async (t) => {
  t.same(sandboxMayCreateJob('export_org', null, now), { allowed: true }, 'the first export')
  t.same(sandboxMayCreateJob('export_org', minutes(10), now), { allowed: true }, 'exactly 10 minutes later')
  t.same(sandboxMayCreateJob('export_org', minutes(60), now), { allowed: true })
  t.same(
    sandboxMayCreateJob('export_org', minutes(9), now),
    { allowed: false, reason: 'rate_limited', retryAfterSeconds: 60 },
    '9 minutes later: wait a minute',
  )
  t.same(sandboxMayCreateJob('export_org', now, now), { allowed: false, reason: 'rate_limited', retryAfterSeconds: 600 }, 'just exported')
  t.same(
    sandboxMayCreateJob('export_org', new Date(now.getTime() + 5000), now),
    { allowed: false, reason: 'rate_limited', retryAfterSeconds: 600 },
    'a clock skewed into the future never shortens the wait past 10 minutes',
  )
  for (const kind of ['prompted_edit', 'audit', 'strategist', 'EXPORT_ORG', '']) {
    t.same(sandboxMayCreateJob(kind, null, now), { allowed: false, reason: 'read_only' }, `${kind || '(empty)'} is refused`)
  }
  t.equal(SANDBOX_EXPORT_INTERVAL_MS, 600_000)
})

t.test('sandboxResetDue: every interval hours after the last seed; 0 disables', async (t) => {
  t.equal(sandboxResetDue(null, now, 24), true, 'never seeded')
  t.equal(sandboxResetDue(minutes(24 * 60), now, 24), true, '24 hours later')
  t.equal(sandboxResetDue(minutes(24 * 60 - 1), now, 24), false, 'a minute early')
  t.equal(sandboxResetDue(minutes(7 * 24 * 60), now, 0), false, 'disabled')
  t.equal(sandboxResetDue(null, now, 0), false, 'disabled (the first seed is decided by the keeper, not the schedule)')
})

t.test('the sandbox aggregate', async (t) => {
  const created = { type: 'SandboxCreated' as const, data: { org_id: 7, key_id: 9 } }
  const seeded = (ids: number[]) => ({
    type: 'SandboxSeeded' as const,
    data: { org_id: 7, client_ids: ids, months: ['2026-11'], fixture_version: 1 },
  })
  spec(sandbox)().when({ type: 'CreateSandbox', org_id: 7, key_id: 9 }).then(t, [created])
  spec(sandbox)(created).when({ type: 'CreateSandbox', org_id: 8, key_id: 10 }).thenThrows(t, 'already_exists')
  spec(sandbox)().when({ type: 'ResetSandbox', also_retire: [] }).thenThrows(t, 'not_found')
  spec(sandbox)()
    .when({ type: 'RecordSeed', client_ids: [3], months: ['2026-11'], fixture_version: 1 })
    .thenThrows(t, 'not_found')
  spec(sandbox)(created)
    .when({ type: 'RecordSeed', client_ids: [3], months: ['2026-11'], fixture_version: 1 })
    .then(t, [seeded([3])])
  spec(sandbox)(created, seeded([3]))
    .when({ type: 'ResetSandbox', also_retire: [5, 3] })
    .then(t, [{ type: 'SandboxReset', data: { org_id: 7, retired_client_ids: [3, 5] } }])
  spec(sandbox)(created, seeded([3]), { type: 'SandboxReset', data: { org_id: 7, retired_client_ids: [3] } })
    .when({ type: 'ResetSandbox', also_retire: [] })
    .then(t, [{ type: 'SandboxReset', data: { org_id: 7, retired_client_ids: [] } }])
})

t.test('fixture months follow the clock', async (t) => {
  t.same(fixtureMonths(now), ['2026-07', '2026-08', '2026-09', '2026-10', '2026-11'])
  t.same(fixtureMonths(new Date('2027-02-01T00:30:00Z'), 4), ['2026-11', '2026-12', '2027-01', '2027-02'], 'across a year boundary')
  for (const at of [now, new Date('2027-02-01T00:30:00Z')]) {
    for (const month of fixtureMonths(at)) {
      for (let i = 0; i < 12; i++) {
        const moment = momentIn(month, i, 12, at)
        t.ok(moment.getTime() < at.getTime(), `${month} #${i} is in the past`)
        t.equal(moment.toISOString().slice(0, 7), month, `${month} #${i} is in its month`)
      }
    }
  }
  t.ok(momentIn('2026-09', 0, 3, now) < momentIn('2026-09', 1, 3, now), 'in order within a month')
})

t.test('fixture answers: deterministic, read by the analysis as intended, improving over time', async (t) => {
  const client = {
    name: SANDBOX_CLIENT.name,
    websiteUrl: SANDBOX_CLIENT.websiteUrl,
    services: SANDBOX_CLIENT.services.map((s) => s.name),
    locations: SANDBOX_CLIENT.locations.map((l) => l.name),
  }
  t.equal(noise('x'), noise('x'))
  t.not(noise('x'), noise('y'))
  const counts = [0, 1, 2, 3, 4].map(() => ({ present: 0, first: 0 }))
  const placements = new Set<string>()
  for (const service of client.services) {
    for (const location of client.locations) {
      for (const engine of ['claude', 'openai']) {
        for (const [monthIndex, month] of fixtureMonths(now).entries()) {
          const prompt = `best ${service.toLowerCase()} in ${location}`
          const input = { prompt, service, location, engine, monthIndex, month }
          const answer = fixtureAnswer(input)
          t.strictSame(fixtureAnswer(input), answer, 'the same answer every time')
          placements.add(answer.placement)
          const { scorecard } = analyze({
            answerText: answer.answerText,
            citations: answer.citations,
            retrieved: [],
            client,
            question: { prompt, service, location, kind: 'best-of' },
          })
          t.equal(scorecard.present, answer.placement !== 'absent', `${prompt} (${engine}, ${month}): present as written`)
          t.equal(scorecard.named_first, answer.placement === 'first', `${prompt} (${engine}, ${month}): named first as written`)
          if (scorecard.present) counts[monthIndex]!.present++
          if (scorecard.named_first) counts[monthIndex]!.first++
        }
      }
    }
  }
  t.same([...placements].sort(), ['absent', 'first', 'later'], 'every placement occurs')
  t.ok(counts[4]!.present > counts[0]!.present, `presence grows (${counts.map((c) => c.present).join(' → ')})`)
  t.ok(counts[4]!.first > counts[0]!.first, `named first grows (${counts.map((c) => c.first).join(' → ')})`)
})
