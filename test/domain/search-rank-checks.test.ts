/**
 * Rank checks, pure: the cadence (set, unchanged, when it is due), a client's checks (one open at a time, the
 * take and its lease, a resumed take keeping the plan, reports refused to a worker that lost the lease, the
 * end of a check, a check interrupted too often), the plan and what a resume skips, and how a results page
 * becomes a rank row (hosts, pages, locations, backoff).
 */
import t from 'tap'
import { backoffMs, MAX_BACKOFF_MS } from '../../domain/search/rank-checks/backoff.js'
import { cadenceIsDue, daysBetween, rankCadence, utcDay } from '../../domain/search/rank-checks/cadence.js'
import { clientChecks, MAX_CHECK_ATTEMPTS, type CheckPlan } from '../../domain/search/rank-checks/client-checks.js'
import type { RankCadenceEvent, RankCheckEvent } from '../../domain/search/rank-checks/events.js'
import { isClientHost, pageKey, siteHost } from '../../domain/search/rank-checks/hosts.js'
import { countryCode, dataForSeoLocationName, serpApiLocation } from '../../domain/search/rank-checks/locations.js'
import { checkPlan, pendingTasks } from '../../domain/search/rank-checks/plan.js'
import { matchingPage, rankRowOf, type SerpPage } from '../../domain/search/rank-checks/serp.js'
import { rankRowKey } from '../../domain/search/ranks/rank-row.js'
import { spec } from './given-when-then.js'

t.test('the cadence', async (t) => {
  const given = spec(rankCadence)
  const set = (frequency: 'daily' | 'weekly' | 'off', devices: ('desktop' | 'mobile')[]): RankCadenceEvent => ({
    type: 'RankCadenceSet',
    data: { client_id: 7, frequency, devices },
  })
  given()
    .when({ type: 'SetRankCadence', client_id: 7, frequency: 'daily', devices: ['mobile', 'desktop', 'mobile'] })
    .then(t, [set('daily', ['desktop', 'mobile'])])
  given(set('daily', ['desktop', 'mobile']))
    .when({ type: 'SetRankCadence', client_id: 7, frequency: 'daily', devices: ['desktop', 'mobile'] })
    .thenNothingHappens(t)
  given(set('daily', ['desktop', 'mobile']))
    .when({ type: 'SetRankCadence', client_id: 7, frequency: 'off', devices: ['desktop', 'mobile'] })
    .then(t, [set('off', ['desktop', 'mobile'])])
  given(set('weekly', ['desktop']))
    .when({ type: 'SetRankCadence', client_id: 7, frequency: 'weekly', devices: ['mobile'] })
    .then(t, [set('weekly', ['mobile'])])
})

t.test('when a cadence is due', async (t) => {
  t.equal(cadenceIsDue('daily', null, '2026-11-27'), true, 'never checked: due')
  t.equal(cadenceIsDue('daily', '2026-11-27', '2026-11-27'), false, 'checked today (by any trigger): not due')
  t.equal(cadenceIsDue('daily', '2026-11-26', '2026-11-27'), true)
  t.equal(cadenceIsDue('weekly', '2026-11-21', '2026-11-27'), false, 'six days: not yet')
  t.equal(cadenceIsDue('weekly', '2026-11-20', '2026-11-27'), true, 'seven days')
  t.equal(cadenceIsDue('weekly', null, '2026-11-27'), true)
  t.equal(cadenceIsDue('off', null, '2026-11-27'), false)
  t.equal(daysBetween('2026-02-27', '2026-03-01'), 2)
  t.equal(utcDay(new Date('2026-11-27T23:59:59.999-05:00')), '2026-11-28', 'the UTC day')
})

