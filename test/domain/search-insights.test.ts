/**
 * SEO insights and meta optimizations, pure: each rule on plain inputs (rank drop, keyword without a page,
 * cannibalization from Search Console and from ranks, low CTR against the expected-CTR curve, AI Overview
 * without the client, AI answers without the client), derivation (one per key, the per-type cap), the
 * insight set (raise once while it holds, resolve when it stops, status changes), the meta optimization
 * set (one open per page, stage, applied and rolled back as facts, reject), the writer within the limits,
 * the model's answer and the head tags.
 */
import fc from 'fast-check'
import t from 'tap'
import { deriveInsights, MAX_FINDINGS_PER_TYPE } from '../../domain/search/insights/derive.js'
import type { InsightsEvent } from '../../domain/search/insights/events.js'
import { expectedCtr } from '../../domain/search/insights/expected-ctr.js'
import { captureOfDays, gscPeriodOf, queryPageTotals } from '../../domain/search/insights/gsc-period.js'
import { readMetaDescription, readTitleTag, withMetaTags } from '../../domain/search/insights/head-tags.js'
import type { InsightInputs, RankObservation } from '../../domain/search/insights/inputs.js'
import { isStale, newFindingCount, seoInsightSet, type InsightSetCommand } from '../../domain/search/insights/insight-set.js'
import type { Finding } from '../../domain/search/insights/kinds.js'
import { fitsDescription, fitsTitle, META_DESCRIPTION_MAX_CHARS, META_TITLE_MAX_CHARS } from '../../domain/search/insights/meta-limits.js'
import { readMetaRewriteAnswer } from '../../domain/search/insights/meta-model-answer.js'
import { metaOptimizationSet, proposedSince, type MetaProposal } from '../../domain/search/insights/meta-optimization-set.js'
import { metaRewritePayload, optimizationOfPayload } from '../../domain/search/insights/meta-payload.js'
import { builtInMetaRewrite, titleCase } from '../../domain/search/insights/meta-writer.js'
import { pageMatcher } from '../../domain/search/insights/page-match.js'
import { aiAnswersFindings } from '../../domain/search/insights/rules/ai-answers.js'
import { aiOverviewFindings } from '../../domain/search/insights/rules/ai-overview.js'
import { cannibalizationFindings } from '../../domain/search/insights/rules/cannibalization.js'
import { keywordWithoutPageFindings } from '../../domain/search/insights/rules/keyword-without-page.js'
import { lowCtrFindings } from '../../domain/search/insights/rules/low-ctr.js'
import { pageProblemFindings } from '../../domain/search/insights/rules/page-problem.js'
import { rankDropFindings } from '../../domain/search/insights/rules/rank-drop.js'
import { NO_SERP_FEATURES, type SerpFeatures } from '../../domain/search/ranks/rank-row.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const keywords = [
  { id: 1, keyword: 'drain cleaning austin', service: 'Drain cleaning', location: 'Austin, TX' },
  { id: 2, keyword: 'water heater repair', service: 'Water heaters', location: 'Austin, TX' },
  { id: 3, keyword: 'emergency plumber', service: '', location: '' },
]
const pages = [
  { id: 10, url: 'https://acme.example/drain-cleaning/', title: 'Drain Cleaning' },
  { id: 11, url: '/water-heaters', title: 'Water Heaters' },
  { id: 12, url: 'https://acme.example/', title: 'Acme Plumbing' },
]
const empty: InsightInputs = {
  keywords: [],
  pages: [],
  associations: [],
  ranks: [],
  locations: new Map([[7, 'Austin, TX']]),
  gsc: [],
  gscPeriod: null,
  aeo: [],
  pageStates: [],
}

function rank(keyword_id: number, date: string, position: number | null, extra: Partial<RankObservation> = {}): RankObservation {
  return {
    keyword_id,
    location_id: 7,
    device: 'desktop',
    date,
    position,
    url: position === null ? null : 'https://acme.example/drain-cleaning/',
    page_id: position === null ? null : 10,
    serp_features: NO_SERP_FEATURES,
    ...extra,
  }
}

t.test('expected CTR: the curve falls with position and is read between positions', async (t) => {
  t.equal(expectedCtr(1), 0.276)
  t.equal(expectedCtr(0.5), 0.276, 'below 1 reads as 1')
  t.equal(expectedCtr(10), 0.024)
  t.equal(expectedCtr(75), 0.005, 'beyond page two the last value holds')
  t.ok(Math.abs(expectedCtr(1.5) - (0.276 + 0.158) / 2) < 1e-9, 'interpolated')
  fc.assert(
    fc.property(fc.double({ min: 1, max: 30, noNaN: true }), fc.double({ min: 1, max: 30, noNaN: true }), (a, b) =>
      a <= b ? expectedCtr(a) >= expectedCtr(b) : expectedCtr(a) <= expectedCtr(b),
    ),
  )
})

