/**
 * The AI Visibility run state machine, the cadence and agent aggregates, and the due() spread, in
 * given/when/then form: no database, no clock.
 */
import fc from 'fast-check'
import t from 'tap'
import { agent } from '../../domain/aeo/runs/agent.js'
import { cadence, daysInMonth, dueSamples, monthAndDay, runsToQueue } from '../../domain/aeo/runs/cadence.js'
import type { AeoAgentEvent, AeoRunEvent } from '../../domain/aeo/runs/events.js'
import { MAX_RETRY_AFTER_SECONDS, parseBackoffSchedule, retryDelaySeconds } from '../../domain/aeo/runs/backoff.js'
import { run, type AgentRef, type RunCommand } from '../../domain/aeo/runs/run.js'
import { spec } from './given-when-then.js'

const given = spec(run)
const A: AgentRef = { agent_id: 'device-1', agent_org_id: 7 }
const B: AgentRef = { agent_id: 'device-2', agent_org_id: 7 }
const SERVER: AgentRef = { agent_id: 'server-api', agent_org_id: null }
const LEASE = '2026-11-15T12:15:00.000Z'
/** When the claims and failures below happen (the lease runs out at LEASE). */
const NOW = '2026-11-15T12:00:00.000Z'
const BACKOFF = [60, 300]
const plus = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString()

const queueRun = (over: Partial<Extract<RunCommand, { type: 'QueueRun' }>> = {}): RunCommand => ({
  type: 'QueueRun',
  run_id: 5,
  client_id: 3,
  query_id: 9,
  engine: 'claude',
  month: '2026-11',
  geo_state: 'TX',
  priority: 50,
  sample: 1,
  reason: 'enqueue',
  ...over,
})
const queued: AeoRunEvent = {
  type: 'AeoRunQueued',
  data: {
    run_id: 5,
    client_id: 3,
    query_id: 9,
    engine: 'claude',
    month: '2026-11',
    geo_state: 'TX',
    priority: 50,
    sample: 1,
    reason: 'enqueue',
  },
}
const claimed = (by: AgentRef = A, attempt = 1, lease = LEASE): AeoRunEvent => ({
  type: 'AeoRunClaimed',
  data: { run_id: 5, ...by, attempt, lease_expires_at: lease },
})
const started = (by: AgentRef = A): AeoRunEvent => ({ type: 'AeoRunStarted', data: { run_id: 5, ...by } })
const completed = (by: AgentRef = A, capture_id = 77): AeoRunEvent => ({ type: 'AeoRunCompleted', data: { run_id: 5, ...by, capture_id } })
/** A failure as FailRun decides it: retry_at is the backoff for the attempt (null when final). */
const failed = (
  by: AgentRef,
  attempt: number,
  retry: boolean,
  error = 'rate limited',
  retry_at: string | null = retry ? plus(NOW, BACKOFF[attempt - 1] ?? 300) : null,
): AeoRunEvent => ({
  type: 'AeoRunFailed',
  data: { run_id: 5, ...by, error, attempt, retry, retry_at },
})
const expired = (by: AgentRef = A): AeoRunEvent => ({ type: 'AeoRunClaimExpired', data: { run_id: 5, ...by } })
const cancelled: AeoRunEvent = { type: 'AeoRunCancelled', data: { run_id: 5, reason: 'requested' } }

t.test('QueueRun', async (t) => {
  t.test('a new run is one AeoRunQueued', async (t) => given().when(queueRun()).then(t, [queued]))
  t.test('a run queued twice is refused', async (t) => given(queued).when(queueRun()).thenThrows(t, 'already_exists'))
})

