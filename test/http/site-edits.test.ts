/**
 * Site edits through the RPCs with the built-in publisher: create_site_edit, apply (the page's new content
 * becomes its latest snapshot, approved_by and who/when recorded), rollback (a new snapshot equal to the
 * old content), the coded refusals of the state machine, failed attempts, the counts, and another
 * organization's edits answering like missing ones.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const pageId = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acme.example.com/drains', title: 'Drains' } },
    org.key,
  )
  const before = await ts.call<number>(
    'add_snapshot',
    { snapshot: { page_id: pageId, content: '<p>Drain cleaning in Austin.</p>' } },
    org.key,
  )
  const stage = (content: string, extra: Record<string, unknown> = {}) =>
    ts.call<number>(
      'create_site_edit',
      {
        client_id: clientId,
        operation: 'elementor_rewrite',
        payload: JSON.stringify({ proposed_content: content }),
        page_url: 'https://acme.example.com/drains',
        ...extra,
      },
      org.key,
    )
  return { ts, org, other, clientId, pageId, before, stage }
}

t.test('apply publishes the new content as a snapshot; rollback restores the old content', async (t) => {
  const { ts, org, clientId, pageId, before, stage } = await setup(t)
  const editId = await stage('<p>Same-day drain cleaning in Austin.</p>')
  const staged = await ts.call<any>('get_site_edit', { edit_id: editId }, org.key)
  t.match(staged, {
    edit_id: editId,
    client_id: clientId,
    operation: 'elementor_rewrite',
    page_url: 'https://acme.example.com/drains',
    page_id: pageId,
    status: 'proposed',
    approved_by: '',
    job_id: null,
    apply_attempts: 0,
  })
  t.match(staged.staged_by, /^api_key:\d+$/)
  t.equal(await ts.call('count_pending_site_edits', { client_id: clientId }, org.key), 1)

  const applied = await ts.call<any>('apply_site_edit', { edit_id: editId, approved_by: 'Dana (owner)' }, org.key)
  t.match(applied, { status: 'applied', approved_by: 'Dana (owner)', before_snapshot_id: before, apply_attempts: 1, last_error: null })
  t.match(applied.applied_by, /^api_key:\d+$/, 'who applied')
  t.ok(applied.applied_at, 'when')
  const published = await ts.call<any>('get_latest_snapshot', { page_id: pageId }, org.key)
  t.match(published, {
    snapshot_id: applied.after_snapshot_id,
    content: '<p>Same-day drain cleaning in Austin.</p>',
    source: 'site_edit',
    edit_id: editId,
  })
  t.equal(await ts.call('count_pending_site_edits', { client_id: clientId }, org.key), 0)
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: editId }, org.key), 409, 'site_edit_already_applied')

  const rolledBack = await ts.call<any>('rollback_site_edit', { edit_id: editId }, org.key)
  t.match(rolledBack, { status: 'rolled_back' })
  t.match(rolledBack.rolled_back_by, /^api_key:\d+$/)
  t.ok(rolledBack.rolled_back_at)
  const restored = await ts.call<any>('get_latest_snapshot', { page_id: pageId }, org.key)
  t.match(restored, {
    snapshot_id: rolledBack.restored_snapshot_id,
    content: '<p>Drain cleaning in Austin.</p>',
    title: 'Drains',
    source: 'site_edit_rollback',
    edit_id: editId,
  })
  const history = await ts.call<any[]>('get_snapshots_for_page', { page_id: pageId }, org.key)
  t.same(
    history.map((s) => s.source),
    ['site_edit_rollback', 'site_edit', 'add_snapshot'],
    'every change is visible in the history',
  )

  expectError(t, await ts.rpc('rollback_site_edit', { edit_id: editId }, org.key), 409, 'site_edit_rolled_back')
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: editId }, org.key), 409, 'site_edit_rolled_back')

  const events = await streamEvents(ts, `site_edit-${editId}`)
  t.same(
    events.map((e) => e.type),
    ['SiteEditStaged', 'SiteEditApplied', 'SiteEditRolledBack'],
  )
  t.ok(
    events.every((e) => e.metadata.org_id === org.orgId),
    'metadata.org_id is the organization',
  )
})

t.test('rollback of an edit never applied is a coded 409 and publishes nothing', async (t) => {
  const { ts, org, pageId, stage } = await setup(t)
  const editId = await stage('<p>New</p>')
  const response = await ts.rpc('rollback_site_edit', { edit_id: editId }, org.key)
  const body = expectError(t, response, 409, 'site_edit_not_applied')
  t.match(body.hint, /apply_site_edit/)
  const snapshots = await ts.call<any[]>('get_snapshots_for_page', { page_id: pageId }, org.key)
  t.equal(snapshots.length, 1, 'no snapshot recorded')
})

t.test('apply without approved_by records the calling key as approver', async (t) => {
  const { ts, org, stage } = await setup(t)
  const editId = await stage('<p>x</p>')
  const applied = await ts.call<any>('apply_site_edit', { edit_id: editId }, org.key)
  t.match(applied.approved_by, /^api_key:\d+$/)
  t.equal(applied.approved_by, applied.applied_by)
})

t.test('an unpublishable edit: the attempt is recorded, the edit stays proposed; attempts are counted per organization', async (t) => {
  const { ts, org, other, clientId, stage } = await setup(t)
  const broken = await ts.call<number>(
    'create_site_edit',
    { client_id: clientId, operation: 'meta_update', payload: 'title: New' },
    org.key,
  )
  t.equal((await ts.call<any>('get_site_edit', { edit_id: broken }, org.key)).page_id, null, 'no page_url: no page')
  const response = await ts.rpc('apply_site_edit', { edit_id: broken }, org.key)
  expectError(t, response, 422, 'site_edit_unpublishable')
  const after = await ts.call<any>('get_site_edit', { edit_id: broken }, org.key)
  t.match(after, { status: 'proposed', apply_attempts: 1 })
  t.match(after.last_error, /proposed_content/)
  const noPage = await ts.call<number>(
    'create_site_edit',
    {
      client_id: clientId,
      operation: 'elementor_rewrite',
      payload: JSON.stringify({ proposed_content: 'x' }),
      page_url: 'https://acme.example.com/nowhere',
    },
    org.key,
  )
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: noPage }, org.key), 422, 'site_edit_unpublishable')
  await ts.call('apply_site_edit', { edit_id: await stage('<p>ok</p>') }, org.key)

  t.equal(await ts.call('count_site_edit_attempts_last_hour', {}, org.key), 3, 'two failed and one published attempt')
  t.equal(await ts.call('count_site_edit_attempts_last_hour', {}, other.key), 0, "another organization's count")
  t.equal(await ts.call('count_site_edit_attempts_last_hour', {}), 3, 'a platform key without org_id: platform-wide')
})

t.test('get_site_edits and list_all_site_edits filter by status and page; other organizations see nothing', async (t) => {
  const { ts, org, other, clientId, stage } = await setup(t)
  const a = await stage('<p>a</p>')
  const b = await stage('<p>b</p>')
  await ts.call('apply_site_edit', { edit_id: a, approved_by: 'Dana' }, org.key)
  const all = await ts.call<any[]>('get_site_edits', { client_id: clientId }, org.key)
  t.same(
    all.map((e) => e.edit_id),
    [b, a],
    'newest first',
  )
  t.same(
    (await ts.call<any[]>('get_site_edits', { client_id: clientId, status: 'applied' }, org.key)).map((e) => e.edit_id),
    [a],
  )
  t.same(
    (await ts.call<any[]>('get_site_edits', { client_id: clientId, limit: 1, offset: 1 }, org.key)).map((e) => e.edit_id),
    [a],
  )
  t.same(
    (await ts.call<any[]>('list_all_site_edits', { status: 'proposed' }, org.key)).map((e) => e.edit_id),
    [b],
  )
  t.same(await ts.call('list_all_site_edits', {}, other.key), [])
  t.same(
    (await ts.call<any[]>('list_all_site_edits', { org_id: org.orgId })).map((e) => e.edit_id),
    [b, a],
    'a platform key names the organization',
  )

  const missing = await ts.rpc('get_site_edit', { edit_id: 999_999 }, other.key)
  const foreign = await ts.rpc('get_site_edit', { edit_id: a }, other.key)
  expectError(t, foreign, 404, 'not_found')
  t.same(withoutIds(foreign.json(), [a]), withoutIds(missing.json(), [999_999]), 'the same body as a missing edit')
  expectError(t, await ts.rpc('rollback_site_edit', { edit_id: a }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: b }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_site_edits', { client_id: clientId }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('count_pending_site_edits', { client_id: clientId }, other.key), 404, 'not_found')
  t.equal((await ts.call<any>('get_site_edit', { edit_id: b }, org.key)).status, 'proposed', 'the refused foreign apply changed nothing')
})

t.test('concurrent applies (and rollbacks) of one edit publish once; the others answer 409', async (t) => {
  const { ts, org, pageId, stage } = await setup(t)
  const editId = await stage('<p>Published once.</p>')
  const applies = await Promise.all(
    Array.from({ length: 6 }, () => ts.rpc('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, org.key)),
  )
  t.same(applies.map((r) => r.statusCode).sort(), [200, 409, 409, 409, 409, 409], 'one apply wins')
  for (const refused of applies.filter((r) => r.statusCode === 409)) t.equal(refused.json().code, 'site_edit_already_applied')
  const rollbacks = await Promise.all(Array.from({ length: 4 }, () => ts.rpc('rollback_site_edit', { edit_id: editId }, org.key)))
  t.same(rollbacks.map((r) => r.statusCode).sort(), [200, 409, 409, 409], 'one rollback wins')
  const history = await ts.call<any[]>('get_snapshots_for_page', { page_id: pageId }, org.key)
  t.same(
    history.map((s) => s.source),
    ['site_edit_rollback', 'site_edit', 'add_snapshot'],
    'one snapshot per change, none twice',
  )
  const events = await streamEvents(ts, `site_edit-${editId}`)
  t.same(
    events.map((e) => e.type),
    ['SiteEditStaged', 'SiteEditApplied', 'SiteEditRolledBack'],
  )
})
