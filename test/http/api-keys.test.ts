/**
 * API keys through the RPCs: minting (plaintext once), listing (never keys or hashes), revoking (at once,
 * idempotent, confined to the caller's organization), and scope validation.
 */
import t from 'tap'
import { createHash } from 'node:crypto'
import { startTestSystem } from '../support/system.js'
import { eventCount, expectError, orgWithKey, withoutIds } from './helpers.js'

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex')
const KEY = /^rrk_[A-Za-z0-9_-]{43}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const LISTED_FIELDS = [
  'created_at',
  'created_by_user_id',
  'id',
  'key_hint',
  'name',
  'notes',
  'org_id',
  'rate_limit_per_minute',
  'revoked_at',
  'scopes',
]

t.test('create_api_key returns the plaintext once; list_api_keys never returns keys or hashes', async (t) => {
  const ts = await startTestSystem(t)
  const orgId = await ts.call<number>('create_organization', { name: 'Acme' })
  const created = await ts.call('create_api_key', { name: 'Main', org_id: orgId, notes: 'for the agent', created_by_user_id: 7 })
  t.same(Object.keys(created).sort(), ['id', 'key', 'name', 'org_id', 'scopes'])
  t.match(created.key, KEY, 'rrk_ prefix and 32 random bytes')
  t.equal(created.name, 'Main')
  t.equal(created.org_id, orgId)
  t.equal(created.scopes, 'read,write,jobs', 'default scopes')

  const readOnly = await ts.call('create_api_key', { name: 'Reader', org_id: orgId, scopes: 'read' })
  t.not(readOnly.key, created.key, 'every key is fresh')

  for (const [label, response] of [
    ['org key', await ts.rpc('list_api_keys', {}, created.key)],
    ['org key, include_revoked', await ts.rpc('list_api_keys', { include_revoked: true }, created.key)],
    ['platform key naming the org', await ts.rpc('list_api_keys', { org_id: orgId })],
    ['platform keys', await ts.rpc('list_api_keys', {})],
  ] as const) {
    t.equal(response.statusCode, 200, label)
    const keys = response.json().result as Record<string, unknown>[]
    t.ok(keys.length > 0, `${label}: lists something`)
    for (const key of keys) {
      t.same(Object.keys(key).sort(), LISTED_FIELDS, `${label}: exactly the listed fields (no key, no key_hash)`)
      t.notOk('key' in key || 'key_hash' in key, `${label}: no key or key_hash`)
    }
    for (const secret of [created.key, readOnly.key, ts.platformKey]) {
      t.notOk(response.body.includes(secret), `${label}: no plaintext key anywhere in the body`)
      t.notOk(response.body.includes(sha256(secret)), `${label}: no hash anywhere in the body`)
    }
  }

  const listed = await ts.call<Record<string, any>[]>('list_api_keys', {}, created.key)
  t.same(
    listed.map((k) => ({ ...k, created_at: '' })),
    [
      {
        id: created.id,
        org_id: orgId,
        name: 'Main',
        notes: 'for the agent',
        scopes: 'read,write,jobs',
        key_hint: created.key.slice(0, 10),
        created_by_user_id: 7,
        created_at: '',
        revoked_at: null,
        rate_limit_per_minute: null,
      },
      {
        id: readOnly.id,
        org_id: orgId,
        name: 'Reader',
        notes: '',
        scopes: 'read',
        key_hint: readOnly.key.slice(0, 10),
        created_by_user_id: null,
        created_at: '',
        revoked_at: null,
        rate_limit_per_minute: null,
      },
    ],
  )
  t.ok(listed.every((k) => ISO.test(k.created_at)))
  t.ok(created.key.length > 10 + 20, 'the hint is a small part of the key')

  // The read-only key can read but not write.
  t.equal((await ts.rpc('list_api_keys', {}, readOnly.key)).statusCode, 200)
  expectError(t, await ts.rpc('create_api_key', { name: 'x', scopes: 'read' }, readOnly.key), 403, 'insufficient_scope')
})