t.test('ClaimRun', async (t) => {
  const claim = (by: AgentRef = A, now = NOW): RunCommand => ({ type: 'ClaimRun', agent: by, lease_expires_at: LEASE, now })
  t.test('a queued run is claimed, attempt 1', async (t) => given(queued).when(claim()).then(t, [claimed()]))
  t.test('a run queued again after a failure counts the attempt on', async (t) =>
    given(queued, claimed(), failed(A, 1, true))
      .when(claim(B, plus(NOW, 60)))
      .then(t, [claimed(B, 2)]),
  )
  t.test('a failed run is not claimable before its retry time', async (t) =>
    given(queued, claimed(), failed(A, 1, true))
      .when(claim(B, plus(NOW, 59.999)))
      .thenThrows(t, 'aeo_run_not_claimable'),
  )
  t.test('a failure recorded before backoff existed (no retry_at) is claimable at once', async (t) =>
    given(queued, claimed(), { type: 'AeoRunFailed', data: { run_id: 5, ...A, error: 'old', attempt: 1, retry: true } })
      .when(claim(B))
      .then(t, [claimed(B, 2)]),
  )
  t.test('a run back from an expired claim counts the attempt on', async (t) =>
    given(queued, claimed(), expired())
      .when(claim(B))
      .then(t, [claimed(B, 2)]),
  )
  for (const [label, history] of [
    ['claimed', [queued, claimed()]],
    ['running', [queued, claimed(), started()]],
    ['done', [queued, claimed(), completed()]],
    ['failed', [queued, claimed(), failed(A, 1, false)]],
    ['cancelled', [queued, cancelled]],
  ] as const) {
    t.test(`a ${label} run cannot be claimed`, async (t) =>
      given(...history)
        .when(claim(B))
        .thenThrows(t, 'aeo_run_not_claimable'),
    )
  }
  t.test('a missing run is not found', async (t) => given().when(claim()).thenThrows(t, 'not_found'))
})

t.test('StartRun and CompleteRun', async (t) => {
  t.test('the claimer starts its run', async (t) => given(queued, claimed()).when({ type: 'StartRun', agent: A }).then(t, [started()]))
  t.test('starting twice changes nothing', async (t) =>
    given(queued, claimed(), started()).when({ type: 'StartRun', agent: A }).thenNothingHappens(t),
  )
  t.test('another agent cannot start it', async (t) =>
    given(queued, claimed()).when({ type: 'StartRun', agent: B }).thenThrows(t, 'aeo_run_claimed_by_other'),
  )
  t.test('the claimer completes a claimed run', async (t) =>
    given(queued, claimed()).when({ type: 'CompleteRun', agent: A, capture_id: 77 }).then(t, [completed()]),
  )
  t.test('the claimer completes a running run', async (t) =>
    given(queued, claimed(), started()).when({ type: 'CompleteRun', agent: A, capture_id: 77 }).then(t, [completed()]),
  )
  t.test('the same completion again is accepted and changes nothing', async (t) =>
    given(queued, claimed(), completed()).when({ type: 'CompleteRun', agent: A, capture_id: 77 }).thenNothingHappens(t),
  )
  t.test('another capture on a done run is refused', async (t) =>
    given(queued, claimed(), completed()).when({ type: 'CompleteRun', agent: A, capture_id: 78 }).thenThrows(t, 'aeo_run_not_claimed'),
  )
  t.test('another agent cannot complete it', async (t) =>
    given(queued, claimed()).when({ type: 'CompleteRun', agent: B, capture_id: 77 }).thenThrows(t, 'aeo_run_claimed_by_other'),
  )
  t.test('the same agent id under another organization is another agent', async (t) =>
    given(queued, claimed())
      .when({ type: 'CompleteRun', agent: { agent_id: 'device-1', agent_org_id: 8 }, capture_id: 77 })
      .thenThrows(t, 'aeo_run_claimed_by_other'),
  )
  t.test('a queued run cannot be completed', async (t) =>
    given(queued).when({ type: 'CompleteRun', agent: A, capture_id: 77 }).thenThrows(t, 'aeo_run_not_claimed'),
  )
  t.test('a cancelled run cannot be completed', async (t) =>
    given(queued, cancelled).when({ type: 'CompleteRun', agent: A, capture_id: 77 }).thenThrows(t, 'aeo_run_not_claimed'),
  )
})

