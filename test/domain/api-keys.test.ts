import fc from 'fast-check'
import t from 'tap'
import { apiKey, apiKeyStream, type ApiKeyCommand, type KeyCreator } from '../../domain/api-keys/api-key.js'
import type { ApiKeyEvent } from '../../domain/api-keys/events.js'
import { DEFAULT_SCOPES, formatScopes, parseScopes, SCOPES, type Scope } from '../../domain/api-keys/scopes.js'
import { fold } from '../../domain/shared/aggregate.js'
import { DomainError, NotFoundError } from '../../domain/shared/errors.js'
import { attempt, schemaProblem, spec } from './given-when-then.js'

const ORG = 7
const OTHER_ORG = 8
const KEY = 9
const HASH = 'ab'.repeat(32)
const ALL: Scope[] = ['read', 'write', 'jobs']

const given = spec(apiKey)

type Create = Extract<ApiKeyCommand, { type: 'CreateApiKey' }>

const orgCreator = (scopes: Scope[] = ALL, orgId = ORG): KeyCreator => ({ orgId, scopes })
const platformCreator = (scopes: Scope[] = ALL): KeyCreator => ({ orgId: null, scopes })

const createKey = (fields: Partial<Omit<Create, 'type'>> = {}): Create => ({
  type: 'CreateApiKey',
  key_id: KEY,
  org_id: ORG,
  name: 'CI key',
  notes: 'used by the deploy pipeline',
  scopes: ['read'],
  key_hash: HASH,
  key_hint: 'rrk_AbCdEf',
  created_by_user_id: 3,
  creator: orgCreator(),
  ...fields,
})

const keyCreated = (fields: Partial<Extract<ApiKeyEvent, { type: 'ApiKeyCreated' }>['data']> = {}): ApiKeyEvent => ({
  type: 'ApiKeyCreated',
  data: {
    key_id: KEY,
    org_id: ORG,
    name: 'CI key',
    notes: 'used by the deploy pipeline',
    scopes: ['read'],
    key_hash: HASH,
    key_hint: 'rrk_AbCdEf',
    created_by_user_id: 3,
    ...fields,
  },
})

const keyRevoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: KEY } }
const revoke = (caller_org_id: number | null): ApiKeyCommand => ({ type: 'RevokeApiKey', key_id: KEY, caller_org_id })

t.test('the stream of a key is api_key-<id>', async (t) => {
  t.equal(apiKeyStream(9), 'api_key-9')
})

t.test('CreateApiKey', async (t) => {
  t.test('an org creator makes a key for its own organization; the event carries neither type nor creator', async (t) => {
    const [event] = given().when(createKey()).then(t, [keyCreated()])
    t.notOk(event && 'creator' in event.data, 'the creator stays out of the log')
  })

  t.test('an org creator may grant any subset of its own scopes', async (t) => {
    given()
      .when(createKey({ scopes: ['read', 'jobs'], creator: orgCreator(['read', 'write', 'jobs']) }))
      .then(t, [keyCreated({ scopes: ['read', 'jobs'] })])
    given()
      .when(createKey({ scopes: ['read', 'write'], creator: orgCreator(['read', 'write']) }))
      .then(t, [keyCreated({ scopes: ['read', 'write'] })])
  })

  t.test('an org creator cannot make a key for another organization', async (t) => {
    given()
      .when(createKey({ org_id: OTHER_ORG }))
      .thenThrows(t, 'forbidden', { message: 'An organization key can only create keys for its own organization' })
  })

  t.test('an org creator cannot make a platform key (org_id null)', async (t) => {
    given()
      .when(createKey({ org_id: null }))
      .thenThrows(t, 'forbidden', { message: 'An organization key can only create keys for its own organization' })
  })

  t.test('no key can grant scopes it does not hold; the detail names them', async (t) => {
    given()
      .when(createKey({ scopes: ['read', 'write', 'jobs'], creator: orgCreator(['read']) }))
      .thenThrows(t, 'forbidden', { message: 'A key cannot grant scopes it does not hold', detail: 'not held: write, jobs' })
    given()
      .when(createKey({ org_id: null, scopes: ['jobs'], creator: platformCreator(['read', 'write']) }))
      .thenThrows(t, 'forbidden', { detail: 'not held: jobs' })
  })

  t.test('the organization is checked before the scopes', async (t) => {
    given()
      .when(createKey({ org_id: OTHER_ORG, scopes: ['write'], creator: orgCreator(['read']) }))
      .thenThrows(t, 'forbidden', { message: 'An organization key can only create keys for its own organization' })
  })

  t.test('a platform creator makes platform keys and keys of any organization', async (t) => {
    given()
      .when(createKey({ org_id: null, creator: platformCreator() }))
      .then(t, [keyCreated({ org_id: null })])
    given()
      .when(createKey({ org_id: OTHER_ORG, scopes: ALL, creator: platformCreator() }))
      .then(t, [keyCreated({ org_id: OTHER_ORG, scopes: ALL })])
    given()
      .when(createKey({ org_id: null, created_by_user_id: null, creator: platformCreator() }))
      .then(t, [keyCreated({ org_id: null, created_by_user_id: null })])
  })

  t.test('an existing key: already_exists, even for a revoked one', async (t) => {
    given(keyCreated())
      .when(createKey())
      .thenThrows(t, 'already_exists', { detail: `api_key ${KEY}` })
    given(keyCreated(), keyRevoked).when(createKey()).thenThrows(t, 'already_exists')
  })

  t.test('a key with no scopes is refused rather than recorded as an event its schema rejects', async (t) => {
    given()
      .when(createKey({ scopes: [] }))
      .thenThrows(t, 'invalid_scopes')
  })

  t.test('the folded state is the key as created', async (t) => {
    t.strictSame(fold(apiKey, [keyCreated()]), { exists: true, orgId: ORG, revoked: false, rateLimitPerMinute: null })
    t.strictSame(fold(apiKey, [keyCreated({ org_id: null })]), { exists: true, orgId: null, revoked: false, rateLimitPerMinute: null })
    t.strictSame(fold(apiKey, [keyCreated(), keyRevoked]), { exists: true, orgId: ORG, revoked: true, rateLimitPerMinute: null })
  })
})

