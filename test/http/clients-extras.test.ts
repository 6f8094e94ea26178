/**
 * The client extras beside search tracking: a client's activity feed (newest first, paged, only its own
 * events), when it stopped being active, the agency name it should see (brand name, else the organization's
 * name), and when its data was last captured (completed jobs, rank checks and Search Console captures, against
 * local DataForSEO and Search Console stand-ins; failed ones do not count), with another organization's client
 * answering exactly like a missing one.
 */
import t from 'tap'
import { startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, withoutIds } from './helpers.js'
import { eventually } from './aeo-runs-helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'
import { DOMAIN_PROPERTY, fictionalRows, finished, gscSetup } from './search-gsc-support.js'
import { searchSettings } from './search-rank-checks-helpers.js'

/** A short Search Console range (the fixed test day's last days with data). */
const GSC_RANGE = { start: '2026-11-18', end: '2026-11-22' }

interface Activity {
  event_id: string
  type: string
  stream: string
  client_id: number | null
  actor: { kind: string; id: string | null }
  occurred_at: string
}

// No processors here: the search processors append events about clients of their own accord, and this feed's
// order is asserted exactly. get_last_audit_at runs jobs on a system of its own, below.
const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Northwind Marketing')
const other = await orgWithKey(ts, 'Other Agency')
const plumbers = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', { services: ['Drain cleaning'], locations: ['Austin, TX'] }),
  org.key,
)
const roofers = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

t.test("get_client_activity: the client's own events, newest first, paged", async (t) => {
  const keywordId = await ts.call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: 'drain cleaning austin' } }, org.key)
  const pageId = await ts.call<number>(
    'add_page',
    { page: { client_id: plumbers, url: 'https://acme-plumbing.example.com/drains' } },
    org.key,
  )
  await ts.call('associate_keyword_page', { keyword_id: keywordId, page_id: pageId }, org.key)
  await ts.call('set_client_setting', { client_id: roofers, key: 'tier', value: 'gold' }, org.key)
  await ts.call('set_client_setting', { client_id: plumbers, key: 'tier', value: 'silver' }, org.key)

  const feed = await ts.call<Activity[]>('get_client_activity', { client_id: plumbers }, org.key)
  // One call per write above, so each has its own time; add_client's events share one time, in no set order.
  t.same(
    feed.slice(0, 4).map((e) => e.type),
    ['ClientSettingSet', 'KeywordPageAssociated', 'PageAdded', 'KeywordAdded'],
    'newest first',
  )
  t.same(
    feed
      .slice(4)
      .map((e) => e.type)
      .sort(),
    ['ClientAdded', 'ClientIdentityClaimed', 'ClientLocationAdded', 'ClientServiceAdded', 'ClientSlugClaimed'],
    "then add_client's events, and nothing of another client",
  )
  t.ok(
    feed.every((e) => e.client_id === plumbers),
    'every entry names the client',
  )
  t.match(feed[1], { stream: `keyword_pages-${plumbers}`, actor: { kind: 'api_key', id: String(org.keyId) }, occurred_at: String })
  const sorted = [...feed].sort((a, b) => b.occurred_at.localeCompare(a.occurred_at))
  t.same(
    feed.map((e) => e.occurred_at),
    sorted.map((e) => e.occurred_at),
  )
  t.same(
    (await ts.call<Activity[]>('get_client_activity', { client_id: plumbers, limit: 2, offset: 1 }, org.key)).map((e) => e.event_id),
    feed.slice(1, 3).map((e) => e.event_id),
    'limit and offset page through it',
  )
  const roofersFeed = await ts.call<Activity[]>('get_client_activity', { client_id: roofers }, org.key)
  t.equal(roofersFeed[0]!.type, 'ClientSettingSet')
  t.same(
    roofersFeed
      .slice(1)
      .map((e) => e.type)
      .sort(),
    ['ClientAdded', 'ClientIdentityClaimed', 'ClientSlugClaimed'],
  )
  expectError(t, await ts.rpc('get_client_activity', { client_id: plumbers, limit: 1001 }, org.key), 400, 'validation_failed')
})

t.test('get_client_deactivated_at: null while active, the time it stopped otherwise', async (t) => {
  t.equal(await ts.call('get_client_deactivated_at', { client_id: roofers }, org.key), null)
  await ts.call('set_client_status', { client_id: roofers, status: 'paused' }, org.key)
  const paused = await ts.call<string>('get_client_deactivated_at', { client_id: roofers }, org.key)
  t.match(paused, /^\d{4}-\d\d-\d\dT/)
  const client = await ts.call<{ deactivated_at: string }>('get_client', { client_id: roofers }, org.key)
  t.equal(paused, client.deactivated_at, 'the same time get_client shows')
  await ts.call('set_client_status', { client_id: roofers, status: 'deleted' }, org.key)
  t.equal(
    await ts.call('get_client_deactivated_at', { client_id: roofers }, org.key),
    paused,
    'deleting a paused client keeps when it stopped',
  )
  await ts.call('set_client_status', { client_id: roofers, status: 'active' }, org.key)
  t.equal(await ts.call('get_client_deactivated_at', { client_id: roofers }, org.key), null, 'active again')
})

t.test("get_agency_name_for_client: the organization's brand name, else its name", async (t) => {
  t.equal(await ts.call('get_agency_name_for_client', { client_id: plumbers }, org.key), 'Northwind Marketing')
  await ts.call('update_organization_branding', { name: 'Northwind Digital' }, org.key)
  t.equal(await ts.call('get_agency_name_for_client', { client_id: plumbers }, org.key), 'Northwind Digital')
  await ts.call('update_organization_branding', { name: null }, org.key)
  t.equal(await ts.call('get_agency_name_for_client', { client_id: plumbers }, org.key), 'Northwind Marketing', 'brand name cleared')
  t.equal(await ts.call('get_agency_name_for_client', { client_id: foreignClient }, other.key), 'Other Agency')
})