t.test('rank_drop: five positions worse than the best of the last four checks, or out of the top 10', async (t) => {
  const base = { ...empty, keywords }
  t.same(rankDropFindings({ ...base, ranks: [rank(1, '2026-10-01', 4), rank(1, '2026-10-02', 8)] }), [], 'four positions is not a drop')
  const [drop] = rankDropFindings({
    ...base,
    ranks: [rank(1, '2026-09-29', 2), rank(1, '2026-09-30', 3), rank(1, '2026-10-01', 3), rank(1, '2026-10-02', 9)],
  })
  t.match(drop, {
    insight_type: 'rank_drop',
    source: 'ranks',
    natural_key: 'rank_drop:1:7:desktop',
    severity: 'high',
    keyword_id: 1,
    page_id: 10,
    summary: '"drain cleaning austin" fell from #2 to #9 (Austin, TX, desktop)',
    evidence: { position: 9, previous_position: 2, previous_date: '2026-09-29', positions_lost: 7, left_top_10: false },
  })
  const [out] = rankDropFindings({ ...base, ranks: [rank(2, '2026-10-01', 9), rank(2, '2026-10-02', 12)] })
  t.match(out, { evidence: { left_top_10: true, positions_lost: 3 }, severity: 'high' }, 'leaving the top 10 is a drop of any size')
  const [gone] = rankDropFindings({ ...base, ranks: [rank(2, '2026-10-01', 40), rank(2, '2026-10-02', null)] })
  t.match(gone, { evidence: { position: null, positions_lost: 61 }, summary: /to not in the top 100/ }, 'out of the top 100 reads as 101')
  const aged = [1, 2, 3, 4, 5, 6].map((d) => rank(1, `2026-10-0${d}`, d === 1 ? 2 : 20))
  t.same(rankDropFindings({ ...base, ranks: aged }), [], 'four checks later the new position is the baseline')
  t.same(rankDropFindings({ ...base, ranks: [rank(1, '2026-10-01', 20), rank(1, '2026-10-02', 3)] }), [], 'a rise is not a drop')
  t.same(
    rankDropFindings({ ...base, ranks: [rank(9, '2026-10-01', 2), rank(9, '2026-10-02', 30)] }),
    [],
    'a keyword not active raises nothing',
  )
  t.same(rankDropFindings({ ...base, ranks: [rank(1, '2026-10-02', 30)] }), [], 'one check has nothing to compare')
  const mobile = rankDropFindings({
    ...base,
    ranks: [
      rank(1, '2026-10-01', 2, { device: 'mobile', location_id: null }),
      rank(1, '2026-10-02', 12, { device: 'mobile', location_id: null }),
    ],
  })
  t.equal(mobile[0]!.natural_key, 'rank_drop:1:0:mobile', 'each location × device is its own series')
  t.match(mobile[0]!.summary, /national, mobile/)
})

t.test('keyword_without_page: keywords no page serves, with the page that already ranks as the suggestion', async (t) => {
  const findings = keywordWithoutPageFindings({
    keywords,
    pages,
    associations: [{ keyword_id: 2, page_id: 11 }],
    ranks: [rank(1, '2026-10-02', 6), rank(3, '2026-10-02', 45, { url: 'https://acme.example/', page_id: 12 })],
  })
  t.same(
    findings.map((f) => [f.natural_key, f.severity, f.page_id]),
    [
      ['keyword_without_page:1', 'high', 10],
      ['keyword_without_page:3', 'medium', 12],
    ],
  )
  t.match(findings[0]!.evidence, { best_position: 6, suggested_page_id: 10, suggested_page_url: 'https://acme.example/drain-cleaning/' })
  t.equal(findings[0]!.source, 'crawl')
})