t.test('FailRun: retried while attempts are left, then failed', async (t) => {
  const fail = (by: AgentRef = A, over: Partial<Extract<RunCommand, { type: 'FailRun' }>> = {}): RunCommand => ({
    type: 'FailRun',
    agent: by,
    error: 'rate limited',
    max_attempts: 2,
    now: NOW,
    backoff_seconds: BACKOFF,
    ...over,
  })
  t.test('attempt 1 of 2 is retried', async (t) =>
    given(queued, claimed())
      .when(fail())
      .then(t, [failed(A, 1, true)]),
  )
  t.test('attempt 2 of 2 is final', async (t) =>
    given(queued, claimed(), failed(A, 1, true), claimed(B, 2))
      .when(fail(B))
      .then(t, [failed(B, 2, false)]),
  )
  t.test('only the claimer fails it', async (t) => given(queued, claimed()).when(fail(B)).thenThrows(t, 'aeo_run_claimed_by_other'))
  t.test('a queued run cannot be failed', async (t) => given(queued).when(fail()).thenThrows(t, 'aeo_run_not_claimed'))
  t.test('the server agent (a platform agent) fails its own run', async (t) =>
    given(queued, claimed(SERVER))
      .when(fail(SERVER))
      .then(t, [failed(SERVER, 1, true)]),
  )
  t.test('a long error is cut to 2000 characters', async (t) =>
    given(queued, claimed())
      .when(fail(A, { error: 'x'.repeat(3000), max_attempts: 3 }))
      .then(t, [failed(A, 1, true, 'x'.repeat(2000))]),
  )
})

t.test('FailRun: the retry waits for the backoff of its attempt, or for the Retry-After given', async (t) => {
  const fail = (over: Partial<Extract<RunCommand, { type: 'FailRun' }>> = {}): RunCommand => ({
    type: 'FailRun',
    agent: B,
    error: 'rate limited',
    max_attempts: 5,
    now: NOW,
    backoff_seconds: BACKOFF,
    ...over,
  })
  const secondClaim = [queued, claimed(), failed(A, 1, true), claimed(B, 2)] as const
  t.test('attempt 2 waits the second entry', async (t) =>
    given(...secondClaim)
      .when(fail())
      .then(t, [failed(B, 2, true, 'rate limited', plus(NOW, 300))]),
  )
  t.test('attempts beyond the schedule wait its last entry', async (t) =>
    given(...secondClaim, failed(B, 2, true), claimed(A, 3))
      .when(fail({ agent: A }))
      .then(t, [failed(A, 3, true, 'rate limited', plus(NOW, 300))]),
  )
  t.test("a provider's Retry-After replaces the schedule", async (t) =>
    given(...secondClaim)
      .when(fail({ retry_after_seconds: 7.5 }))
      .then(t, [failed(B, 2, true, 'rate limited', plus(NOW, 7.5))]),
  )
  t.test('a Retry-After of 0 retries at once', async (t) =>
    given(...secondClaim)
      .when(fail({ retry_after_seconds: 0 }))
      .then(t, [failed(B, 2, true, 'rate limited', NOW)]),
  )
  t.test('a Retry-After is capped at a day', async (t) =>
    given(...secondClaim)
      .when(fail({ retry_after_seconds: 10 * 86_400 }))
      .then(t, [failed(B, 2, true, 'rate limited', plus(NOW, MAX_RETRY_AFTER_SECONDS))]),
  )
  t.test('an empty schedule retries at once', async (t) =>
    given(...secondClaim)
      .when(fail({ backoff_seconds: [] }))
      .then(t, [failed(B, 2, true, 'rate limited', NOW)]),
  )
  t.test('the last attempt has no retry time', async (t) =>
    given(...secondClaim)
      .when(fail({ max_attempts: 2, retry_after_seconds: 30 }))
      .then(t, [failed(B, 2, false)]),
  )
  t.test('the state carries the retry time until the next claim or a cancel', async (t) => {
    const fold = (events: readonly AeoRunEvent[]) => events.reduce(run.evolve, run.initialState())
    t.equal(fold([queued, claimed(), failed(A, 1, true)]).retryAt, plus(NOW, 60))
    t.equal(fold([queued, claimed(), failed(A, 1, true), claimed(B, 2)]).retryAt, null)
    t.equal(fold([queued, claimed(), failed(A, 1, true), cancelled]).retryAt, null)
  })
})

