/**
 * DNS rebinding against the OIDC issuer fetch: a name that resolves to a public address when the URL is checked
 * and to a loopback one when the socket connects. The connect-time lookup (commands/network/safe-lookup.ts,
 * shared with webhook deliveries) must refuse it: nothing may connect to the internal address.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'

t.test('an issuer name that rebinds to loopback between the check and the connect is refused at connect time', async (t) => {
  const answers: string[] = []
  const resolve = async (host: string) => {
    // The URL checks (the issuer's, then the discovery request's) get a public answer; the connect, loopback.
    const address = answers.length < 2 ? '93.184.216.34' : '127.0.0.1'
    answers.push(`${host} → ${address}`)
    return [address]
  }
  const ts = await startTestSystem(t, { sso: { resolve } })
  const org = await orgWithKey(ts, 'Acme')
  const error = expectError(
    t,
    await ts.rpc('add_org_sso_provider', { label: 'Rebinding', issuer: 'https://rebind.test', client_id: 'x' }, org.key),
    400,
    'sso_issuer_invalid',
  )
  t.match(error.detail, /refused by the URL policy: rebind\.test resolves to a refused address/, String(error.detail))
  t.same(
    answers,
    ['rebind.test → 93.184.216.34', 'rebind.test → 93.184.216.34', 'rebind.test → 127.0.0.1'],
    'checked, then refused at the connect',
  )
  t.same(await ts.call('list_org_sso_providers', {}, org.key), [], 'nothing added')
})

t.test('an issuer in IPv4-compatible IPv6 form, literal or resolved, is refused like the IPv4 address it carries', async (t) => {
  const ts = await startTestSystem(t, { sso: { resolve: async () => ['::7f00:1'] } })
  const org = await orgWithKey(ts, 'Acme')
  for (const issuer of ['https://[::127.0.0.1]', 'https://[::a9fe:a9fe]', 'https://[::10.0.0.1]', 'https://idp.example.com']) {
    const error = expectError(
      t,
      await ts.rpc('add_org_sso_provider', { label: 'Compat', issuer, client_id: 'x' }, org.key),
      400,
      'sso_issuer_invalid',
    )
    t.match(error.detail, /address not allowed|refused by the URL policy/, `${issuer}: ${error.detail}`)
  }
  t.same(await ts.call('list_org_sso_providers', {}, org.key), [], 'nothing added')
})