t.test("a client's checks", async (t) => {
  const given = spec(clientChecks)
  const queued = (checkId = 88, date = '2026-11-27'): RankCheckEvent => ({
    type: 'RankCheckQueued',
    data: { check_id: checkId, client_id: 7, date, trigger: 'manual', devices: ['desktop', 'mobile'] },
  })
  const plan: CheckPlan = { keyword_ids: [1, 2], location_ids: [5], devices: ['desktop', 'mobile'], tasks_total: 4 }
  const planned: RankCheckEvent = {
    type: 'RankCheckPlanned',
    data: { check_id: 88, client_id: 7, ...plan, keyword_ids: [1, 2], location_ids: [5], devices: ['desktop', 'mobile'] },
  }
  const started = (attempt: number, lease = '2026-11-27T10:01:00.000Z', recorded = 0): RankCheckEvent => ({
    type: 'RankCheckStarted',
    data: {
      check_id: 88,
      client_id: 7,
      attempt,
      provider: 'dataforseo',
      worker: `w${attempt}`,
      lease_expires_at: lease,
      tasks_recorded: recorded,
    },
  })
  const queue = (due?: 'daily' | 'weekly') =>
    ({
      type: 'QueueRankCheck',
      client_id: 7,
      check_id: 89,
      date: '2026-11-28',
      trigger: due ? 'cadence' : 'manual',
      devices: ['desktop'],
      ...(due ? { due } : {}),
    }) as const
  const start = (now: string, worker = 'w2') =>
    ({
      type: 'StartRankCheck',
      check_id: 88,
      now,
      lease_until: '2026-11-27T11:00:00.000Z',
      worker,
      provider: 'serpapi',
      tasks_recorded: 1,
      plan,
    }) as const
  const counts = { tasks_done: 3, tasks_failed: 1, calls: 5, retries: 2 }
  const completed: RankCheckEvent = {
    type: 'RankCheckCompleted',
    data: { check_id: 88, client_id: 7, attempt: 1, tasks_done: 3, tasks_failed: 1, provider_calls: 5, retries: 2 },
  }

  given()
    .when(queue())
    .then(t, [
      { type: 'RankCheckQueued', data: { check_id: 89, client_id: 7, date: '2026-11-28', trigger: 'manual', devices: ['desktop'] } },
    ])
  given(queued()).when(queue()).thenNothingHappens(t)
  given(queued(), planned, started(1)).when(queue()).thenNothingHappens(t)
  given(queued(88, '2026-11-28'), planned, started(1), completed).when(queue('daily')).thenNothingHappens(t)
  given(queued(88, '2026-11-27'), planned, started(1), completed)
    .when(queue('daily'))
    .then(t, [
      { type: 'RankCheckQueued', data: { check_id: 89, client_id: 7, date: '2026-11-28', trigger: 'cadence', devices: ['desktop'] } },
    ])
  given(queued(88, '2026-11-27'), planned, started(1), completed).when(queue('weekly')).thenNothingHappens(t)

  // The first take fixes the plan; a take of a held check is refused until its lease runs out.
  given(queued())
    .when(start('2026-11-27T10:00:00.000Z', 'w1'))
    .then(t, [
      { ...planned },
      {
        type: 'RankCheckStarted',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: 1,
          provider: 'serpapi',
          worker: 'w1',
          lease_expires_at: '2026-11-27T11:00:00.000Z',
          tasks_recorded: 1,
        },
      },
    ])
  given(queued(), planned, started(1)).when(start('2026-11-27T10:00:30.000Z')).thenThrows(t, 'rank_check_held')
  given(queued(), planned, started(1))
    .when(start('2026-11-27T10:01:00.000Z'))
    .then(t, [
      {
        type: 'RankCheckStarted',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: 2,
          provider: 'serpapi',
          worker: 'w2',
          lease_expires_at: '2026-11-27T11:00:00.000Z',
          tasks_recorded: 1,
        },
      },
    ])
  given(queued())
    .when({ ...start('2026-11-27T10:00:00.000Z'), check_id: 87 })
    .thenThrows(t, 'rank_check_not_open')
  given(queued(), planned, started(1), completed).when(start('2026-11-27T12:00:00.000Z')).thenThrows(t, 'rank_check_not_open')

  // A check whose workers keep stopping is failed, not taken for ever.
  const takes = Array.from({ length: MAX_CHECK_ATTEMPTS }, (_, i) => started(i + 1))
  given(queued(), planned, ...takes)
    .when(start('2026-11-27T12:00:00.000Z'))
    .then(t, [
      {
        type: 'RankCheckFailed',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: MAX_CHECK_ATTEMPTS,
          error: {
            code: 'rank_check_interrupted',
            message: `the check was taken ${MAX_CHECK_ATTEMPTS} times and each worker stopped before finishing it`,
          },
          tasks_done: 0,
          tasks_failed: 0,
          provider_calls: 0,
          retries: 0,
        },
      },
    ])

  // Reports: only from the holder; calls and retries add up across reports (and takes).
  const progressed: RankCheckEvent = {
    type: 'RankCheckProgressed',
    data: {
      check_id: 88,
      client_id: 7,
      attempt: 1,
      lease_expires_at: '2026-11-27T10:02:00.000Z',
      tasks_done: 3,
      tasks_failed: 1,
      provider_calls: 5,
      retries: 2,
    },
  }
  given(queued(), planned, started(1))
    .when({ type: 'ReportRankCheckProgress', check_id: 88, attempt: 1, lease_until: '2026-11-27T10:02:00.000Z', ...counts })
    .then(t, [progressed])
  given(queued(), planned, started(1), progressed)
    .when({ type: 'CompleteRankCheck', check_id: 88, attempt: 1, tasks_done: 4, tasks_failed: 0, calls: 1, retries: 0 })
    .then(t, [
      {
        type: 'RankCheckCompleted',
        data: { check_id: 88, client_id: 7, attempt: 1, tasks_done: 4, tasks_failed: 0, provider_calls: 6, retries: 2 },
      },
    ])
  given(queued(), planned, started(1), progressed, started(2, '2026-11-27T10:05:00.000Z'))
    .when({ type: 'ReportRankCheckProgress', check_id: 88, attempt: 1, lease_until: '2026-11-27T10:02:00.000Z', ...counts })
    .thenThrows(t, 'rank_check_not_held')
  given(queued())
    .when({ type: 'CompleteRankCheck', check_id: 88, attempt: 1, ...counts })
    .thenThrows(t, 'rank_check_not_held')
  given(queued(), planned, started(1))
    .when({
      type: 'FailRankCheckTask',
      check_id: 88,
      attempt: 1,
      keyword_id: 2,
      location_id: null,
      device: 'mobile',
      error: { code: 'rank_provider_unavailable', message: 'HTTP 503' },
      tries: 4,
    })
    .then(t, [
      {
        type: 'RankCheckTaskFailed',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: 1,
          keyword_id: 2,
          location_id: null,
          device: 'mobile',
          error: { code: 'rank_provider_unavailable', message: 'HTTP 503' },
          tries: 4,
        },
      },
    ])

  // Failing: by the holder, or (attempt null) one nobody holds.
  const unauthorized = { code: 'rank_provider_unauthorized' as const, message: 'HTTP 401' }
  given(queued(), planned, started(1))
    .when({ type: 'FailRankCheck', check_id: 88, attempt: 1, now: '2026-11-27T10:00:10.000Z', error: unauthorized, ...counts })
    .then(t, [
      {
        type: 'RankCheckFailed',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: 1,
          error: unauthorized,
          tasks_done: 3,
          tasks_failed: 1,
          provider_calls: 5,
          retries: 2,
        },
      },
    ])
  const notConfigured = { code: 'rank_provider_not_configured' as const, message: 'none' }
  const zero = { tasks_done: 0, tasks_failed: 0, calls: 0, retries: 0 }
  given(queued())
    .when({ type: 'FailRankCheck', check_id: 88, attempt: null, now: '2026-11-27T10:00:00.000Z', error: notConfigured, ...zero })
    .then(t, [
      {
        type: 'RankCheckFailed',
        data: {
          check_id: 88,
          client_id: 7,
          attempt: 0,
          error: notConfigured,
          tasks_done: 0,
          tasks_failed: 0,
          provider_calls: 0,
          retries: 0,
        },
      },
    ])
  given(queued(), planned, started(1))
    .when({ type: 'FailRankCheck', check_id: 88, attempt: null, now: '2026-11-27T10:00:10.000Z', error: notConfigured, ...zero })
    .thenThrows(t, 'rank_check_held')
})