t.test('cannibalization: pages sharing a query in Search Console, and URLs taking turns in the ranks', async (t) => {
  const period = { start: '2026-09-01', end: '2026-09-28' }
  const gsc = [
    { query: 'drain cleaning austin', page: 'https://acme.example/drain-cleaning/', clicks: 20, impressions: 600, position: 4 },
    { query: 'drain cleaning austin', page: 'https://acme.example/', clicks: 5, impressions: 350, position: 9 },
    { query: 'drain cleaning austin', page: 'https://acme.example/blog/clogs', clicks: 0, impressions: 50, position: 30 },
    { query: 'water heater repair', page: 'https://acme.example/water-heaters', clicks: 3, impressions: 300, position: 6 },
    { query: 'water heater repair', page: 'https://acme.example/', clicks: 0, impressions: 20, position: 40 },
    { query: 'rare query', page: 'https://acme.example/a', clicks: 0, impressions: 20, position: 5 },
    { query: 'rare query', page: 'https://acme.example/b', clicks: 0, impressions: 20, position: 6 },
  ]
  const found = cannibalizationFindings({ keywords, pages, gsc, gscPeriod: period, ranks: [] })
  t.equal(found.length, 1, 'only the query with two real shares and enough impressions')
  t.match(found[0], {
    natural_key: 'cannibalization:gsc:drain cleaning austin',
    source: 'gsc',
    severity: 'high',
    keyword_id: 1,
    page_id: 10,
    evidence: {
      impressions: 1000,
      pages: [
        { url: 'https://acme.example/drain-cleaning/', page_id: 10, share: 0.6 },
        { url: 'https://acme.example/', page_id: 12, share: 0.35 },
        { url: 'https://acme.example/blog/clogs', page_id: null, share: 0.05 },
      ].slice(0, 2),
    },
  })
  t.equal((found[0]!.evidence.pages as unknown[]).length, 2, 'a page under 10 % of the impressions does not compete')
  t.same(cannibalizationFindings({ keywords, pages, gsc, gscPeriod: null, ranks: [] }), [], 'no period, no Search Console data')

  const turns = cannibalizationFindings({
    keywords,
    pages,
    gsc: [],
    gscPeriod: null,
    ranks: [
      rank(1, '2026-10-01', 5),
      rank(1, '2026-10-02', 7, { url: 'https://acme.example/', page_id: 12 }),
      rank(1, '2026-10-02', 6, { device: 'mobile' }),
      rank(2, '2026-10-02', 3, { url: '/water-heaters', page_id: 11 }),
    ],
  })
  t.same(
    turns.map((f) => [f.natural_key, f.source, f.page_id]),
    [['cannibalization:ranks:1', 'ranks', 10]],
  )
  t.match(turns[0]!.evidence, {
    urls: [
      { url: 'https://acme.example/drain-cleaning/', checks: 2, best_position: 5 },
      { page_id: 12, checks: 1 },
    ],
  })
})

t.test('low_ctr: CTR under half of what the position earns, with enough impressions, on the first two pages', async (t) => {
  const gscPeriod = { start: '2026-09-01', end: '2026-09-28' }
  const gsc = [
    { query: 'drain cleaning austin', page: 'https://ACME.example/drain-cleaning', clicks: 10, impressions: 1000, position: 3 },
    { query: 'water heater repair', page: 'https://acme.example/water-heaters', clicks: 60, impressions: 1000, position: 3 },
    { query: 'emergency plumber', page: 'https://acme.example/', clicks: 0, impressions: 99, position: 2 },
    { query: 'plumbing supplies', page: 'https://acme.example/', clicks: 0, impressions: 5000, position: 35 },
  ]
  const findings = lowCtrFindings({ gsc, gscPeriod, pages, keywords })
  t.equal(findings.length, 1)
  t.match(findings[0], {
    insight_type: 'low_ctr',
    source: 'gsc',
    natural_key: 'low_ctr:https://acme.example/drain-cleaning|drain cleaning austin',
    severity: 'high',
    keyword_id: 1,
    page_id: 10,
    evidence: { impressions: 1000, clicks: 10, ctr: 0.01, position: 3, expected_ctr: 0.11, missed_clicks: 100, period_end: '2026-09-28' },
  })
  t.same(lowCtrFindings({ gsc, gscPeriod: null, pages, keywords }), [], 'nothing without a period')
})

