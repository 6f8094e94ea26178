/**
 * `npm run ops -- writes off|on|status` against a running service (the real CLI, attached to the embedded
 * PostgreSQL the service started): when the command returns, the served API refuses writes (503
 * writes_disabled) and keeps serving reads, health shows the switch, and `writes on` restores writes.
 * WRITES_ENABLED=false makes a new deployment start with writes off.
 */
import t from 'tap'
import { health, rpc, sandbox } from './spawn.js'

t.test('the writes switch from the CLI while the service runs', async (t) => {
  const box = await sandbox(t)
  const served = await box.serve()
  const url = served.baseUrl
  const key = served.mintedKey!
  t.ok(key, 'a platform key was minted')

  const orgId = (await rpc(url, 'create_organization', { name: 'Switch Agency' }, key)).body.result as number
  t.ok(Number.isInteger(orgId), 'writes work at first')
  const status = await box.run(['writes', 'status'])
  t.equal(status.code, 0, `writes status exits 0 (${status.stderr})`)
  t.match(status.stdout, /^Writes are on since .* \(by WRITES_ENABLED\)/, 'status: on, as initially stored')

  const off = await box.run(['writes', 'off', '--reason', 'nightly maintenance'])
  t.equal(off.code, 0, `writes off exits 0 (${off.stderr})`)
  t.match(off.stdout, /Writes are off since .* \(by ops cli\): nightly maintenance/)
  t.match(off.stdout, /503 writes_disabled; reads keep working/)

  // The CLI waited out the API's refresh interval: the flip is in effect now, with no polling.
  const refused = await rpc(
    url,
    'add_client',
    { org_id: orgId, client: { name: 'Refused Co', website_url: 'https://refused.example.com' } },
    key,
  )
  t.equal(refused.status, 503, 'a write RPC answers 503')
  t.equal(refused.body.code, 'writes_disabled')
  t.match(refused.body.detail, /nightly maintenance/)
  t.equal(refused.headers.get('retry-after'), '30')
  const read = await rpc(url, 'get_organization', { org_id: orgId }, key)
  t.equal(read.status, 200, 'reads keep working')
  t.equal(read.body.result.name, 'Switch Agency')
  const shown = await health(url)
  t.same(
    shown.writes && { enabled: shown.writes.enabled, reason: shown.writes.reason },
    { enabled: false, reason: 'nightly maintenance' },
    'health shows writes off',
  )
  const offStatus = await box.run(['writes', 'status'])
  t.match(offStatus.stdout, /^Writes are off since .* \(by ops cli\): nightly maintenance/, 'status: off')

  const on = await box.run(['writes', 'on'])
  t.equal(on.code, 0, `writes on exits 0 (${on.stderr})`)
  t.match(on.stdout, /Writes are on since .* \(by ops cli\)\nEvery API process now accepts writes again/)
  const accepted = await rpc(
    url,
    'add_client',
    { org_id: orgId, client: { name: 'Accepted Co', website_url: 'https://accepted.example.com' } },
    key,
  )
  t.equal(accepted.status, 200, `writes work again (${JSON.stringify(accepted.body)})`)
  t.equal((await health(url)).writes.enabled, true, 'health shows writes on')

  const bad = await box.run(['writes', 'sideways'])
  t.equal(bad.code, 2, 'an unknown action is a usage error')
  t.match(bad.stderr, /writes needs one of: on, off, status/)
  const misplaced = await box.run(['writes', 'on', '--reason', 'x'])
  t.equal(misplaced.code, 2, '--reason only goes with off')
})

t.test('WRITES_ENABLED=false: a new deployment starts with writes off', async (t) => {
  const box = await sandbox(t)
  const served = await box.serve({ WRITES_ENABLED: 'false' })
  const key = served.mintedKey!
  t.ok(key, 'the bootstrap platform key is minted even with writes off')
  const refused = await rpc(served.baseUrl, 'create_organization', { name: 'Too Early' }, key)
  t.equal(refused.status, 503)
  t.equal(refused.body.code, 'writes_disabled')
  t.equal((await health(served.baseUrl)).writes.enabled, false)
  const status = await box.run(['writes', 'status'])
  t.match(status.stdout, /^Writes are off since .* \(by WRITES_ENABLED\)/)
})