t.test('backoff schedule', async (t) => {
  t.equal(retryDelaySeconds(1, [60, 300, 1800]), 60)
  t.equal(retryDelaySeconds(3, [60, 300, 1800]), 1800)
  t.equal(retryDelaySeconds(9, [60, 300, 1800]), 1800, 'the last entry repeats')
  t.equal(retryDelaySeconds(0, [60, 300]), 60, 'attempt 0 (never claimed) counts as the first')
  t.equal(retryDelaySeconds(2, [60], 12), 12, 'Retry-After wins')
  t.equal(retryDelaySeconds(2, [60], null), 60)
  t.same(parseBackoffSchedule('60,300,1800'), [60, 300, 1800])
  t.same(parseBackoffSchedule(' 0 , 5 '), [0, 5])
  t.equal(parseBackoffSchedule(''), null)
  t.equal(parseBackoffSchedule('60,,300'), null)
  t.equal(parseBackoffSchedule('-1'), null)
  t.equal(parseBackoffSchedule('1.5'), null)
  t.equal(parseBackoffSchedule('86401'), null, 'more than a day')
})

t.test('ExpireClaim', async (t) => {
  const expire = (now: string, max_attempts = 3): RunCommand => ({ type: 'ExpireClaim', now, max_attempts })
  t.test('a lease that ran out returns the run to the queue', async (t) =>
    given(queued, claimed()).when(expire(LEASE)).then(t, [expired()]),
  )
  t.test('a running run whose lease ran out too', async (t) =>
    given(queued, claimed(), started()).when(expire('2026-11-16T00:00:00.000Z')).then(t, [expired()]),
  )
  t.test('a live lease is left alone', async (t) => given(queued, claimed()).when(expire('2026-11-15T12:14:59.999Z')).thenNothingHappens(t))
  t.test('a run no longer claimed is left alone', async (t) =>
    given(queued, claimed(), completed()).when(expire('2027-01-01T00:00:00.000Z')).thenNothingHappens(t),
  )
  t.test('the last attempt running out fails the run', async (t) =>
    given(queued, claimed(A, 1), expired(), claimed(B, 2))
      .when(expire(LEASE, 2))
      .then(t, [{ type: 'AeoRunFailed', data: { run_id: 5, ...B, error: 'claim expired without a result', attempt: 2, retry: false } }]),
  )
})

t.test('CancelRun cancels only queued runs', async (t) => {
  const cancel: RunCommand = { type: 'CancelRun', reason: 'requested' }
  t.test('queued → cancelled', async (t) => given(queued).when(cancel).then(t, [cancelled]))
  t.test('queued again after a retry → cancelled', async (t) =>
    given(queued, claimed(), failed(A, 1, true))
      .when(cancel)
      .then(t, [cancelled]),
  )
  for (const [label, history] of [
    ['claimed', [queued, claimed()]],
    ['running', [queued, claimed(), started()]],
    ['done', [queued, claimed(), completed()]],
    ['cancelled', [queued, cancelled]],
  ] as const) {
    t.test(`a ${label} run is left alone`, async (t) =>
      given(...history)
        .when(cancel)
        .thenNothingHappens(t),
    )
  }
})

t.test('the state after each step', async (t) => {
  const fold = (events: AeoRunEvent[]) => events.reduce(run.evolve, run.initialState())
  t.equal(fold([queued]).status, 'queued')
  t.equal(fold([queued, claimed()]).status, 'claimed')
  t.same(fold([queued, claimed()]).agent, A)
  t.equal(fold([queued, claimed(), started()]).status, 'running')
  t.equal(fold([queued, claimed(), completed()]).captureId, 77)
  t.equal(fold([queued, claimed(), failed(A, 1, true)]).status, 'queued')
  t.equal(fold([queued, claimed(), failed(A, 1, true)]).agent, null)
  t.equal(fold([queued, claimed(), failed(A, 1, false)]).status, 'failed')
  t.equal(fold([queued, claimed(), expired()]).status, 'queued')
  t.equal(fold([queued, cancelled]).status, 'cancelled')
})