t.test('ai_overview_without_client: the latest SERP shows an overview that cites others', async (t) => {
  const aio = (cites: boolean): SerpFeatures => ({ ...NO_SERP_FEATURES, ai_overview: true, ai_overview_cites_client: cites })
  const findings = aiOverviewFindings({
    keywords,
    locations: empty.locations,
    ranks: [
      rank(1, '2026-10-01', 4, { serp_features: aio(true) }),
      rank(1, '2026-10-02', 4, { serp_features: aio(false) }),
      rank(1, '2026-10-02', 9, { device: 'mobile', serp_features: aio(false) }),
      rank(2, '2026-10-01', 30, { serp_features: aio(false) }),
      rank(2, '2026-10-02', 30, { serp_features: aio(true) }),
      rank(3, '2026-10-02', null, { serp_features: aio(false) }),
    ],
  })
  t.same(
    findings.map((f) => [f.natural_key, f.severity]),
    [
      ['ai_overview_without_client:1', 'high'],
      ['ai_overview_without_client:3', 'medium'],
    ],
    'only the latest check counts; page one makes it high',
  )
  t.match(findings[0]!.evidence, {
    best_position: 4,
    serps: [
      { device: 'desktop', position: 4 },
      { device: 'mobile', position: 9 },
    ],
  })
})

t.test('ai_answers_without_client: a top-3 keyword whose matching AI Visibility question never names the client', async (t) => {
  const question = {
    query_id: 40,
    prompt: 'Who is the best drain cleaning company in Austin?',
    service: 'drain  cleaning',
    location: 'austin, tx',
    month: '2026-10',
    engines: ['claude', 'openai'],
    captures: 4,
    present: 0,
  }
  const ranks = [rank(1, '2026-10-02', 2)]
  const [finding] = aiAnswersFindings({ keywords, ranks, aeo: [question] })
  t.match(finding, {
    natural_key: 'ai_answers_without_client:40',
    source: 'aeo',
    keyword_id: 1,
    evidence: { query_id: 40, captures: 4, keywords: [{ keyword_id: 1, position: 2 }] },
  })
  t.same(aiAnswersFindings({ keywords, ranks, aeo: [{ ...question, present: 1 }] }), [], 'named once is enough')
  t.same(aiAnswersFindings({ keywords, ranks, aeo: [{ ...question, captures: 1 }] }), [], 'one answer is too few')
  t.same(aiAnswersFindings({ keywords, ranks: [rank(1, '2026-10-02', 4)], aeo: [question] }), [], 'not top 3')
  t.same(aiAnswersFindings({ keywords, ranks, aeo: [{ ...question, location: 'Dallas, TX' }] }), [], 'another location')
})

t.test('deriveInsights: every rule, one per natural key, most severe first, at most the cap per type', async (t) => {
  const many = Array.from({ length: MAX_FINDINGS_PER_TYPE + 20 }, (_, i) => ({
    id: 100 + i,
    keyword: `kw ${i}`,
    service: '',
    location: '',
  }))
  const findings = deriveInsights({ ...empty, keywords: many })
  t.equal(findings.length, MAX_FINDINGS_PER_TYPE, 'capped')
  const twoSpellings = deriveInsights({
    ...empty,
    gscPeriod: { start: '2026-09-01', end: '2026-09-28' },
    gsc: [
      { query: 'drain cleaning', page: 'https://acme.example/a', clicks: 0, impressions: 500, position: 2 },
      { query: 'Drain-Cleaning', page: 'https://acme.example/a', clicks: 1, impressions: 200, position: 2 },
    ],
  })
  t.equal(twoSpellings.filter((f) => f.insight_type === 'low_ctr').length, 1, 'two spellings of a query make one key')
  const mixed = deriveInsights({ ...empty, keywords, ranks: [rank(1, '2026-10-01', 3), rank(1, '2026-10-02', 20)] })
  t.same(
    mixed.map((f) => f.severity),
    [...mixed.map((f) => f.severity)].sort((a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)),
  )
  t.ok(mixed.some((f) => f.insight_type === 'rank_drop'))
})

const finding = (key: string, overrides: Partial<Finding> = {}): Finding => ({
  insight_type: 'keyword_without_page',
  source: 'crawl',
  natural_key: key,
  severity: 'medium',
  summary: `finding ${key}`,
  keyword_id: 1,
  page_id: null,
  evidence: { keyword: 'drain cleaning austin' },
  ...overrides,
})
const raised = (id: number, key: string): InsightsEvent => {
  const { insight_type, source, natural_key, severity, summary, keyword_id, page_id, evidence } = finding(key)
  return {
    type: 'SeoInsightRaised',
    data: { insight_id: id, client_id: 3, insight_type, source, natural_key, severity, summary, keyword_id, page_id, evidence },
  }
}
const T1 = '2026-10-01T06:00:00.000Z'
const refresh = (findings: Finding[], ids: number[], read_at = T1): InsightSetCommand => ({
  type: 'RefreshInsights',
  client_id: 3,
  findings,
  new_ids: ids,
  read_at,
})
const refreshed = (raised: number, resolved: number, read_at = T1): InsightsEvent => ({
  type: 'SeoInsightsRefreshed',
  data: { client_id: 3, read_at, raised, resolved },
})
const insights = spec(seoInsightSet)