t.test('RevokeApiKey', async (t) => {
  t.test('the owning organization revokes its key', async (t) => {
    given(keyCreated()).when(revoke(ORG)).then(t, [keyRevoked])
  })

  t.test('the platform revokes any key, org or platform', async (t) => {
    given(keyCreated()).when(revoke(null)).then(t, [keyRevoked])
    given(keyCreated({ org_id: null }))
      .when(revoke(null))
      .then(t, [keyRevoked])
  })

  t.test('already revoked: nothing', async (t) => {
    given(keyCreated(), keyRevoked).when(revoke(ORG)).thenNothingHappens(t)
    given(keyCreated(), keyRevoked).when(revoke(null)).thenNothingHappens(t)
  })

  t.test("another organization's key, or a platform key, answers exactly like a missing one", async (t) => {
    const expected = new NotFoundError('api_key', KEY)
    const want = { message: expected.message, detail: expected.detail }
    const missing = given().when(revoke(ORG)).thenThrows(t, 'not_found', want)
    const foreign = given(keyCreated({ org_id: OTHER_ORG }))
      .when(revoke(ORG))
      .thenThrows(t, 'not_found', want)
    const platformKey = given(keyCreated({ org_id: null }))
      .when(revoke(ORG))
      .thenThrows(t, 'not_found', want)
    // Revoked or not must not show through either.
    const foreignRevoked = given(keyCreated({ org_id: OTHER_ORG }), keyRevoked)
      .when(revoke(ORG))
      .thenThrows(t, 'not_found', want)
    const shape = (e: DomainError | undefined) => e && { name: e.name, code: e.code, message: e.message, detail: e.detail }
    t.strictSame(shape(foreign), shape(missing))
    t.strictSame(shape(platformKey), shape(missing))
    t.strictSame(shape(foreignRevoked), shape(missing))
  })

  t.test('a missing key is not_found for the platform too', async (t) => {
    given()
      .when(revoke(null))
      .thenThrows(t, 'not_found', { detail: `api_key ${KEY} not found` })
  })
})

