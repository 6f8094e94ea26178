/**
 * The sandbox's insights and meta optimizations: its fiction (insights derived by the rules from its ranks,
 * pages and links, the agency's decisions on two of them, a staged rewrite of the water-heater page and a
 * rejected one) reads through the sandbox key, writes are refused, and the processors running beside the
 * seed never spend a language-model call on it.
 */
import t from 'tap'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { createAnthropicLanguageModel } from '../../processors/language-model/anthropic.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { fixture, startProviderServer } from '../processors/aeo/provider-server.js'
import { startTestSystem } from '../support/system.js'
import { handClock } from './aeo-runs-helpers.js'
import { expectError } from './helpers.js'
import { eventually } from './search-insights-support.js'

interface Insight {
  id: number
  insight_type: string
  status: string
  note: string
  keyword_id: number | null
}
interface Optimization {
  id: number
  status: string
  writer: string
  edit_id: number | null
  proposed_title: string
  reject_reason: string | null
}

t.test("the sandbox's insights and meta optimizations are fiction, read-only, written without a model", async (t) => {
  const model = await startProviderServer(t)
  model.route((r) =>
    r.method === 'POST' ? { body: { ...fixture('claude-no-search.json'), content: [{ type: 'text', text: '{}' }] } } : undefined,
  )
  const clock = handClock('2026-11-27T15:00:00.000Z')
  const ts = await startTestSystem(t, {
    clock: clock.now,
    runProcessors: true,
    languageModel: createAnthropicLanguageModel({ apiKey: 'sk-ant-test', baseUrl: model.origin, model: 'claude-test' }),
  })
  const s = ts.system
  const { clientId } = await resetSandbox({ write: s.write, read: s.read, db: s.database.db, watermark: s.watermark, log: s.log })

  const insights = await ts.call<Insight[]>('get_seo_insights', { client_id: clientId }, SANDBOX_KEY)
  const types = new Set(insights.map((i) => i.insight_type))
  t.ok(types.has('ai_overview_without_client'), 'the water-heater keyword under an AI Overview that cites others')
  t.ok(types.has('keyword_without_page'), 'keywords without a page')
  t.match(
    insights.find((i) => i.status === 'applied'),
    { insight_type: 'ai_overview_without_client', note: /FAQ/ },
  )
  t.match(
    insights.find((i) => i.status === 'dismissed'),
    { insight_type: 'keyword_without_page', note: /emergency page/ },
  )

  const optimizations = await ts.call<Optimization[]>('get_meta_optimizations', { client_id: clientId }, SANDBOX_KEY)
  t.match(
    optimizations.map(({ status, writer }) => ({ status, writer })),
    [
      { status: 'rejected', writer: 'manual' },
      { status: 'staged', writer: 'built-in' },
    ],
  )
  const staged = optimizations.find((o) => o.status === 'staged')!
  t.match(await ts.call('get_site_edit', { edit_id: staged.edit_id }, SANDBOX_KEY), { operation: 'meta_rewrite', status: 'proposed' })
  t.match(await ts.call('get_meta_optimization_stats', { client_id: clientId }, SANDBOX_KEY), {
    total: 2,
    by_status: { staged: 1, rejected: 1 },
  })
  expectError(t, await ts.rpc('refresh_seo_insights', { client_id: clientId }, SANDBOX_KEY), 403, 'sandbox_read_only')

  // The processors leave the fiction alone: once each has read past the seed's last events, every insight
  // and optimization event is still the seeder's, and no model call was spent.
  // The last event of the stream the processor handles (its checkpoint is saved after each one it handles).
  const lastOf = async (stream: string, type: string) => {
    let position = null
    for await (const event of s.store.readStream(stream)) if (event.type === type) position = event.position
    return position!
  }
  const checkpointPast = (name: string, position: string) =>
    eventually(
      `${name} past the seed`,
      () => s.database.db.selectFrom('processor_checkpoints').select('position').where('name', '=', name).executeTakeFirst(),
      (row) => row?.position != null && s.store.comparePositions(row.position, position) >= 0,
    )
  await checkpointPast('seo_insight_refresher', await lastOf(`keyword_ranks-${clientId}-2026-11-27`, 'KeywordRanksRecorded'))
  await checkpointPast('seo_meta_proposer', await lastOf(`seo_insights-${clientId}`, 'SeoInsightRaised'))
  for (const stream of [`seo_insights-${clientId}`, `meta_optimizations-${clientId}`]) {
    const actors = new Set<string>()
    for await (const event of s.store.readStream(stream)) actors.add(String((event.metadata as { actor?: { id?: unknown } }).actor?.id))
    t.same([...actors], ['sandbox'], `${stream}: only the seeder's events`)
  }
  t.equal(model.requests.filter((r) => /title tag/.test(String(r.body?.system))).length, 0, 'no meta rewrite asked of the model')
})