t.test('the insight set: raised once while it holds, resolved when it stops, raised anew when it comes back', async (t) => {
  insights()
    .when(refresh([finding('a'), finding('b'), finding('a')], [51, 52]))
    .then(t, [raised(51, 'a'), raised(52, 'b'), refreshed(2, 0)] as never)
  insights(raised(51, 'a') as never)
    .when(refresh([finding('a'), finding('b')], [53]))
    .then(t, [raised(53, 'b'), refreshed(1, 0)] as never)
  insights(raised(51, 'a') as never, raised(52, 'b') as never)
    .when(refresh([finding('b')], []))
    .then(t, [{ type: 'SeoInsightResolved', data: { insight_id: 51, client_id: 3 } }, refreshed(0, 1)] as never)
  const resolved = { type: 'SeoInsightResolved', data: { insight_id: 51, client_id: 3 } } as const
  insights(raised(51, 'a') as never, resolved)
    .when(refresh([finding('a')], [60]))
    .then(t, [raised(60, 'a'), refreshed(1, 0)] as never)
  const dismissed = {
    type: 'SeoInsightStatusChanged',
    data: { insight_id: 51, client_id: 3, status: 'dismissed', note: 'seasonal' },
  } as const
  insights(raised(51, 'a') as never, dismissed)
    .when(refresh([finding('a')], []))
    .thenNothingHappens(t)
  insights(raised(51, 'a') as never, dismissed)
    .when(refresh([], []))
    .then(t, [resolved, refreshed(0, 1)] as never)
  t.equal(newFindingCount(fold(seoInsightSet, [raised(51, 'a') as never]), [finding('a'), finding('b'), finding('b')]), 1)
  t.throws(() => seoInsightSet.decide(refresh([finding('a')], []), seoInsightSet.initialState()), /ids/, 'too few ids is a caller bug')
})

t.test('the insight set: a refresh whose inputs were read before the last recorded one decides nothing', async (t) => {
  const later = '2026-10-01T06:00:05.000Z'
  insights(raised(51, 'a') as never, refreshed(1, 0, later) as never)
    .when(refresh([], [], T1))
    .thenNothingHappens(t)
  insights(raised(51, 'a') as never, refreshed(1, 0, later) as never)
    .when(refresh([], [], later))
    .then(t, [{ type: 'SeoInsightResolved', data: { insight_id: 51, client_id: 3 } }, refreshed(0, 1, later)] as never)
  const state = fold(seoInsightSet, [raised(51, 'a') as never, refreshed(1, 0, later) as never])
  t.ok(isStale(state, T1))
  t.notOk(isStale(state, '2026-10-01T06:00:06.000Z'))
  t.notOk(isStale(seoInsightSet.initialState(), T1), 'nothing recorded yet: nothing is stale')
})

t.test('the insight set: status changes of live insights only', async (t) => {
  const change = (status: 'open' | 'applied' | 'dismissed', note = ''): InsightSetCommand => ({
    type: 'ChangeInsightStatus',
    client_id: 3,
    insight_id: 51,
    status,
    note,
  })
  insights(raised(51, 'a') as never)
    .when(change('applied', '  rewrote the title '))
    .then(t, [{ type: 'SeoInsightStatusChanged', data: { insight_id: 51, client_id: 3, status: 'applied', note: 'rewrote the title' } }])
  const applied = { type: 'SeoInsightStatusChanged', data: { insight_id: 51, client_id: 3, status: 'applied', note: '' } } as const
  insights(raised(51, 'a') as never, applied)
    .when(change('applied'))
    .thenNothingHappens(t)
  insights(raised(51, 'a') as never)
    .when(change('open'))
    .thenNothingHappens(t)
  insights(raised(51, 'a') as never, applied)
    .when(change('open'))
    .then(t, [{ type: 'SeoInsightStatusChanged', data: { insight_id: 51, client_id: 3, status: 'open', note: '' } }])
  insights(raised(51, 'a') as never, { type: 'SeoInsightResolved', data: { insight_id: 51, client_id: 3 } })
    .when(change('dismissed'))
    .thenThrows(t, 'seo_insight_resolved')
  insights(raised(51, 'a') as never)
    .when({ type: 'ChangeInsightStatus', client_id: 4, insight_id: 51, status: 'applied', note: '' })
    .thenThrows(t, 'not_found')
})