t.test("another organization's client answers exactly like a missing one", async (t) => {
  const before = await eventCount(ts)
  const missing = 987_654
  for (const method of ['get_client_activity', 'get_client_deactivated_at', 'get_agency_name_for_client', 'get_last_audit_at']) {
    const a = expectError(t, await ts.rpc(method, { client_id: foreignClient }, org.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, { client_id: missing }, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [foreignClient]), withoutIds(b, [missing]), `${method}: same body`)
  }
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.same((await ts.call<Activity[]>('get_client_activity', { client_id: foreignClient }, other.key)).map((e) => e.type).sort(), [
    'ClientAdded',
    'ClientIdentityClaimed',
    'ClientSlugClaimed',
  ])
  t.equal(
    await ts.call('get_agency_name_for_client', { client_id: foreignClient }),
    'Other Agency',
    'a platform key reads any organization',
  )
})

t.test('get_last_audit_at: the latest finish of the completed jobs and rank checks; failed ones do not count', async (t) => {
  const serp = await startDataForSeoSerpStandIn(t)
  const jobs = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, search: searchSettings({ dataforseo: serp }) })
  const agency = await orgWithKey(jobs, 'Audit Agency')
  const served = await jobs.call<number>(
    'add_client',
    clientPayload('Acme Plumbing', { services: ['Drain cleaning'], locations: ['Austin, TX'] }),
    agency.key,
  )
  const bare = await jobs.call<number>('add_client', clientPayload('Acme Roofing'), agency.key)
  const lastAudit = (clientId: number) => jobs.call<string | null>('get_last_audit_at', { client_id: clientId }, agency.key)
  t.equal(await lastAudit(served), null, 'nothing captured yet')

  // Jobs: a client without services fails keyword_generation (keyword_no_services); one with services completes it.
  const failing = await postJob(jobs.app, agency.key, { kind: 'keyword_generation', client_id: bare })
  t.equal(failing.statusCode, 202, failing.body)
  const failed = await waitForJob(jobs.app, agency.key, failing.json().job_id, (job) => ['done', 'failed'].includes(job.status))
  t.equal(failed.status, 'failed')
  t.equal(await lastAudit(bare), null, 'a failed job captured nothing')
  const created = await postJob(jobs.app, agency.key, { kind: 'keyword_generation', client_id: served })
  t.equal(created.statusCode, 202, created.body)
  const done = await waitForJob(jobs.app, agency.key, created.json().job_id, (job) => ['done', 'failed'].includes(job.status))
  t.equal(done.status, 'done', JSON.stringify(done.error))
  t.equal(await lastAudit(served), done.finished_at)
  t.equal(await lastAudit(bare), null, "another client's job is not this one's")

  // Rank checks: one the provider refuses (402) fails and counts for nothing; the next completes and counts.
  await jobs.call('add_keyword', { keyword: { client_id: bare, keyword: 'roof repair austin' } }, agency.key)
  await jobs.call('set_rank_cadence', { client_id: bare, frequency: 'off', devices: ['desktop'] }, agency.key)
  const checked = async () => {
    const { id } = await jobs.call<{ id: number }>('run_rank_check', { client_id: bare }, agency.key)
    return eventually(async () => {
      const check = await jobs.call<{ status: string; finished_at: string | null }>('get_rank_check', { check_id: id }, agency.key)
      return check.status === 'completed' || check.status === 'failed' ? check : undefined
    }, `rank check ${id} to finish`)
  }
  serp.script({ kind: 'http', status: 402 })
  t.equal((await checked()).status, 'failed')
  t.equal(await lastAudit(bare), null, 'a failed rank check captured nothing')
  const check = await checked()
  t.equal(check.status, 'completed')
  t.equal(await lastAudit(bare), check.finished_at, "the rank check's finish")
  t.equal(await lastAudit(served), done.finished_at, 'each client its own')
})

t.test('get_last_audit_at: a completed Search Console capture counts; a failed one does not', async (t) => {
  const setup = await gscSetup(t)
  const { ts: gsc, acme, clientId, standIn } = setup
  const lastAudit = () => gsc.call<string | null>('get_last_audit_at', { client_id: clientId }, acme.key)
  const account = standIn.createServiceAccount('rankrelay-gsc')
  standIn.addUser(DOMAIN_PROPERTY, account.client_email)
  standIn.seedRows(DOMAIN_PROPERTY, fictionalRows(GSC_RANGE))
  await gsc.call('set_gsc_property', { client_id: clientId, property: DOMAIN_PROPERTY, credentials: account, cadence: 'off' }, acme.key)
  const capture = async () => {
    const queued = await gsc.call<{ capture: { id: number } }>(
      'run_gsc_capture',
      { client_id: clientId, start_date: GSC_RANGE.start, end_date: GSC_RANGE.end },
      acme.key,
    )
    return (await finished(gsc, acme.key, queued.capture.id, t)) as { status: string; finished_at: string | null }
  }

  // Google refuses a deleted key: the capture fails at once.
  standIn.deleteServiceAccountKey(account.client_email)
  t.equal((await capture()).status, 'failed')
  t.equal(await lastAudit(), null, 'a failed capture captured nothing')

  const working = standIn.createServiceAccount('rankrelay-gsc-2')
  standIn.addUser(DOMAIN_PROPERTY, working.client_email)
  await gsc.call('set_gsc_property', { client_id: clientId, property: DOMAIN_PROPERTY, credentials: working, cadence: 'off' }, acme.key)
  const done = await capture()
  t.equal(done.status, 'completed')
  t.equal(await lastAudit(), done.finished_at, "the capture's finish")
})