t.test('the plan, and what a resumed check skips', async (t) => {
  const plan = checkPlan([1, 2], [], ['desktop', 'mobile'])
  t.equal(plan.tasks_total, 4, 'no locations: one national search per keyword and device')
  t.equal(checkPlan([1, 2, 3], [5, 6], ['desktop']).tasks_total, 6)
  const recorded = new Set([rankRowKey({ keyword_id: 1, location_id: null, device: 'mobile', date: '2026-11-27' })])
  t.same(pendingTasks(plan, '2026-11-27', recorded), [
    { keyword_id: 1, location_id: null, device: 'desktop' },
    { keyword_id: 2, location_id: null, device: 'desktop' },
    { keyword_id: 2, location_id: null, device: 'mobile' },
  ])
  t.equal(pendingTasks(plan, '2026-11-28', recorded).length, 4, 'another day records its own')
})

t.test('hosts and pages', async (t) => {
  t.equal(siteHost('https://WWW.Acme.com/a?b'), 'acme.com')
  t.equal(siteHost('acme.com'), 'acme.com')
  t.equal(siteHost(''), null)
  t.equal(siteHost('http://'), null)
  t.ok(isClientHost('blog.acme.com', 'acme.com'), 'a subdomain is the client')
  t.notOk(isClientHost('notacme.com', 'acme.com'), 'a look-alike is not')
  t.notOk(isClientHost(null, 'acme.com'))
  t.equal(pageKey('https://www.acme.com/services/drains/?utm=1#top'), 'acme.com/services/drains')
  t.equal(pageKey('http://acme.com'), 'acme.com')
  const pages = [
    { id: 1, url: 'https://acme.com/' },
    { id: 2, url: 'https://acme.com/drains' },
  ]
  t.equal(matchingPage('https://www.acme.com/drains/', [], pages), 2, 'by URL among the pages')
  t.equal(matchingPage('https://acme.com/drains', [{ id: 9, url: 'http://www.acme.com/drains' }], pages), 9, 'an associated page first')
  t.equal(matchingPage('https://acme.com/other', [], pages), null)
  t.equal(matchingPage(null, [], pages), null)
})