const proposal = (id: number, pageId = 10): MetaProposal => ({
  optimization_id: id,
  page_id: pageId,
  page_url: 'https://acme.example/drain-cleaning/',
  insight_id: 51,
  query: 'drain cleaning austin',
  location: 'Austin, TX',
  current_title: 'Drain Cleaning',
  current_description: '',
  proposed_title: 'Drain Cleaning Austin | Acme Plumbing',
  proposed_description: 'Looking for drain cleaning in Austin? Acme Plumbing can help.',
  writer: 'built-in',
})
const proposedEvent = (id: number, pageId = 10): InsightsEvent => ({
  type: 'MetaOptimizationProposed',
  data: { ...proposal(id, pageId), client_id: 3 },
})
const metas = spec(metaOptimizationSet)

t.test('meta optimizations: one open per page, staged once, applied and rolled back as the site edit was', async (t) => {
  metas()
    .when({ type: 'ProposeMetaOptimization', client_id: 3, proposal: proposal(70) })
    .then(t, [proposedEvent(70)] as never)
  metas(proposedEvent(70) as never)
    .when({ type: 'ProposeMetaOptimization', client_id: 3, proposal: proposal(71) })
    .thenThrows(t, 'meta_optimization_open')
  metas(proposedEvent(70) as never)
    .when({ type: 'ProposeMetaOptimization', client_id: 3, proposal: proposal(71, 11) })
    .then(t, [proposedEvent(71, 11)] as never)
  const staged = { type: 'MetaOptimizationStaged', data: { optimization_id: 70, client_id: 3, edit_id: 90 } } as const
  metas(proposedEvent(70) as never)
    .when({ type: 'StageMetaOptimization', client_id: 3, optimization_id: 70, edit_id: 90 })
    .then(t, [staged])
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'StageMetaOptimization', client_id: 3, optimization_id: 70, edit_id: 90 })
    .thenNothingHappens(t)
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'StageMetaOptimization', client_id: 3, optimization_id: 70, edit_id: 91 })
    .thenThrows(t, 'meta_optimization_not_open')
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'ProposeMetaOptimization', client_id: 3, proposal: proposal(72) })
    .thenThrows(t, 'meta_optimization_open')
  const applied = { type: 'MetaOptimizationApplied', data: { optimization_id: 70, client_id: 3, edit_id: 90 } } as const
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'RecordMetaApplied', client_id: 3, optimization_id: 70, edit_id: 90 })
    .then(t, [applied])
  metas(proposedEvent(70) as never, staged, applied)
    .when({ type: 'RecordMetaApplied', client_id: 3, optimization_id: 70, edit_id: 90 })
    .thenNothingHappens(t)
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'RecordMetaApplied', client_id: 3, optimization_id: 70, edit_id: 99 })
    .thenNothingHappens(t)
  metas(proposedEvent(70) as never, staged, applied)
    .when({ type: 'ProposeMetaOptimization', client_id: 3, proposal: proposal(72) })
    .then(t, [proposedEvent(72)] as never)
  metas(proposedEvent(70) as never, staged, applied)
    .when({ type: 'RecordMetaRolledBack', client_id: 3, optimization_id: 70, edit_id: 90 })
    .then(t, [{ type: 'MetaOptimizationRolledBack', data: { optimization_id: 70, client_id: 3, edit_id: 90 } }])
  metas(proposedEvent(70) as never, staged)
    .when({ type: 'RecordMetaRolledBack', client_id: 3, optimization_id: 70, edit_id: 90 })
    .thenNothingHappens(t)
  metas(proposedEvent(70) as never)
    .when({ type: 'StageMetaOptimization', client_id: 4, optimization_id: 70, edit_id: 90 })
    .thenThrows(t, 'not_found')
})

