/**
 * The writes switch over HTTP: while off, write RPCs answer 503 writes_disabled (Retry-After, the operator's
 * reason) on every API process, reads keep working, health shows it; the durable state, not WRITES_ENABLED,
 * is the truth once it exists.
 */
import t from 'tap'
import { readWritesState, setWritesState, WritesSwitch } from '../../read-api/platform/writes-switch.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls until check() is true: another process's flip reaches this one within the refresh interval. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await sleep(50)
  }
  throw new Error(`never happened: ${what}`)
}

async function health(ts: TestSystem): Promise<{ writes: { enabled: boolean; since: string; reason: string | null } }> {
  return (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json()
}

t.test('writes off: write RPCs answer 503 on every process, reads work, health shows it; on again: writes work', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const readOnly = await orgWithKey(ts, 'Readers', 'read')
  const clientId = await ts.call<number>('add_client', clientPayload('Before Co'), org.key)
  const second = await ts.system.buildApp() // another API process on the same database
  t.teardown(() => second.close())

  const initial = await health(ts)
  t.equal(initial.writes.enabled, true, 'writes start enabled')
  t.equal(initial.writes.reason, null)
  t.match(initial.writes.since, /^\d{4}-\d{2}-\d{2}T/)
  const seeded = await readWritesState(ts.system.database.db)
  t.equal(seeded?.changedBy, 'WRITES_ENABLED', 'the first process stored the initial value')

  // The operator flips the switch from elsewhere (the CLI writes the same row); no process is told.
  await setWritesState(ts.system.database.db, false, { reason: 'database upgrade', changedBy: 'ops cli' })
  for (const [name, app] of [
    ['first', ts.app],
    ['second', second],
  ] as const) {
    await eventually(`${name} process refuses writes`, async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/rpc/add_client',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(clientPayload('During Co')),
      })
      if (response.statusCode === 200) {
        // Accepted before this process's cached view expired; that write is legitimate.
        return false
      }
      const envelope = expectError(t, response, 503, 'writes_disabled', `${name} process`)
      t.equal(response.headers['retry-after'], '30', `${name}: Retry-After`)
      t.match(envelope.detail ?? '', /switched off since .*: database upgrade$/, `${name}: the operator's reason`)
      t.match(envelope.hint ?? '', /Reads keep working/)
      return true
    })
  }
  const during = await eventCount(ts)

  const platformWrite = await ts.rpc('create_organization', { name: 'Nope' })
  expectError(t, platformWrite, 503, 'writes_disabled', 'a platform key write')
  const status = await ts.rpc('set_client_status', { client_id: clientId, status: 'paused' }, org.key)
  expectError(t, status, 503, 'writes_disabled', 'another write method')
  // A caller's own mistakes come first: a read-only key is told about its scope, an unknown method is 403.
  expectError(t, await ts.rpc('add_client', clientPayload('Scope Co'), readOnly.key), 403, 'insufficient_scope', 'read-only key')
  expectError(t, await ts.rpc('no_such_method', {}, org.key), 403, 'method_not_allowed', 'unknown method')

  // Reads keep working.
  const clients = await ts.call<{ name: string }[]>('get_all_clients', {}, org.key)
  t.ok(
    clients.some((c) => c.name === 'Before Co'),
    'get_all_clients works',
  )
  t.equal((await ts.call<{ id: number }>('get_client', { client_id: clientId }, org.key)).id, clientId, 'get_client works')
  t.equal((await ts.call<{ id: number }>('get_organization', {}, org.key)).id, org.orgId, 'get_organization works')

  const off = await health(ts)
  t.same(off.writes.enabled, false, 'health shows writes off')
  t.equal(off.writes.reason, 'database upgrade')
  t.equal(await eventCount(ts), during, 'nothing was written while off')

  await setWritesState(ts.system.database.db, true, { changedBy: 'ops cli' })
  await eventually('writes accepted again', async () => (await ts.rpc('add_client', clientPayload('After Co'), org.key)).statusCode === 200)
  await eventually('the second process accepts writes again', async () => {
    const response = await second.inject({
      method: 'POST',
      url: '/api/v1/rpc/create_organization',
      headers: { authorization: `Bearer ${ts.platformKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Later Agency' }),
    })
    return response.statusCode === 200
  })
  t.equal((await health(ts)).writes.enabled, true, 'health shows writes on')
})

t.test('WRITES_ENABLED is only the initial value: the stored switch wins, and an unreadable value counts as off', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  await ts.database.pool.query(`delete from service_settings where key = 'writes'`)

  const startsOff = new WritesSwitch(db, { initial: false })
  const first = await startsOff.state()
  t.equal(first.enabled, false, 'the first process stores WRITES_ENABLED=false')
  t.equal(first.changedBy, 'WRITES_ENABLED')
  const laterProcess = new WritesSwitch(db, { initial: true })
  t.equal((await laterProcess.state()).enabled, false, 'a process started with WRITES_ENABLED=true follows the stored switch')

  await setWritesState(db, true, { changedBy: 'ops cli' })
  t.equal(
    (await new WritesSwitch(db, { initial: false }).state()).enabled,
    true,
    'after the operator turned writes on, a restart with WRITES_ENABLED=false does not undo it',
  )

  // A cached view is reused within the refresh interval and re-read after it.
  const cached = new WritesSwitch(db, { refreshMs: 60_000 })
  t.equal((await cached.state()).enabled, true)
  await setWritesState(db, false, { changedBy: 'ops cli' })
  t.equal((await cached.state()).enabled, true, 'within the interval the cached view answers (no query per request)')
  cached.invalidate()
  t.equal((await cached.state()).enabled, false, 'a refresh sees the flip')

  await ts.database.pool.query(`update service_settings set value = '{"enabled": "yes"}' where key = 'writes'`)
  t.equal((await new WritesSwitch(db).state()).enabled, false, 'anything but enabled: true is off')
})
