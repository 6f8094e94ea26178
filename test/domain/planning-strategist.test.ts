/**
 * The strategist's pure rules: which action type answers each insight (rank_drop by how far it fell,
 * page_problem by its problem), tracker items as ai_visibility with their own tier, the expected impact
 * formula, the ranking by impact per hour, the budget fit (held keys are existing, committed hours first,
 * a smaller later item still fits, the per-run cap, no budget), the templates and the model's answer check.
 */
import t from 'tap'
import {
  actionTypeForInsight,
  aeoItemCandidate,
  candidatesFrom,
  insightCandidate,
  type InsightInput,
} from '../../domain/planning/strategist/candidates.js'
import { demandBonus, expectedImpact } from '../../domain/planning/strategist/impact.js'
import { descriptionPrompt, parseDescriptions } from '../../domain/planning/strategist/model-descriptions.js'
import { compareCandidates, MAX_NEW_ITEMS, planMonth } from '../../domain/planning/strategist/plan.js'
import { TEMPLATE_WRITER, templateDescription } from '../../domain/planning/strategist/templates.js'

const insight = (
  id: number,
  insight_type: string,
  evidence: Record<string, unknown> = {},
  over: Partial<InsightInput> = {},
): InsightInput => ({
  id,
  insight_type,
  severity: 'medium',
  summary: `finding ${id}`,
  page_url: `https://acme.example.com/p${id}`,
  evidence,
  search_volume: null,
  ...over,
})

t.test('the action type that answers each insight', async (t) => {
  const type = (insight_type: string, evidence: Record<string, unknown> = {}) => actionTypeForInsight({ insight_type, evidence })
  t.equal(type('rank_drop', { position: 14 }), 'internal_links', 'still near the top: links can lift it')
  t.equal(type('rank_drop', { position: 20 }), 'internal_links')
  t.equal(type('rank_drop', { position: 35 }), 'improve_content', 'fallen far: the content')
  t.equal(type('rank_drop', { position: null }), 'improve_content', 'out of the top 100')
  t.equal(type('keyword_without_page'), 'create_page')
  t.equal(type('cannibalization'), 'resolve_cannibalization')
  t.equal(type('low_ctr'), 'title_meta_rewrite')
  t.equal(type('ai_overview_without_client'), 'ai_overview_content')
  t.equal(type('ai_answers_without_client'), 'ai_overview_content')
  t.equal(type('page_problem', { problem: 'gone', status: 404 }), 'redirect')
  t.equal(type('page_problem', { problem: 'noindex', status: 200 }), 'remove_noindex')
  t.equal(type('page_problem', { problem: 'no_title', status: 200 }), 'title_meta_rewrite')
  t.equal(type('page_problem', { status: 503 }), 'redirect', 'evidence without problem: read the state')
  t.equal(type('page_problem', { status: 200, noindex: true }), 'remove_noindex')
  t.equal(type('something_new'), null, 'a type the strategist does not plan')
})

t.test('expected impact: severity base + demand bonus + tier bonus, clamped', async (t) => {
  t.equal(demandBonus(0), 0)
  t.equal(demandBonus(-5), 0)
  t.equal(Math.round(demandBonus(9)), 10)
  t.equal(Math.round(demandBonus(99)), 20)
  t.equal(demandBonus(1_000_000), 30, 'capped at 30')
  t.equal(expectedImpact({ severity: 'high', demand: 0, tier: 'A' }), 70)
  t.equal(expectedImpact({ severity: 'high', demand: 10_000, tier: 'A' }), 100, 'high, huge demand, tier A: the maximum')
  t.equal(expectedImpact({ severity: 'medium', demand: 99, tier: 'B' }), 65)
  t.equal(expectedImpact({ severity: 'low', demand: 0, tier: 'X' }), 10)
  const volume = insightCandidate(insight(1, 'low_ctr', { impressions: 5 }, { search_volume: 999 }))!
  const impressions = insightCandidate(insight(2, 'low_ctr', { impressions: 999 }))!
  t.equal(volume.impact, impressions.impact, 'search volume first, else the impressions of the evidence')
  t.equal(volume.impact, 80, 'medium 40 + 30 demand + A 10')
})

t.test('candidates carry their source, key, page, hours and subject', async (t) => {
  const c = insightCandidate(insight(12, 'keyword_without_page', { keyword: 'drain cleaning austin' }))!
  t.match(c, {
    action_type: 'create_page',
    tier: 'A',
    hours: 3,
    source: { kind: 'insight', id: 12 },
    source_key: 'insight:12',
    page_url: 'https://acme.example.com/p12',
    subject: 'drain cleaning austin',
    finding: 'finding 12',
  })
  const aeo = aeoItemCandidate({ id: 4, tier: 'C', title: 'Get listed on Yelp', evidence: 'Yelp is cited', hit_count: 2 })
  t.match(aeo, {
    action_type: 'ai_visibility',
    tier: 'C',
    hours: 1.5,
    source: { kind: 'aeo_item', id: 4 },
    source_key: 'aeo_item:4',
    page_url: '',
  })
  t.equal(aeo.impact, expectedImpact({ severity: 'low', demand: 100, tier: 'C' }), 'low for C, 50 searches per capture')
  const all = candidatesFrom(
    [insight(1, 'low_ctr'), insight(1, 'low_ctr'), insight(2, 'unknown_type')],
    [{ id: 4, tier: 'A', title: 'x', evidence: '', hit_count: 0 }],
  )
  t.same(
    all.map((c) => c.source_key),
    ['insight:1', 'aeo_item:4'],
    'one per key; unplanned types left out',
  )
})

