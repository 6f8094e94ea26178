/**
 * Authentication and authorization at the RPC edge: 401 for anything but a known, unrevoked key; scopes;
 * deny-by-default method lookup; platform-only methods; no privilege escalation when minting keys.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, keyFor, orgWithKey, rawRpc, withoutIds } from './helpers.js'

t.test('requests without a valid key answer 401 unauthorized with the envelope', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const revoked = await keyFor(ts, org.orgId, 'read,write', 'to revoke')
  await ts.call('revoke_api_key', { key_id: revoked.id })
  const before = await eventCount(ts)

  const unknownKey = `rrk_${randomBytes(32).toString('base64url')}`
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['empty Authorization header', { authorization: '' }],
    ['Basic scheme', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
    ['Bearer without a token', { authorization: 'Bearer' }],
    ['Bearer with only spaces', { authorization: 'Bearer    ' }],
    ['token without scheme', { authorization: org.key }],
    ['two tokens', { authorization: `Bearer ${org.key} ${org.key}` }],
    ['unknown rrk_ key', { authorization: `Bearer ${unknownKey}` }],
    ['bare prefix', { authorization: 'Bearer rrk_' }],
    ['unknown OAuth-looking token', { authorization: `Bearer rro_${randomBytes(16).toString('hex')}` }],
    ['key with a character changed', { authorization: `Bearer ${org.key.slice(0, -1)}${org.key.endsWith('A') ? 'B' : 'A'}` }],
    ['revoked key', { authorization: `Bearer ${revoked.key}` }],
  ]
  for (const [what, auth] of cases) {
    const response = await rawRpc(ts, 'get_all_clients', '{}', { 'content-type': 'application/json', ...auth })
    const body = expectError(t, response, 401, 'unauthorized', what)
    t.equal(body.error, 'Missing, unknown or revoked credentials', `${what}: message`)
    t.match(body.hint ?? '', /Bearer/, `${what}: hint says how to authenticate`)
    t.equal(response.headers['x-service-api-version'], '1.0.0', `${what}: version header on the 401`)
  }

  // Unknown and revoked keys answer identically: nothing says the revoked key ever existed.
  const unknown = (
    await rawRpc(ts, 'get_all_clients', '{}', { 'content-type': 'application/json', authorization: `Bearer ${unknownKey}` })
  ).json()
  const wasRevoked = (
    await rawRpc(ts, 'get_all_clients', '{}', { 'content-type': 'application/json', authorization: `Bearer ${revoked.key}` })
  ).json()
  t.same(
    withoutIds(wasRevoked, []),
    withoutIds(unknown, []),
    'a revoked key answers exactly like an unknown one (but for its own request_id)',
  )

  // A write with a bad key changes nothing.
  const write = await ts.rpc('add_client', clientPayload('Sneaky'), unknownKey)
  expectError(t, write, 401, 'unauthorized', 'write with an unknown key')
  t.equal(await eventCount(ts), before, 'no event appended by unauthenticated calls')
})

t.test('authentication comes before method lookup: an unknown method without a key is 401, not 403', async (t) => {
  const ts = await startTestSystem(t)
  const response = await rawRpc(ts, 'no_such_method', '{}', { 'content-type': 'application/json' })
  expectError(t, response, 401, 'unauthorized')
})

t.test('the Bearer scheme is case-insensitive and a valid key works', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const response = await rawRpc(ts, 'count_active_clients', '{}', {
    'content-type': 'application/json',
    authorization: `bearer ${org.key}`,
  })
  t.equal(response.statusCode, 200)
  t.same(response.json(), { result: 0 })
})

t.test('a revoked key stops working at once', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const second = await keyFor(ts, org.orgId, 'read,write,jobs', 'second')
  t.equal((await ts.rpc('count_active_clients', {}, second.key)).statusCode, 200, 'works before revocation')
  await ts.call('revoke_api_key', { key_id: second.id }, org.key)
  expectError(t, await ts.rpc('count_active_clients', {}, second.key), 401, 'unauthorized', 'after revocation')
  t.equal((await ts.rpc('count_active_clients', {}, org.key)).statusCode, 200, 'the other key still works')
})

t.test('a read-only key gets 403 insufficient_scope on every write RPC, and nothing changes', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Plumbers'), org.key)
  const readOnly = await keyFor(ts, org.orgId, 'read')
  const platformReadOnly = await keyFor(ts, null, 'read', 'platform read-only')

  const writes = ts.system.registry
    .all()
    .map((r) => r.definition)
    .filter((d) => d.access === 'write')
    .map((d) => d.name)
  for (const expected of [
    'create_organization',
    'create_api_key',
    'revoke_api_key',
    'add_client',
    'update_client',
    'set_client_status',
    'set_client_setting',
    'add_service',
    'add_location',
    'delete_locations_for_client',
  ]) {
    t.ok(writes.includes(expected), `${expected} is a write RPC`)
  }

  // Plausible, valid bodies, so that only the scope can be the reason for the refusal.
  const bodies: Record<string, unknown> = {
    create_organization: { name: 'Other' },
    create_api_key: { name: 'minted', scopes: 'read' },
    revoke_api_key: { key_id: org.keyId },
    add_client: clientPayload('Roofers'),
    update_client: { client_id: clientId, name: 'Renamed' },
    set_client_status: { client_id: clientId, status: 'paused' },
    set_client_setting: { client_id: clientId, key: 'tier', value: 'gold' },
    add_service: { service: { client_id: clientId, name: 'Drains' } },
    add_location: { location: { client_id: clientId, name: 'Austin, TX' } },
    delete_locations_for_client: { client_id: clientId },
  }

  const before = await eventCount(ts)
  for (const [label, key] of [
    ['org read-only key', readOnly.key],
    ['platform read-only key', platformReadOnly.key],
  ] as const) {
    for (const method of writes) {
      for (const body of [bodies[method] ?? {}, {}]) {
        const response = await ts.rpc(method, body, key)
        const envelope = expectError(t, response, 403, 'insufficient_scope', `${label} ${method}`)
        t.match(envelope.hint ?? '', /write/, `${label} ${method}: hint mentions write`)
        t.match(envelope.detail ?? '', /write/, `${label} ${method}: detail names the write scope`)
      }
    }
  }
  t.equal(await eventCount(ts), before, 'no event appended')
  const client = await ts.call('get_client', { client_id: clientId }, readOnly.key)
  t.equal(client.name, 'Plumbers', 'the read-only key can still read, and the client is unchanged')
  t.equal(client.status, 'active')
})

t.test('a key without the read scope gets 403 insufficient_scope on reads', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const writeOnly = await keyFor(ts, org.orgId, 'write')
  const body = expectError(t, await ts.rpc('get_all_clients', {}, writeOnly.key), 403, 'insufficient_scope')
  t.match(body.detail ?? '', /read/, 'detail names the read scope')
  t.match(body.hint ?? '', /read/, 'hint names the read scope')
})

t.test('an unknown or unvetted method answers 403 method_not_allowed to an authenticated caller', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const readOnly = await keyFor(ts, org.orgId, 'read')
  const before = await eventCount(ts)
  for (const method of [
    'no_such_method',
    'drop_database',
    'constructor',
    'toString',
    '__proto__',
    'hasOwnProperty',
    'GET_CLIENT',
    'get_client ',
  ]) {
    for (const [label, key] of [
      ['org key', org.key],
      ['read-only key', readOnly.key],
      ['platform key', ts.platformKey],
    ] as const) {
      const response = await ts.rpc(encodeURIComponent(method), {}, key)
      const body = expectError(t, response, 403, 'method_not_allowed', `${label} ${JSON.stringify(method)}`)
      t.ok(body.hint, `${label} ${JSON.stringify(method)}: carries a hint`)
    }
  }
  t.equal(await eventCount(ts), before, 'nothing appended')
})

t.test('an organization key calling a platform-only method answers 403 platform_only', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const before = await eventCount(ts)
  const body = expectError(t, await ts.rpc('create_organization', { name: 'Mine now' }, org.key), 403, 'platform_only')
  t.match(body.detail ?? '', /create_organization/)
  t.ok(body.hint)
  t.equal(await eventCount(ts), before, 'no organization created')
  t.equal(typeof (await ts.call('create_organization', { name: 'Fine' })), 'number', 'the platform key may')
})

t.test('an organization key cannot mint a key with more scopes than it holds', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read,write')
  const before = await eventCount(ts)

  for (const scopes of ['read,write,jobs', 'jobs', 'write,jobs']) {
    const body = expectError(t, await ts.rpc('create_api_key', { name: 'escalate', scopes }, org.key), 403, 'forbidden', scopes)
    t.match(body.detail ?? '', /jobs/, `${scopes}: detail names the scope not held`)
  }
  // The default is read,write,jobs, which this key does not hold either.
  expectError(t, await ts.rpc('create_api_key', { name: 'default scopes' }, org.key), 403, 'forbidden', 'default scopes')
  t.equal(await eventCount(ts), before, 'no key created')

  const listed = await ts.call<unknown[]>('list_api_keys', {}, org.key)
  t.equal(listed.length, 1, 'still only the original key')

  const narrower = await ts.call('create_api_key', { name: 'narrower', scopes: 'read' }, org.key)
  t.equal(narrower.scopes, 'read')
  t.equal(narrower.org_id, org.orgId)
  const same = await ts.call('create_api_key', { name: 'same', scopes: 'write,read' }, org.key)
  t.equal(same.scopes, 'read,write', 'scopes come back in canonical order')
})

t.test('an organization key cannot mint platform keys or keys of another organization', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'A')
  const b = await orgWithKey(ts, 'B')
  const before = await eventCount(ts)

  const foreign = expectError(
    t,
    await ts.rpc('create_api_key', { name: 'into B', org_id: b.orgId, scopes: 'read' }, a.key),
    404,
    'not_found',
  )
  const missing = expectError(
    t,
    await ts.rpc('create_api_key', { name: 'nowhere', org_id: 999_999, scopes: 'read' }, a.key),
    404,
    'not_found',
  )
  t.same(withoutIds(foreign, [b.orgId]), withoutIds(missing, [999_999]))
  t.equal(await eventCount(ts), before, 'nothing created')

  // org_id null from an organization key cannot make a platform key: the caller's organization is injected.
  const created = await ts.call('create_api_key', { name: 'null org', org_id: null, scopes: 'read' }, a.key)
  t.equal(created.org_id, a.orgId, 'the key belongs to the caller organization')
  const platformKeys = await ts.call<{ org_id: number | null; name: string }[]>('list_api_keys', {})
  t.notOk(
    platformKeys.some((k) => k.name === 'null org'),
    'no platform key was created',
  )
})

t.test('a 401 carries WWW-Authenticate with the resource-metadata URL (behaviour.md, Authentication 6)', async (t) => {
  const ts = await startTestSystem(t)
  const response = await rawRpc(ts, 'get_all_clients', '{}', { 'content-type': 'application/json' })
  t.equal(response.statusCode, 401)
  const header = String(response.headers['www-authenticate'] ?? '')
  t.match(header, /^Bearer\b/, 'Bearer challenge')
  t.match(header, /realm="RankRelay"/, 'names the realm')
  // RFC 9728: where the protected-resource metadata is (served by read-api/mcp/protected-resource.ts).
  t.match(header, /resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"/, 'names the resource metadata')
})