t.test('SetApiKeyRateLimit', async (t) => {
  const setLimit = (per_minute: number | null): ApiKeyCommand => ({ type: 'SetApiKeyRateLimit', key_id: KEY, per_minute })
  const limitSet = (per_minute: number | null): ApiKeyEvent => ({ type: 'ApiKeyRateLimitSet', data: { key_id: KEY, per_minute } })

  t.test('sets, changes and clears the limit; the state remembers it', async (t) => {
    given(keyCreated())
      .when(setLimit(120))
      .then(t, [limitSet(120)])
    given(keyCreated(), limitSet(120))
      .when(setLimit(30))
      .then(t, [limitSet(30)])
    given(keyCreated(), limitSet(120))
      .when(setLimit(null))
      .then(t, [limitSet(null)])
    t.equal(fold(apiKey, [keyCreated(), limitSet(120)]).rateLimitPerMinute, 120)
    t.equal(fold(apiKey, [keyCreated(), limitSet(120), limitSet(null)]).rateLimitPerMinute, null)
  })

  t.test('the same limit again changes nothing', async (t) => {
    given(keyCreated(), limitSet(120)).when(setLimit(120)).thenNothingHappens(t)
    given(keyCreated()).when(setLimit(null)).thenNothingHappens(t)
  })

  t.test('a missing key is not_found; a revoked one cannot be changed', async (t) => {
    given()
      .when(setLimit(10))
      .thenThrows(t, 'not_found', { detail: `api_key ${KEY} not found` })
    given(keyCreated(), keyRevoked).when(setLimit(10)).thenThrows(t, 'api_key_revoked')
  })
})

t.test('CreateApiKey over any creator and request: forbidden exactly when the rules say, else one valid event', async (t) => {
  const scopeSet = fc.subarray(ALL, { minLength: 1 })
  const orgChoice = fc.constantFrom<number | null>(ORG, OTHER_ORG, null)
  fc.assert(
    fc.property(orgChoice, scopeSet, orgChoice, scopeSet, (creatorOrg, creatorScopes, keyOrg, keyScopes) => {
      const command = createKey({ org_id: keyOrg, scopes: keyScopes, creator: { orgId: creatorOrg, scopes: creatorScopes } })
      const outcome = attempt(() => apiKey.decide(command, apiKey.initialState()))
      const crossOrg = creatorOrg !== null && keyOrg !== creatorOrg
      const escalates = keyScopes.some((s) => !creatorScopes.includes(s))
      if (crossOrg || escalates) {
        return 'error' in outcome && outcome.error.code === 'forbidden'
      }
      if ('error' in outcome) return false
      const [event] = outcome.events
      return (
        outcome.events.length === 1 &&
        event !== undefined &&
        schemaProblem(event) === null &&
        event.type === 'ApiKeyCreated' &&
        event.data.org_id === keyOrg
      )
    }),
    { numRuns: 300 },
  )
  t.pass('the rule holds for every creator, organization and scope set tried')
})

t.test('parseScopes', async (t) => {
  t.test('canonical order whatever the caller typed', async (t) => {
    t.strictSame(parseScopes('jobs,write,read'), ['read', 'write', 'jobs'])
    t.strictSame(parseScopes('write,read'), ['read', 'write'])
    t.strictSame(parseScopes('jobs'), ['jobs'])
  })

  t.test('duplicates and surrounding whitespace collapse; empty parts are ignored', async (t) => {
    t.strictSame(parseScopes('read,read, read '), ['read'])
    t.strictSame(parseScopes(' jobs , read,,jobs,'), ['read', 'jobs'])
  })

  t.test('the default is every scope', async (t) => {
    t.strictSame(parseScopes(DEFAULT_SCOPES), [...SCOPES])
    t.equal(formatScopes(parseScopes(DEFAULT_SCOPES)), DEFAULT_SCOPES)
  })

  t.test('unknown scopes are refused and named; scopes are case-sensitive', async (t) => {
    const error = thrown(() => parseScopes('read,admin,offline_access'))
    t.equal(error?.code, 'invalid_scopes')
    t.equal(error?.message, 'Unknown scope')
    t.equal(error?.detail, 'unknown: admin, offline_access; allowed: read, write, jobs')
    t.equal(thrown(() => parseScopes('READ'))?.code, 'invalid_scopes')
  })

  t.test('empty is refused', async (t) => {
    for (const text of ['', '   ', ',', ' , ,, ']) {
      const error = thrown(() => parseScopes(text))
      t.equal(error?.code, 'invalid_scopes', JSON.stringify(text))
      t.equal(error?.message, 'At least one scope is required')
    }
  })

  t.test('parse ∘ format is the identity on canonical scope lists, and parse is idempotent', async (t) => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SCOPES), { minLength: 1, maxLength: 8 }), (typed) => {
        const parsed = parseScopes(typed.join(','))
        const canonical = SCOPES.filter((s) => typed.includes(s))
        return (
          JSON.stringify(parsed) === JSON.stringify(canonical) &&
          JSON.stringify(parseScopes(formatScopes(parsed))) === JSON.stringify(parsed)
        )
      }),
    )
    t.pass('holds')
  })
})

function thrown(fn: () => unknown): DomainError | undefined {
  try {
    fn()
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  return undefined
}