t.test('SetCadence', async (t) => {
  const given = spec(cadence)
  const set = (
    over: Partial<{
      enabled: boolean
      samples_per_month: number
      engines: ('claude' | 'openai' | 'gemini' | 'chatgpt-web')[]
      geo_state: string | null
    }> = {},
  ) => ({
    type: 'SetCadence' as const,
    client_id: 3,
    enabled: true,
    samples_per_month: 4,
    engines: ['claude', 'openai'] as ('claude' | 'openai' | 'gemini' | 'chatgpt-web')[],
    geo_state: null,
    ...over,
  })
  const setEvent = (over: Parameters<typeof set>[0] = {}) => {
    const { type: _t, ...data } = set(over)
    return { type: 'AeoCadenceSet' as const, data }
  }
  t.test('first enrolment', async (t) => given().when(set()).then(t, [setEvent()]))
  t.test('the same cadence again changes nothing', async (t) => given(setEvent()).when(set()).thenNothingHappens(t))
  t.test('engines given twice are kept once', async (t) =>
    given()
      .when(set({ engines: ['claude', 'claude', 'gemini'] }))
      .then(t, [setEvent({ engines: ['claude', 'gemini'] })]),
  )
  t.test('disabling is a change', async (t) =>
    given(setEvent())
      .when(set({ enabled: false }))
      .then(t, [setEvent({ enabled: false })]),
  )
  t.test('a geo is a change', async (t) =>
    given(setEvent())
      .when(set({ geo_state: 'TX' }))
      .then(t, [setEvent({ geo_state: 'TX' })]),
  )
})

t.test('agent CheckIn', async (t) => {
  const caps = { engines: ['chatgpt-web' as const], geo: 'TX', max_per_day: 50 }
  const at = (events: [AeoAgentEvent, string][]) =>
    events.reduce((s, [e, when]) => agent.evolve(s, { ...e, metadata: { occurred_at: when } }), agent.initialState())
  const registered: AeoAgentEvent = { type: 'AeoAgentRegistered', data: { ...A, capabilities: caps } }
  const decide = (state: ReturnType<typeof agent.initialState>, now: string, capabilities = caps) =>
    agent.decide({ type: 'CheckIn', agent: A, capabilities, now }, state)
  t.same(decide(agent.initialState(), '2026-11-15T12:00:00.000Z'), [registered], 'first check-in registers')
  const state = at([[registered, '2026-11-15T12:00:00.000Z']])
  t.same(decide(state, '2026-11-15T12:00:59.999Z'), [], 'within a minute: nothing')
  t.same(decide(state, '2026-11-15T12:01:00.000Z'), [{ type: 'AeoAgentSeen', data: A }], 'a minute later: seen')
  const wider = { ...caps, geo: 'any' }
  t.same(
    decide(state, '2026-11-15T12:00:10.000Z', wider),
    [{ type: 'AeoAgentCapabilitiesChanged', data: { ...A, capabilities: wider } }],
    'changed capabilities are recorded',
  )
})

t.test('due(): the month spread', async (t) => {
  t.equal(daysInMonth('2026-02'), 28)
  t.equal(daysInMonth('2028-02'), 29)
  t.equal(daysInMonth('2026-11'), 30)
  t.equal(daysInMonth('2026-12'), 31)
  t.same(monthAndDay(new Date('2026-11-15T23:59:59.999Z')), { month: '2026-11', day: 15 })
  t.same(monthAndDay(new Date('2026-12-01T00:00:00.000Z')), { month: '2026-12', day: 1 })
  t.equal(dueSamples(4, 15, 30), 2, 'half the month: half the samples')
  t.equal(dueSamples(4, 1, 30), 1, 'day 1: the first sample at once')
  t.equal(dueSamples(4, 30, 30), 4, 'the last day: all of them')
  t.equal(dueSamples(30, 7, 30), 7, 'one a day')
  t.equal(dueSamples(0, 7, 30), 0)
  t.equal(runsToQueue(3, 1), 2)
  t.equal(runsToQueue(3, 5), 0, 'never negative')

  t.test('properties', async (t) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 28, max: 31 }), (s, days) => {
        let previous = 0
        for (let day = 1; day <= days; day++) {
          const due = dueSamples(s, day, days)
          if (due < previous || due > s || due < 1) return false
          // Spread: never ahead of the even pace by a whole sample or more.
          if (due - (s * day) / days >= 1) return false
          previous = due
        }
        return previous === s
      }),
    )
    t.pass('due is monotone, at least 1, at most S, within one sample of the even pace, and S on the last day')
  })
})
