/**
 * Redirects through the RPCs: a redirect edit staged with create_site_edit (its payload checked), applied by
 * the built-in publisher (no snapshot either way), listed with and without applied_only, rolled back;
 * another organization's client answering like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, withoutIds } from './helpers.js'

const SITE = 'https://acme-plumbing.example.com'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const otherClient = await ts.call<number>('add_client', clientPayload('Other Dental'), other.key)
  const stage = (payload: Record<string, unknown>) =>
    ts.call<number>('create_site_edit', { client_id: clientId, operation: 'redirect', payload: JSON.stringify(payload) }, org.key)
  return { ts, org, other, clientId, otherClient, stage }
}

t.test('stage, apply, list, applied_only, roll back', async (t) => {
  const { ts, org, clientId, stage } = await setup(t)
  const first = await stage({ from_url: `${SITE}/services/drains-old`, to_url: '/services/drains', status_code: 301, to_page_id: 5 })
  const second = await stage({ from_url: '/old-coupons', to_url: 'https://deals.example.org/acme', status_code: 302 })
  t.equal(typeof first, 'number', 'staged: the edit id')
  const listed = await ts.call<any[]>('list_redirects', { client_id: clientId }, org.key)
  t.same(
    listed.map((r) => [r.id, r.edit_id, r.status, r.status_code]),
    [
      [second, second, 'proposed', 302],
      [first, first, 'proposed', 301],
    ],
    'newest first, proposed',
  )
  t.match(listed[1], {
    client_id: clientId,
    from_url: `${SITE}/services/drains-old`,
    to_url: '/services/drains',
    action_item_id: null,
    to_page_id: 5,
    publisher: null,
    remote_id: null,
    applied_at: null,
    rolled_back_at: null,
  })
  t.same(await ts.call('list_redirects', { client_id: clientId, applied_only: true }, org.key), [], 'nothing applied yet')

  const applied = await ts.call<any>('apply_site_edit', { edit_id: first, approved_by: 'Dana' }, org.key)
  t.match(applied, { status: 'applied', before_snapshot_id: null, after_snapshot_id: null }, 'the built-in publisher records no snapshot')
  const live = await ts.call<any[]>('list_redirects', { client_id: clientId, applied_only: true }, org.key)
  t.same(
    live.map((r) => [r.id, r.status, r.publisher]),
    [[first, 'applied', 'built-in']],
  )
  t.ok(live[0].applied_at, 'applied_at set')
  t.same(await ts.call('get_pages_for_client', { client_id: clientId }, org.key), [], 'no page was touched')

  const rolled = await ts.call<any>('rollback_site_edit', { edit_id: first }, org.key)
  t.match(rolled, { status: 'rolled_back', restored_snapshot_id: null })
  t.same(await ts.call('list_redirects', { client_id: clientId, applied_only: true }, org.key), [], 'no longer live')
  const all = await ts.call<any[]>('list_redirects', { client_id: clientId }, org.key)
  t.match(all[1], { id: first, status: 'rolled_back' })
  t.ok(all[1].rolled_back_at, 'rolled_back_at set')
  t.same(
    (await ts.call<any[]>('list_redirects', { client_id: clientId, limit: 1, offset: 1 }, org.key)).map((r) => r.id),
    [first],
    'paged',
  )
})

t.test('create_site_edit checks a redirect payload', async (t) => {
  const { ts, org, clientId, stage } = await setup(t)
  const refusals: [Record<string, unknown> | string, RegExp][] = [
    ['not json', /not JSON/],
    [{ from_url: '/a', to_url: '/b', status_code: 303 }, /status_code/],
    [{ from_url: '/a', to_url: '/b' }, /status_code/],
    [{ from_url: 'ftp://x.example/a', to_url: '/b', status_code: 301 }, /from_url/],
    [{ from_url: '/a', to_url: '/b', status_code: 301, extra: 1 }, /extra/],
    [{ from_url: 'https://elsewhere.example/a', to_url: '/b', status_code: 301 }, /not on the client's site/],
    [{ from_url: '/about/', to_url: `${SITE}/about`, status_code: 301 }, /same page/],
  ]
  for (const [payload, detail] of refusals) {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
    const response = await ts.rpc('create_site_edit', { client_id: clientId, operation: 'redirect', payload: body }, org.key)
    const envelope = expectError(t, response, 400, 'validation_failed', body)
    t.match(envelope.detail, detail, `${body}: ${detail}`)
  }
  const www = await stage({ from_url: 'https://www.acme-plumbing.example.com/a', to_url: '/b', status_code: 308 })
  t.ok(www > 0, 'www. is the same site')
  t.equal((await ts.call<any[]>('list_redirects', { client_id: clientId }, org.key)).length, 1, 'only the valid one staged')
  const note = await ts.call<number>('create_site_edit', { client_id: clientId, operation: 'note', payload: 'free text' }, org.key)
  t.ok(note > 0, 'other operations are not checked')
})

t.test("another organization's client answers like a missing one", async (t) => {
  const { ts, org, otherClient } = await setup(t)
  const hidden = expectError(t, await ts.rpc('list_redirects', { client_id: otherClient }, org.key), 404, 'not_found')
  const absent = expectError(t, await ts.rpc('list_redirects', { client_id: 999_999 }, org.key), 404, 'not_found')
  t.same(withoutIds(hidden, [otherClient]), withoutIds(absent, [999_999]))
})