t.test('revoke_api_key: at once, idempotent, shown with include_revoked', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const second = await ts.call<{ id: number; key: string }>('create_api_key', { name: 'second', scopes: 'read' }, org.key)
  t.equal((await ts.rpc('get_organization', {}, second.key)).statusCode, 200)

  t.same(await ts.call('revoke_api_key', { key_id: second.id }, org.key), { id: second.id, revoked: true })
  expectError(t, await ts.rpc('get_organization', {}, second.key), 401, 'unauthorized', 'revoked key')

  const before = await eventCount(ts)
  t.same(await ts.call('revoke_api_key', { key_id: second.id }, org.key), { id: second.id, revoked: true }, 'revoking twice is harmless')
  t.equal(await eventCount(ts), before, 'and appends nothing')

  t.same(
    (await ts.call<{ id: number }[]>('list_api_keys', {}, org.key)).map((k) => k.id),
    [org.keyId],
    'revoked keys are not listed',
  )
  const withRevoked = await ts.call<{ id: number; revoked_at: string | null }[]>('list_api_keys', { include_revoked: true }, org.key)
  t.same(
    withRevoked.map((k) => k.id),
    [org.keyId, second.id],
  )
  t.equal(withRevoked[0]!.revoked_at, null)
  t.match(withRevoked[1]!.revoked_at, ISO, 'revoked_at set')

  // A key may revoke itself; it stops working at once.
  t.same(await ts.call('revoke_api_key', { key_id: org.keyId }, org.key), { id: org.keyId, revoked: true })
  expectError(t, await ts.rpc('list_api_keys', {}, org.key), 401, 'unauthorized', 'self-revoked')
})

t.test("revoking another organization's key, or a platform key, answers like a missing key", async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'A')
  const b = await orgWithKey(ts, 'B')
  const platformKeyId = (await ts.call<{ id: number }[]>('list_api_keys', {}))[0]!.id
  const missingId = b.keyId + 1000
  const before = await eventCount(ts)

  const missing = expectError(t, await ts.rpc('revoke_api_key', { key_id: missingId }, a.key), 404, 'not_found', 'missing key')
  t.equal(missing.detail, `api_key ${missingId} not found`)
  for (const [what, id] of [
    ["B's key", b.keyId],
    ['the platform key', platformKeyId],
  ] as const) {
    const body = expectError(t, await ts.rpc('revoke_api_key', { key_id: id }, a.key), 404, 'not_found', what)
    t.same(withoutIds(body, [id]), withoutIds(missing, [missingId]), `${what}: same body as a missing key`)
  }
  // A platform key acting for A is confined to A as well.
  const scoped = expectError(t, await ts.rpc('revoke_api_key', { key_id: b.keyId, org_id: a.orgId }), 404, 'not_found', 'platform for A')
  t.same(withoutIds(scoped, [b.keyId]), withoutIds(missing, [missingId]))
  t.equal(await eventCount(ts), before, 'nothing revoked')
  t.equal((await ts.rpc('get_organization', {}, b.key)).statusCode, 200, "B's key still works")
  t.equal((await ts.rpc('list_api_keys', {})).statusCode, 200, 'the platform key still works')

  // The platform key without org_id may revoke any key.
  await ts.call('revoke_api_key', { key_id: b.keyId })
  expectError(t, await ts.rpc('get_organization', {}, b.key), 401, 'unauthorized')
})

t.test('scopes are validated and stored in canonical form', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const before = await eventCount(ts)
  for (const scopes of ['admin', 'read,admin', '', ' , ', 'READ', 'read;write']) {
    const body = expectError(
      t,
      await ts.rpc('create_api_key', { name: 'bad', scopes }, org.key),
      400,
      'invalid_scopes',
      JSON.stringify(scopes),
    )
    t.match(body.hint ?? '', /read,write,jobs/, `${JSON.stringify(scopes)}: hint lists the scopes`)
  }
  t.equal(await eventCount(ts), before, 'no key created')
  t.equal((await ts.call('create_api_key', { name: 'canon', scopes: ' jobs , read,read ' }, org.key)).scopes, 'read,jobs')
  expectError(t, await ts.rpc('create_api_key', { name: '' }, org.key), 400, 'validation_failed', 'empty name')
})

t.test('asking for a scope the caller lacks answers 403 with a hint naming the scopes the caller may grant', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read,write')
  const writeOnly = await ts.call<{ key: string }>('create_api_key', { name: 'writer', scopes: 'write' }, org.key)
  const before = await eventCount(ts)

  const wider = expectError(
    t,
    await ts.rpc('create_api_key', { name: 'escalate', scopes: 'read,jobs' }, org.key),
    403,
    'forbidden',
    'read,write key asks for jobs',
  )
  t.match(wider.detail ?? '', /not held: jobs/, 'detail names the scope not held')
  t.match(wider.hint ?? '', /read,write/, `hint names what the key may grant (${wider.hint})`)
  const narrow = expectError(
    t,
    await ts.rpc('create_api_key', { name: 'escalate', scopes: 'read,write' }, writeOnly.key),
    403,
    'forbidden',
    'write key asks for read',
  )
  t.match(narrow.detail ?? '', /not held: read/, 'detail names read')
  t.match(narrow.hint ?? '', /\bwrite\b/, `hint names write (${narrow.hint})`)
  t.notMatch(narrow.hint ?? '', /read|jobs/, 'and nothing more')
  t.equal(await eventCount(ts), before, 'no key created')
})
