/**
 * Pagination declared in the registry: a paginated method gets limit/offset (validated against its
 * maximum, in one place), the handler pages with them, and nothing else gains them.
 */
import t from 'tap'
import { MAX_PAGE_LIMIT, RpcRegistry } from '../../read-api/registry.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { appWith, bearer, echoRpc, registryWith } from './docs-support.js'

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Pager')
const client = await ts.call<number>('add_client', clientPayload('Paged', { services: ['SEO'] }), org.key)
for (const name of ['One', 'Two', 'Three', 'Four']) await ts.call('update_client', { client_id: client, name: `Paged ${name}` }, org.key)

t.test('limit and offset walk a list in its order', async (t) => {
  const all = await ts.call<{ revision: number }[]>('get_entity_history', { entity_type: 'client', entity_id: client }, org.key)
  t.same(
    all.map((e) => e.revision),
    [5, 4, 3, 2, 1, 0],
    'the whole history (under the default limit)',
  )
  const pages: number[][] = []
  for (let offset = 0; offset < all.length; offset += 2) {
    pages.push(
      (
        await ts.call<{ revision: number }[]>('get_entity_history', { entity_type: 'client', entity_id: client, limit: 2, offset }, org.key)
      ).map((e) => e.revision),
    )
  }
  t.same(
    pages,
    [
      [5, 4],
      [3, 2],
      [1, 0],
    ],
    'pages of two, no gaps, no repeats',
  )
  t.same(await ts.call('get_entity_history', { entity_type: 'client', entity_id: client, offset: 6 }, org.key), [], 'past the end: empty')

  const activity = await ts.call<{ event_id: string }[]>('get_org_activity', {}, org.key)
  const second = await ts.call<{ event_id: string }[]>('get_org_activity', { limit: 2, offset: 2 }, org.key)
  t.same(second, activity.slice(2, 4), 'a SQL-backed list pages the same way')
  t.same(await ts.call('get_aeo_runs', { client_id: client, limit: 5, offset: 10 }, org.key), [], 'get_aeo_runs takes offset too')
  t.same(
    await ts.call('get_aeo_captures', { client_id: client, limit: 500, offset: 0 }, org.key),
    [],
    'get_aeo_captures: up to its own maximum',
  )
})

t.test('the server-side maximum: over it is a 400 naming it, never a silent clamp', async (t) => {
  const over = expectError(
    t,
    await ts.rpc('get_aeo_captures', { client_id: client, limit: 501 }, org.key),
    400,
    'validation_failed',
    'limit 501',
  )
  t.match(over.detail, /limit: at most 500 rows per page/)
  const history = expectError(
    t,
    await ts.rpc('get_entity_history', { entity_type: 'client', entity_id: client, limit: 1001 }, org.key),
    400,
    'validation_failed',
  )
  t.match(history.detail, /limit: at most 1000/)
  expectError(t, await ts.rpc('get_aeo_runs', { client_id: client, offset: -1 }, org.key), 400, 'validation_failed', 'negative offset')
  expectError(t, await ts.rpc('get_aeo_runs', { client_id: client, limit: 0 }, org.key), 400, 'validation_failed', 'limit 0')
  expectError(t, await ts.rpc('get_aeo_runs', { client_id: client, limit: 2.5 }, org.key), 400, 'validation_failed', 'fractional limit')
})

t.test('only paginated methods take limit/offset', async (t) => {
  const refused = expectError(t, await ts.rpc('get_client', { client_id: client, limit: 1 }, org.key), 400, 'validation_failed')
  t.match(refused.detail, /limit/)
  const capabilities = (await ts.app.inject({ url: '/api/v1/capabilities', headers: bearer(org.key) })).json()
  const paginated = capabilities.methods.filter((m: any) => m.pagination !== null).map((m: any) => m.name)
  t.same(paginated.sort(), [
    'get_action_items',
    'get_active_pages_with_intent',
    'get_aeo_capture_records',
    'get_aeo_captures',
    'get_aeo_runs',
    'get_all_associations_for_client',
    'get_all_clients',
    'get_all_content_for_client',
    'get_client_activity',
    'get_client_change_history',
    'get_compare_reports_for_org',
    'get_entity_changes',
    'get_entity_changes_between',
    'get_entity_history',
    'get_gsc_capture_keywords',
    'get_images_for_client',
    'get_images_out_of_sync',
    'get_keyword_metrics_for_client',
    'get_keywords_for_client',
    'get_keywords_without_pages',
    'get_meta_optimizations',
    'get_org_activity',
    'get_org_reference_doc_history',
    'get_org_reference_docs',
    'get_pages_for_client',
    'get_pages_without_keywords',
    'get_push_failures',
    'get_rank_checks',
    'get_resolved_cycle_pairs',
    'get_seo_insights',
    'get_site_changes',
    'get_site_changes_for_page',
    'get_site_edits',
    'get_snapshots_for_page',
    'get_unapplied_insights',
    'get_unresolved_push_failures',
    'get_unresolved_push_failures_for_org',
    'list_action_items_for_org_filtered',
    'list_ad_copy_ad_groups',
    'list_ad_copy_sets_for_client',
    'list_all_site_edits',
    'list_cycle_tier_a_todo',
    'list_gsc_keyword_captures',
    'list_keyword_metrics_fetches',
    'list_redirects',
    'list_scan_sessions',
    'list_webhook_deliveries',
  ])
  t.same(capabilities.methods.find((m: any) => m.name === 'get_aeo_captures').pagination, { max_limit: 500, default_limit: 100 })
  t.equal(capabilities.limits.pagination.max_limit, MAX_PAGE_LIMIT)
})

t.test('a new paginated RPC gets it from the registry', async (t) => {
  let seen: unknown = 'not called'
  const app = await appWith(
    t,
    ts,
    registryWith(
      echoRpc('echo_paged', {
        paginated: { maxLimit: 20 },
        handler: async (ctx: any) => {
          seen = ctx.page
          return { word: ctx.params.word }
        },
      }),
    ),
  )
  const call = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/rpc/echo_paged',
      headers: { ...bearer(ts.platformKey), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
  t.equal((await call({ word: 'a' })).statusCode, 200)
  t.same(seen, { limit: 20, offset: 0 }, 'defaults: min(100, maxLimit) and 0')
  await call({ word: 'a', limit: 7, offset: 3 })
  t.same(seen, { limit: 7, offset: 3 })
  expectError(t, await call({ word: 'a', limit: 21 }), 400, 'validation_failed', 'over its own maximum')
})

t.test('declarations are checked', async (t) => {
  t.throws(() => new RpcRegistry([echoRpc('a', { paginated: { maxLimit: MAX_PAGE_LIMIT + 1 } })]), /maxLimit must be/)
  t.throws(() => new RpcRegistry([echoRpc('a', { paginated: { maxLimit: 10, defaultLimit: 11 } })]), /defaultLimit/)
  const declaresLimit = echoRpc('a', { paginated: { maxLimit: 10 } })
  const withOwnLimit = {
    ...declaresLimit,
    params: (declaresLimit.params as any).extend({ limit: (declaresLimit.params as any).shape.word }),
  }
  t.throws(() => new RpcRegistry([withOwnLimit]), /declares limit itself/)
})
