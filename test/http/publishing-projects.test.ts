/**
 * Website projects through the RPCs: add (defaults from the client), read, update, the status flow, the
 * refusals (deleted client, foreign library client, archived project, a jump in status) and another
 * organization's project or client answering like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing', { website_url: 'https://acmeplumbing.com' }), org.key)
  const library = await ts.call<number>('add_client', clientPayload('Acme Template Library'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, client, library, foreignClient }
}

t.test('add, read, update and move a website project', async (t) => {
  const { ts, org, client, library } = await setup(t)
  const projectId = await ts.call<number>(
    'add_website_project',
    { project: { client_id: client, name: ' Acme rebuild ', library_client_id: library, notes: 'Keep the phone number' } },
    org.key,
  )
  t.equal(typeof projectId, 'number')
  const project = await ts.call<any>('get_website_project', { project_id: projectId }, org.key)
  t.match(project, {
    id: projectId,
    org_id: org.orgId,
    client_id: client,
    name: 'Acme rebuild',
    kind: 'rebuild',
    status: 'planning',
    site_url: 'https://acmeplumbing.com',
    staging_url: null,
    library_client_id: library,
    notes: 'Keep the phone number',
  })
  t.equal(project.status_changed_at, project.created_at)

  const newSite = await ts.call<number>(
    'add_website_project',
    { project: { client_id: client, name: 'Second site', kind: 'new_site', site_url: null, status: 'building' } },
    org.key,
  )
  t.same(
    (await ts.call<any[]>('get_projects_for_client', { client_id: client }, org.key)).map((p) => [p.id, p.kind, p.status, p.site_url]),
    [
      [newSite, 'new_site', 'building', null],
      [projectId, 'rebuild', 'planning', 'https://acmeplumbing.com'],
    ],
    'newest first',
  )

  const updated = await ts.call<any>(
    'update_website_project',
    { project_id: projectId, staging_url: 'https://staging.acmeplumbing.com/', notes: null },
    org.key,
  )
  t.match(updated, { name: 'Acme rebuild', staging_url: 'https://staging.acmeplumbing.com', notes: null, library_client_id: library })
  const stream = `website_project-${projectId}`
  const before = (await streamEvents(ts, stream)).length
  await ts.call('update_website_project', { project_id: projectId, notes: null }, org.key)
  t.equal((await streamEvents(ts, stream)).length, before, 'an update that changes nothing records nothing')

  const building = await ts.call<any>('set_website_project_status', { project_id: projectId, status: 'building' }, org.key)
  t.equal(building.status, 'building')
  const jump = await ts.rpc('set_website_project_status', { project_id: projectId, status: 'live' }, org.key)
  const body = expectError(t, jump, 409, 'website_project_status_invalid')
  t.match(body.detail, /review/)
  await ts.call('set_website_project_status', { project_id: projectId, status: 'archived' }, org.key)
  expectError(t, await ts.rpc('update_website_project', { project_id: projectId, name: 'X' }, org.key), 409, 'website_project_archived')
  const reopened = await ts.call<any>('set_website_project_status', { project_id: projectId, status: 'planning' }, org.key)
  t.equal(reopened.status, 'planning')
  const events = await streamEvents(ts, stream)
  t.same(
    events.map((e) => e.type),
    [
      'WebsiteProjectAdded',
      'WebsiteProjectUpdated',
      'WebsiteProjectStatusChanged',
      'WebsiteProjectStatusChanged',
      'WebsiteProjectStatusChanged',
    ],
  )
  t.equal(events[0]!.metadata.org_id, org.orgId)
})

t.test('refusals: validation, deleted and foreign clients, other organizations', async (t) => {
  const { ts, org, other, client, foreignClient } = await setup(t)
  expectError(t, await ts.rpc('add_website_project', { project: { client_id: client } }, org.key), 400, 'validation_failed', 'no name')
  expectError(
    t,
    await ts.rpc('add_website_project', { project: { client_id: client, name: 'X', kind: 'remodel' } }, org.key),
    400,
    'validation_failed',
    'unknown kind',
  )
  expectError(
    t,
    await ts.rpc('add_website_project', { project: { client_id: client, name: 'X', site_url: 'ftp://x.com' } }, org.key),
    400,
    'validation_failed',
    'not an http(s) address',
  )
  expectError(t, await ts.rpc('add_website_project', { project: { client_id: foreignClient, name: 'X' } }, org.key), 404, 'not_found')
  expectError(
    t,
    await ts.rpc('add_website_project', { project: { client_id: client, name: 'X', library_client_id: foreignClient } }, org.key),
    404,
    'not_found',
    'a foreign library client',
  )
  const projectId = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'Acme rebuild' } }, org.key)
  for (const [method, params] of [
    ['get_website_project', { project_id: projectId }],
    ['update_website_project', { project_id: projectId, name: 'Mine now' }],
    ['set_website_project_status', { project_id: projectId, status: 'building' }],
    ['get_projects_for_client', { client_id: client }],
  ] as const) {
    expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method} from another organization`)
  }
  expectError(t, await ts.rpc('get_website_project', { project_id: 999_999 }, org.key), 404, 'not_found', 'a missing project')

  // A platform key names the organization for a write and reads any organization's project.
  const byPlatform = await ts.call<number>(
    'add_website_project',
    { org_id: org.orgId, project: { client_id: client, name: 'By platform' } },
    ts.platformKey,
  )
  t.equal((await ts.call<any>('get_website_project', { project_id: byPlatform }, ts.platformKey)).org_id, org.orgId)

  await ts.call('set_client_status', { client_id: client, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('add_website_project', { project: { client_id: client, name: 'Late' } }, org.key), 409, 'client_deleted')
})