t.test('meta optimizations: rejected while open; an edit applied after a reject is still recorded', async (t) => {
  const reject = {
    type: 'RejectMetaOptimization',
    client_id: 3,
    optimization_id: 70,
    rejected_by: ' dana ',
    reason: ' off-brand ',
  } as const
  const rejected = {
    type: 'MetaOptimizationRejected',
    data: { optimization_id: 70, client_id: 3, rejected_by: 'dana', reason: 'off-brand' },
  } as const
  metas(proposedEvent(70) as never)
    .when(reject)
    .then(t, [rejected])
  metas(proposedEvent(70) as never, rejected)
    .when(reject)
    .thenNothingHappens(t)
  metas(proposedEvent(70) as never)
    .when({ ...reject, rejected_by: '  ' })
    .thenThrows(t, 'validation_failed')
  const staged = { type: 'MetaOptimizationStaged', data: { optimization_id: 70, client_id: 3, edit_id: 90 } } as const
  const applied = { type: 'MetaOptimizationApplied', data: { optimization_id: 70, client_id: 3, edit_id: 90 } } as const
  metas(proposedEvent(70) as never, staged, applied)
    .when(reject)
    .thenThrows(t, 'meta_optimization_not_open')
  metas(proposedEvent(70) as never, staged, rejected)
    .when({ type: 'RecordMetaApplied', client_id: 3, optimization_id: 70, edit_id: 90 })
    .then(t, [applied])
  const state = fold(metaOptimizationSet, [
    { ...(proposedEvent(70) as never as object), metadata: { occurred_at: '2026-10-01T10:00:00.000Z' } } as never,
    { ...(proposedEvent(71, 11) as never as object), metadata: { occurred_at: '2026-10-09T10:00:00.000Z' } } as never,
  ])
  t.equal(proposedSince(state, 10, '2026-10-02T00:00:00.000Z'), 0)
  t.equal(proposedSince(state, 11, '2026-10-02T00:00:00.000Z'), 1)
})

t.test('the built-in writer: the query, the place and the business within the limits', async (t) => {
  const rewrite = builtInMetaRewrite({
    query: 'drain cleaning',
    location: 'Austin, TX',
    business: 'Acme Plumbing',
    currentTitle: 'Home',
    currentDescription: 'Family plumbers since forever. We also fix pipes.',
  })
  t.equal(rewrite.title, 'Drain Cleaning in Austin, TX | Acme Plumbing')
  t.equal(
    rewrite.description,
    'Looking for drain cleaning in Austin, TX? Acme Plumbing can help. Family plumbers since forever. Get in touch today.',
  )
  t.equal(
    builtInMetaRewrite({
      query: 'drain cleaning austin',
      location: 'Austin, TX',
      business: 'Acme',
      currentTitle: '',
      currentDescription: '',
    }).title,
    'Drain Cleaning Austin | Acme',
    'a query naming the city gets no "in Austin"',
  )
  t.equal(titleCase('plumber near me'), 'Plumber near Me')
  t.equal(titleCase('HVAC repair in austin'), 'HVAC Repair in Austin')
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s.trim() !== ''),
      fc.string({ maxLength: 80 }),
      fc.string({ maxLength: 120 }),
      fc.string({ maxLength: 400 }),
      (query, location, business, currentDescription) => {
        const { title, description } = builtInMetaRewrite({ query, location, business, currentTitle: '', currentDescription })
        return fitsTitle(title) && fitsDescription(description)
      },
    ),
    { numRuns: 300 },
  )
})

t.test("a model's answer is used only when both tags fit", async (t) => {
  t.same(readMetaRewriteAnswer('```json\n{"title": " Drain  Cleaning in Austin ", "description": "Fast help."}\n```'), {
    title: 'Drain Cleaning in Austin',
    description: 'Fast help.',
  })
  t.equal(readMetaRewriteAnswer(JSON.stringify({ title: 'x'.repeat(META_TITLE_MAX_CHARS + 1), description: 'ok' })), null)
  t.equal(readMetaRewriteAnswer(JSON.stringify({ title: 'ok', description: 'x'.repeat(META_DESCRIPTION_MAX_CHARS + 1) })), null)
  t.equal(readMetaRewriteAnswer('I would suggest a better title.'), null)
})

t.test('head tags: read the description, write both tags, and the payload links back', async (t) => {
  const content = '<title>Old &amp; tired</title>\n<meta content=\'Old "desc"\' name="description">\n<p>Body</p>'
  t.equal(readMetaDescription(content), 'Old "desc"')
  t.equal(readTitleTag(content), 'Old & tired')
  const next = withMetaTags(content, 'New & better', 'Fresh "words"')
  t.equal(readMetaDescription(next), 'Fresh "words"')
  t.equal(readTitleTag(next), 'New & better')
  t.match(next, /<p>Body<\/p>$/, 'the body stays')
  t.equal(withMetaTags('<p>Body</p>', 'T', 'D'), '<meta name="description" content="D">\n<p>Body</p>', 'added at the top when missing')
  t.equal(readMetaDescription('<p>none</p>'), '')
  const payload = metaRewritePayload({
    optimizationId: 70,
    pageId: 10,
    pageUrl: '/drain-cleaning',
    query: 'drain cleaning',
    title: 'T',
    description: 'D',
    currentTitle: 'Old',
    currentDescription: '',
    writer: 'built-in',
    snapshot: { id: 5, content: '<p>Body</p>' },
  })
  t.match(payload, { before_snapshot_id: 5, proposed_content: /content="D"/ })
  t.equal(optimizationOfPayload(JSON.stringify(payload)), 70)
  t.equal(optimizationOfPayload('{"proposed_content":"x"}'), null)
  t.equal(optimizationOfPayload('not json'), null)
})