t.test('a results page as a rank row: nothing of the client, or a client beyond 100', async (t) => {
  const page: SerpPage = {
    organic: [
      { position: 1, url: 'https://a.example/' },
      { position: 1, url: 'https://a.example/dup' },
      { position: 101, url: 'https://acme.com/' },
    ],
    localPack: [{ title: 'ACME  plumbing', url: null, domain: null }],
    featuredSnippet: { url: 'https://acme.com/x', domain: 'acme.com' },
    peopleAlsoAsk: false,
    aiOverview: { references: [] },
  }
  const row = rankRowOf(page, {
    task: { keyword_id: 1, location_id: null, device: 'desktop' },
    date: '2026-11-27',
    source: 'serpapi',
    client: { websiteUrl: 'acme.com', name: 'Acme Plumbing' },
    pageOf: () => 5,
  })
  t.equal(row.position, null, 'position 101 is beyond the top 100')
  t.equal(row.url, null)
  t.same(row.competitors, ['a.example'], 'one site once')
  t.same(row.serp_features, {
    local_pack: true,
    local_pack_includes_client: true,
    featured_snippet: true,
    featured_snippet_is_client: true,
    people_also_ask: false,
    ai_overview: true,
    ai_overview_cites_client: false,
  })
})

t.test('locations as the providers name them', async (t) => {
  const austin = { name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' }
  t.equal(dataForSeoLocationName(austin), 'Austin,Texas,United States')
  t.equal(serpApiLocation(austin), 'Austin, Texas, United States')
  t.equal(
    dataForSeoLocationName({ name: 'Round Rock, TX', city: '', state: '', country: '' }),
    'Round Rock,Texas,United States',
    'from the display name',
  )
  t.equal(dataForSeoLocationName({ name: 'Toronto', city: 'Toronto', state: 'Ontario', country: 'CA' }), 'Toronto,Ontario,Canada')
  t.equal(countryCode({ name: 'Toronto', city: 'Toronto', state: 'Ontario', country: 'Canada' }), 'ca')
  t.equal(dataForSeoLocationName(null), 'United States', 'national')
  t.equal(serpApiLocation(null), null)
  t.equal(countryCode(null), 'us')
})

t.test('backoff: exponential, jittered, capped, and a longer Retry-After wins', async (t) => {
  t.equal(backoffMs(1, 1000, 0), 500, 'half the step at the least')
  t.equal(backoffMs(1, 1000, 0.999999), 1000)
  t.equal(backoffMs(3, 1000, 0), 2000, 'doubles each try')
  t.equal(backoffMs(30, 1000, 1), MAX_BACKOFF_MS, 'capped')
  t.equal(backoffMs(1, 1000, 0, 5000), 5000)
  t.equal(backoffMs(1, 1000, 0, 10), 500, 'a shorter Retry-After does not shorten the backoff')
})
