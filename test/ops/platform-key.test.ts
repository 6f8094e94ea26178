/**
 * PLATFORM_KEY on a fresh DATA_DIR: automation starts the service with a key it chose and uses it at once;
 * nothing is minted or printed.
 */
import t from 'tap'
import { call, health, randomKey, rpc, sandbox } from './spawn.js'

t.test('PLATFORM_KEY on a fresh DATA_DIR is usable as soon as the service says it serves', async (t) => {
  const box = await sandbox(t)
  const key = randomKey()
  t.match(key, /^rrk_[A-Za-z0-9]{40}$/)
  const served = await box.serve({ PLATFORM_KEY: key })

  // No health polling first: the "serving" line is the promise that the key works.
  const created = await rpc(served.baseUrl, 'create_organization', { name: 'Automation Inc' }, key)
  t.equal(created.status, 200, `create_organization right after "serving": ${JSON.stringify(created.body)}`)
  const orgId = created.body.result as number
  t.ok(Number.isInteger(orgId) && orgId > 0)

  const out = served.stdout()
  t.equal(served.mintedKey, null, 'no key was minted')
  t.notMatch(out, /rrk_/, 'no key is printed, not even the given one')
  t.notMatch(out, /First start/)
  t.notOk(served.stderr().includes(key), 'the key is not logged')

  const h = await health(served.baseUrl)
  t.equal(h.counts.api_keys, 1, 'the given key is the only key: no bootstrap key besides it')
  const clientId = await call<number>(
    served.baseUrl,
    'add_client',
    { org_id: orgId, client: { name: 'Bot Client', website_url: 'https://bot.example.com' } },
    key,
  )
  t.match(await call(served.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key), { name: 'Bot Client', org_id: orgId })

  const other = await rpc(served.baseUrl, 'create_organization', { name: 'Nope' }, randomKey())
  t.equal(other.status, 401, 'another rrk_ key is not accepted')
  await served.stop()
})