t.test('page matching: by URL key, and site paths against absolute URLs', async (t) => {
  const match = pageMatcher(pages)
  t.equal(match('https://acme.example/drain-cleaning')?.id, 10)
  t.equal(match('https://www.other.example/water-heaters/')?.id, 11, 'a stored path matches the path of any URL')
  t.equal(match('https://acme.example')?.id, 12)
  t.equal(match('https://acme.example/nowhere'), undefined)
})

t.test('the Search Console period: 28 days up to the last completed day, each day from the latest capture covering it', async (t) => {
  t.equal(gscPeriodOf([]), null)
  const completed = [
    { id: 4, start_date: '2026-10-01', end_date: '2026-10-28' },
    { id: 9, start_date: '2026-10-20', end_date: '2026-11-16' },
  ]
  const period = gscPeriodOf(completed)!
  t.same(period, { start: '2026-10-20', end: '2026-11-16' })
  const days = captureOfDays({ start: '2026-10-18', end: '2026-10-21' }, completed)
  t.same(days, [
    { day: '2026-10-18', captureId: 4 },
    { day: '2026-10-19', captureId: 4 },
    { day: '2026-10-20', captureId: 9 },
    { day: '2026-10-21', captureId: 9 },
  ])
  t.same(captureOfDays({ start: '2026-09-29', end: '2026-09-30' }, completed), [], 'days no capture covers are left out')
  t.same(
    queryPageTotals([
      { query: 'q', page: 'p', clicks: 1, impressions: 100, position: 2 },
      { query: 'q', page: 'p', clicks: 3, impressions: 300, position: 6 },
      { query: 'q', page: 'other', clicks: 0, impressions: 0, position: 9 },
    ]),
    [
      { query: 'q', page: 'p', clicks: 4, impressions: 400, position: 5 },
      { query: 'q', page: 'other', clicks: 0, impressions: 0, position: 9 },
    ],
    'impression-weighted; without impressions, the plain average',
  )
})

t.test('page_problem: a page the latest crawl found gone, noindexed or untitled, one finding per page, worst first', async (t) => {
  const state = (page_id: number, status: number, noindex = false, title: string | null = 'A title') => ({
    page_id,
    url: `https://acme.example/p${page_id}`,
    status,
    noindex,
    title,
    crawled_at: '2026-11-20T06:00:00.000Z',
  })
  const findings = pageProblemFindings({
    pageStates: [
      state(1, 404),
      state(2, 200, true),
      state(3, 200, false, '  '),
      state(4, 200),
      state(5, 301),
      state(6, 503, true),
      state(7, 200, true, null),
    ],
  })
  t.same(
    findings.map((f) => [f.page_id, f.evidence.problem, f.severity, f.natural_key]),
    [
      [1, 'gone', 'high', 'page_problem:1:gone'],
      [2, 'noindex', 'high', 'page_problem:2:noindex'],
      [3, 'no_title', 'medium', 'page_problem:3:no_title'],
      [6, 'gone', 'high', 'page_problem:6:gone'],
      [7, 'noindex', 'high', 'page_problem:7:noindex'],
    ],
    'a healthy page and a redirect raise nothing; a gone page is gone whatever else it says',
  )
  t.match(findings[0], { insight_type: 'page_problem', source: 'crawl', keyword_id: null, summary: /answers 404/ })
  t.same(findings[0]!.evidence, {
    problem: 'gone',
    url: 'https://acme.example/p1',
    status: 404,
    noindex: false,
    title: 'A title',
    crawled_at: '2026-11-20T06:00:00.000Z',
  })
  t.same(deriveInsights({ ...empty, pageStates: [state(4, 200)] }), [], 'deriveInsights runs the rule: a healthy crawl raises nothing')
  t.same(
    deriveInsights({ ...empty, pageStates: [state(1, 410)] }).map((f) => f.natural_key),
    ['page_problem:1:gone'],
  )
})
