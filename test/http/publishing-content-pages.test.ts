/**
 * Content pages through the RPCs: create with defaults and with every field, one page per WordPress post of
 * a client, updates along the status table (and a move it refuses), verify_json validated, the reads, and
 * another organization's page, client or job answering like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { postJob } from './jobs-helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, client, foreignClient }
}

t.test('create, read, list and update content pages', async (t) => {
  const { ts, org, client } = await setup(t)
  const bare = await ts.call<number>('create_content_page', { client_id: client, wp_post_id: 481 }, org.key)
  t.match(await ts.call('get_content_page', { page_id: bare }, org.key), {
    id: bare,
    client_id: client,
    wp_post_id: 481,
    job_id: null,
    slug: '',
    title: '',
    status: 'draft',
    verify_json: '',
    verification: null,
  })
  const verify = JSON.stringify({
    url: 'https://acme.example/x/',
    checked_at: '2026-11-20T10:00:00Z',
    checks: [{ name: 'http_200', passed: true }],
    by: 'agent-7',
  })
  const full = await ts.call<number>(
    'create_content_page',
    {
      client_id: client,
      wp_post_id: 482,
      slug: ' drain-cleaning ',
      title: 'Drain Cleaning',
      status: 'published',
      verify_json: verify,
      job_id: null,
    },
    org.key,
  )
  const page = await ts.call<any>('get_content_page', { page_id: full }, org.key)
  t.match(page, { slug: 'drain-cleaning', title: 'Drain Cleaning', status: 'published', verify_json: verify })
  t.same(page.verification, JSON.parse(verify), 'the verification parsed, unknown keys kept')

  // One page per post of the client.
  const taken = expectError(
    t,
    await ts.rpc('create_content_page', { client_id: client, wp_post_id: 481 }, org.key),
    409,
    'content_page_exists',
  )
  t.match(taken.detail, `content page ${bare}`)

  t.same(
    (await ts.call<any[]>('list_content_pages', { client_id: client }, org.key)).map((p) => p.id),
    [bare, full],
  )
  t.same(
    (await ts.call<any[]>('list_content_pages', { client_id: client, status: 'published' }, org.key)).map((p) => p.id),
    [full],
  )
  t.same(await ts.call('list_content_pages', { client_id: client, status: 'trashed' }, org.key), [])

  // Statuses move along the table; staying and the same values again record nothing.
  const stream = `content_pages-${client}`
  const before = (await streamEvents(ts, stream)).length
  const failed = await ts.call<any>('update_content_page', { page_id: full, status: 'failed' }, org.key)
  t.match(failed, { status: 'failed', title: 'Drain Cleaning', verify_json: verify }, 'what is left out stays')
  t.same(await ts.call('update_content_page', { page_id: full, status: 'failed' }, org.key), failed)
  t.equal((await streamEvents(ts, stream)).length, before + 1, 'the same values again record nothing')
  const verified = await ts.call<any>(
    'update_content_page',
    { page_id: full, status: 'verified', title: 'Drain Cleaning, Austin' },
    org.key,
  )
  t.match(verified, { status: 'verified', title: 'Drain Cleaning, Austin' })
  const refused = expectError(
    t,
    await ts.rpc('update_content_page', { page_id: full, status: 'pending_review' }, org.key),
    409,
    'content_page_status_invalid',
  )
  t.match(refused.detail, 'verified')
  expectError(t, await ts.rpc('update_content_page', { page_id: bare, status: 'verified' }, org.key), 409, 'content_page_status_invalid')
  await ts.call('update_content_page', { page_id: bare, status: 'trashed' }, org.key)
  expectError(t, await ts.rpc('update_content_page', { page_id: bare, status: 'published' }, org.key), 409, 'content_page_status_invalid')
  t.match(await ts.call('update_content_page', { page_id: bare, status: 'draft', verify_json: '{}' }, org.key), {
    status: 'draft',
    verification: {},
  })
  t.match(
    await ts.call('update_content_page', { page_id: bare, verify_json: '' }, org.key),
    { verify_json: '', verification: null },
    "'' clears it",
  )
  const events = await streamEvents(ts, stream)
  t.same(
    events.map((e) => e.type),
    [
      'ContentPageCreated',
      'ContentPageCreated',
      'ContentPageUpdated',
      'ContentPageUpdated',
      'ContentPageUpdated',
      'ContentPageUpdated',
      'ContentPageUpdated',
    ],
  )
  t.equal(events[0]!.metadata.org_id, org.orgId)
})

t.test('verify_json, lengths and unknown parameters are validated', async (t) => {
  const { ts, org, client } = await setup(t)
  const id = await ts.call<number>('create_content_page', { client_id: client, wp_post_id: 1 }, org.key)
  for (const [label, verify] of [
    ['not JSON', '{checks: yes}'],
    ['an array', '[1,2]'],
    ['a check without passed', '{"checks":[{"name":"http_200"}]}'],
    ['checks not a list', '{"checks":{}}'],
    ['over 64 KiB', JSON.stringify({ note: 'x'.repeat(70_000) })],
  ] as const) {
    const created = expectError(
      t,
      await ts.rpc('create_content_page', { client_id: client, wp_post_id: 2, verify_json: verify }, org.key),
      400,
      'content_page_verify_json_invalid',
      `create: ${label}`,
    )
    t.match(created.detail, 'verify_json', `${label}: detail names it`)
    expectError(
      t,
      await ts.rpc('update_content_page', { page_id: id, verify_json: verify }, org.key),
      400,
      'content_page_verify_json_invalid',
      `update: ${label}`,
    )
  }
  t.same(await ts.call('list_content_pages', { client_id: client }, org.key).then((l: any) => l.length), 1, 'nothing refused was recorded')
  expectError(t, await ts.rpc('create_content_page', { client_id: client, wp_post_id: 0 }, org.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('create_content_page', { client_id: client, wp_post_id: 3, status: 'live' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('create_content_page', { client_id: client, wp_post_id: 3, title: 'x'.repeat(501) }, org.key),
    400,
    'validation_failed',
  )
  expectError(t, await ts.rpc('update_content_page', { page_id: id, other: 1 }, org.key), 400, 'validation_failed')
  // A deleted client takes no new page.
  await ts.call('set_client_status', { client_id: client, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('create_content_page', { client_id: client, wp_post_id: 9 }, org.key), 409, 'client_deleted')
})

t.test("another organization's page, client or job answers like a missing one", async (t) => {
  const { ts, org, other, client, foreignClient } = await setup(t)
  const foreignPage = await ts.call<number>('create_content_page', { client_id: foreignClient, wp_post_id: 5 }, other.key)
  const missing = foreignPage + 10_000
  for (const [method, extra] of [
    ['get_content_page', {}],
    ['update_content_page', { title: 'Taken over' }],
  ] as const) {
    const foreign = expectError(t, await ts.rpc(method, { page_id: foreignPage, ...extra }, org.key), 404, 'not_found', `${method} foreign`)
    const absent = expectError(t, await ts.rpc(method, { page_id: missing, ...extra }, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(foreign, [foreignPage]), withoutIds(absent, [missing]), `${method}: foreign reads as missing`)
  }
  expectError(t, await ts.rpc('list_content_pages', { client_id: foreignClient }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('create_content_page', { client_id: foreignClient, wp_post_id: 6 }, org.key), 404, 'not_found')
  // A job of another organization is not the client's: refused like a missing job.
  const accepted = await postJob(ts.app, other.key, { kind: 'export_org' })
  t.equal(accepted.statusCode, 202)
  const foreignJob = accepted.json().job_id as number
  const foreignJobAnswer = expectError(
    t,
    await ts.rpc('create_content_page', { client_id: client, wp_post_id: 7, job_id: foreignJob }, org.key),
    404,
    'not_found',
  )
  t.equal(foreignJobAnswer.detail, `job ${foreignJob} not found`)
  const mine = await postJob(ts.app, org.key, { kind: 'export_org' })
  const myJob = mine.json().job_id as number
  const fromJob = await ts.call<number>('create_content_page', { client_id: client, wp_post_id: 7, job_id: myJob }, org.key)
  t.match(await ts.call('get_content_page', { page_id: fromJob }, org.key), { job_id: myJob })
  const noJob = expectError(
    t,
    await ts.rpc('create_content_page', { client_id: client, wp_post_id: 7, job_id: 999_999 }, org.key),
    404,
    'not_found',
  )
  t.equal(noJob.detail, 'job 999999 not found')
  t.match(await ts.call('get_content_page', { page_id: foreignPage }, other.key), { title: '' }, 'untouched')
  // A platform key reaches any organization's page.
  t.match(await ts.call('get_content_page', { page_id: foreignPage }, ts.platformKey), { id: foreignPage, client_id: foreignClient })
  const viaPlatform = await ts.call<number>('create_content_page', { client_id: client, wp_post_id: 10, org_id: org.orgId }, ts.platformKey)
  t.match(await ts.call('get_content_page', { page_id: viaPlatform }, org.key), { wp_post_id: 10 })
})