t.test('ranked by impact per hour, then impact, then key', async (t) => {
  const meta = insightCandidate(insight(1, 'low_ctr'))! // 0.5 h
  const page = insightCandidate(insight(2, 'keyword_without_page', {}, { severity: 'high' }))! // 3 h
  const links = insightCandidate(insight(3, 'rank_drop', { position: 12 }))! // 1 h
  const sorted = [page, links, meta].sort(compareCandidates)
  t.same(
    sorted.map((c) => c.source_key),
    ['insight:1', 'insight:3', 'insight:2'],
  )
  const twin = { ...meta, source_key: 'insight:0' }
  t.equal([meta, twin].sort(compareCandidates)[0]!.source_key, 'insight:0', 'equal: by key')
})

t.test('fit to the budget', async (t) => {
  const meta = insightCandidate(insight(1, 'low_ctr'))! // 0.5 h, high per hour
  const links = insightCandidate(insight(3, 'rank_drop', { position: 12 }))! // 1 h
  const page = insightCandidate(insight(2, 'keyword_without_page'))! // 3 h
  const content = insightCandidate(insight(4, 'rank_drop', { position: 50 }))! // 2 h
  const none = { sourceKeys: new Set<string>(), committedHours: 0 }

  const all = planMonth([page, links, meta, content], none, null)
  t.equal(all.chosen.length, 4, 'no budget: everything')
  t.equal(all.plannedHours, 6.5)
  t.same(all.deferred, [])

  const tight = planMonth([page, links, meta, content], none, 3)
  t.same(
    tight.chosen.map((c) => c.source_key),
    ['insight:1', 'insight:3'],
    'the best per hour first',
  )
  t.same(
    tight.deferred.map((d) => [d.candidate.source_key, d.reason]),
    [
      ['insight:4', 'over_budget'],
      ['insight:2', 'over_budget'],
    ],
    'deferred in rank order (45 in 2 h before 50 in 3 h)',
  )
  t.equal(tight.plannedHours, 1.5)

  const carried = planMonth([page, links, meta], { sourceKeys: new Set(['insight:3']), committedHours: 2.5 }, 3)
  t.same(
    carried.existing.map((c) => c.source_key),
    ['insight:3'],
    'a held key is existing, not added',
  )
  t.same(
    carried.chosen.map((c) => c.source_key),
    ['insight:1'],
    'committed (carried) hours count first: 0.5 left',
  )
  t.equal(carried.plannedHours, 3)

  const skipBig = planMonth([page, meta], none, 2)
  t.same(
    skipBig.chosen.map((c) => c.source_key),
    ['insight:1'],
  )
  const smallLater = planMonth([content, meta, links], { sourceKeys: new Set(), committedHours: 0 }, 1.5)
  t.same(
    smallLater.chosen.map((c) => c.source_key),
    ['insight:1', 'insight:3'],
    'a smaller later item still fits',
  )
  const over = planMonth([page], { sourceKeys: new Set(), committedHours: 5 }, 3)
  t.equal(over.chosen.length, 0, 'over budget already: nothing new')

  const many = Array.from({ length: MAX_NEW_ITEMS + 5 }, (_, i) => insightCandidate(insight(100 + i, 'low_ctr'))!)
  const capped = planMonth(many, none, null)
  t.equal(capped.chosen.length, MAX_NEW_ITEMS, 'capped per run')
  t.equal(capped.deferred.filter((d) => d.reason === 'cap').length, 5)
})

t.test('templates say what, where and why', async (t) => {
  const c = insightCandidate(insight(1, 'low_ctr', { query: 'emergency plumber' }))!
  const text = templateDescription(c)
  t.match(text, /title and meta description of https:\/\/acme\.example\.com\/p1/)
  t.match(text, /"emergency plumber"/)
  t.match(text, /Why: finding 1/)
  t.equal(TEMPLATE_WRITER, 'built-in-templates')
  const gone = templateDescription({ ...insightCandidate(insight(2, 'page_problem', { problem: 'gone' }))!, page_url: '' })
  t.match(gone, /Redirect the site/)
  t.ok(templateDescription({ ...c, finding: 'x'.repeat(5000) }).length <= 4000)
})

t.test("the model's answer is used only when it describes every item", async (t) => {
  const items = [insightCandidate(insight(1, 'low_ctr'))!, aeoItemCandidate({ id: 4, tier: 'B', title: 'FAQ', evidence: '', hit_count: 1 })]
  const prompt = descriptionPrompt('Acme', '2026-11', items)
  t.match(prompt, /Client: Acme\nMonth: 2026-11/)
  t.match(prompt, /"key":"insight:1"/)
  t.match(prompt, /"key":"aeo_item:4"/)
  const good = parseDescriptions(
    '```json\n{"items":[{"key":"insight:1","description":"Rewrite it."},{"key":"aeo_item:4","description":" Add a FAQ. "}]}\n```',
    items,
  )
  t.ok(good.ok)
  if (good.ok)
    t.same(
      [...good.byKey],
      [
        ['insight:1', 'Rewrite it.'],
        ['aeo_item:4', 'Add a FAQ.'],
      ],
    )
  t.same(parseDescriptions('not json', items), { ok: false, reason: 'the answer is not JSON' })
  t.same(parseDescriptions('{"x":1}', items), { ok: false, reason: 'the answer has no items array' })
  const partial = parseDescriptions('{"items":[{"key":"insight:1","description":"ok"},{"key":"aeo_item:4","description":""}]}', items)
  t.match(partial, { ok: false, reason: /no usable description for 1 of 2 items \(first: aeo_item:4\)/ })
  const long = parseDescriptions(
    `{"items":[{"key":"insight:1","description":"ok"},{"key":"aeo_item:4","description":"${'y'.repeat(1001)}"}]}`,
    items,
  )
  t.equal(long.ok, false, 'an over-long description is not usable')
})
