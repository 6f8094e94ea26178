/**
 * The OAuth domain, pure: redirect-URI rules (registration and matching), role caps on scopes, and the grant
 * aggregate's invariants (single-use code, reuse revokes, rotation, replay of a rotated refresh token revokes,
 * expiry) as given/when/then.
 */
import t from 'tap'
import { checkClientMetadata, oauthClient } from '../../domain/oauth/client.js'
import type { OAuthGrantEvent } from '../../domain/oauth/events.js'
import { oauthGrant } from '../../domain/oauth/grant.js'
import { checkRedirectUri, redirectUriMatches } from '../../domain/oauth/redirect-uri.js'
import { capScopesByRole, parseOAuthScope } from '../../domain/oauth/scopes.js'
import { spec } from './given-when-then.js'

const h = (c: string) => c.repeat(64)
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
const T0 = new Date('2026-03-01T10:00:00.000Z')
const at = (ms: number) => new Date(T0.getTime() + ms)
const MIN = 60_000

t.test('redirect URIs a client may register', async (t) => {
  for (const ok of [
    'https://app.example/cb',
    'https://app.example:8443/cb?x=1',
    'http://127.0.0.1:5555/cb',
    'http://localhost/cb',
    'http://[::1]:9/cb',
  ]) {
    t.ok(checkRedirectUri(ok).ok, `${ok} accepted`)
  }
  for (const [bad, problem] of [
    ['http://app.example/cb', 'scheme'],
    ['https://app.example/cb#frag', 'fragment'],
    ['com.example.app:/cb', 'not_absolute'],
    ['javascript:alert(1)', 'not_absolute'],
    ['/relative', 'not_absolute'],
    ['https://user:pw@app.example/cb', 'credentials'],
    ['ftp://app.example/cb', 'scheme'],
  ] as const) {
    t.equal(checkRedirectUri(bad).problem, problem, `${bad} refused: ${problem}`)
  }
  t.throws(
    () =>
      checkClientMetadata({
        client_name: 'x',
        redirect_uris: ['http://evil.example/cb'],
        client_uri: null,
        logo_uri: null,
        software_id: null,
        software_version: null,
      }),
    { code: 'invalid_redirect_uri' },
  )
  t.throws(
    () =>
      checkClientMetadata({
        client_name: ' ',
        redirect_uris: ['https://a.example/cb'],
        client_uri: null,
        logo_uri: null,
        software_id: null,
        software_version: null,
      }),
    { code: 'invalid_client_metadata' },
  )
})

t.test('redirect URIs are registered only in the form they are matched in', async (t) => {
  // Each of these would be stored raw and later compared byte for byte, or is read differently by another
  // parser (a backslash is '/' to a browser, dot segments are resolved away): refused with a reason.
  for (const [bad, problem] of [
    [' https://app.example/cb', 'whitespace'],
    ['https://app.example/cb\n', 'whitespace'],
    ['https://app.example/cb ', 'whitespace'],
    ['https://app.example/c\r\nb', 'control'],
    ['https://app.example/c\tb', 'control'],
    ['https://app.example/c\u0000b', 'control'],
    ['https://app.example/c\u007fb', 'control'],
    ['https://app.example\\@evil.example/cb', 'backslash'],
    ['https://app.example/a\\b', 'backslash'],
    ['https://app.example/a/../cb', 'dot_segment'],
    ['https://app.example/./cb', 'dot_segment'],
    ['https://app.example/a/%2e%2e/cb', 'dot_segment'],
    ['https://app.example/a/.%2E', 'dot_segment'],
    ['http://127.0.0.1:5555/..', 'dot_segment'],
    ['https://APP.example/cb', 'not_canonical'],
    ['https://app.example', 'not_canonical'],
    ['https://app.example:443/cb', 'not_canonical'],
    ['https://app.example/a b', 'not_canonical'],
    ['https://bücher.example/cb', 'not_canonical'],
  ] as const) {
    const verdict = checkRedirectUri(bad)
    t.equal(verdict.ok, false, `${JSON.stringify(bad)} refused`)
    t.equal(verdict.problem, problem, `${JSON.stringify(bad)}: ${problem}`)
    t.type(verdict.reason, 'string')
  }
  for (const ok of [
    'https://app.example/cb/..x/.well',
    'https://app.example/a.b/c',
    'https://app.example/cb?next=/../x',
    'https://xn--bcher-kva.example/cb',
    'https://app.example/a%20b',
  ]) {
    t.ok(checkRedirectUri(ok).ok, `${ok} accepted: no dot segment in the path, canonical`)
  }
})

t.test('client_name: no bidi controls or other control characters', async (t) => {
  const metadata = (client_name: string) => ({
    client_name,
    redirect_uris: ['https://a.example/cb'],
    client_uri: null,
    logo_uri: null,
    software_id: null,
    software_version: null,
  })
  for (const [name, why] of [
    ['Good App\u202Egnp.exe', 'right-to-left override'],
    ['Good\u202A App', 'left-to-right embedding'],
    ['Good\u202B App', 'right-to-left embedding'],
    ['Good\u202C App', 'pop directional formatting'],
    ['Good\u202D App', 'left-to-right override'],
    ['Good\u2066 App', 'left-to-right isolate'],
    ['Good\u2067 App', 'right-to-left isolate'],
    ['Good\u2068 App', 'first strong isolate'],
    ['Good\u2069 App', 'pop directional isolate'],
    ['Good\u200E App', 'left-to-right mark'],
    ['Good\u200F App', 'right-to-left mark'],
    ['Good\u061C App', 'Arabic letter mark'],
    ['Good\nApp', 'a newline'],
    ['Good\u0000App', 'NUL'],
    ['Good\u0085App', 'a C1 control'],
    ['Good\u007fApp', 'DEL'],
  ] as const) {
    t.throws(() => checkClientMetadata(metadata(name)), { code: 'invalid_client_metadata', detail: /client_name/ }, why)
  }
  t.doesNotThrow(() => checkClientMetadata(metadata('Claude Desktop – 日本語 عربي')), 'letters of any script are fine')
})

t.test('redirect URI matching: exact, except the port of an http loopback URI', async (t) => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1:5555/cb']
  t.ok(redirectUriMatches(registered, 'https://app.example/cb'))
  t.notOk(redirectUriMatches(registered, 'https://app.example/cb/'), 'trailing slash')
  t.notOk(redirectUriMatches(registered, 'https://app.example:444/cb'), 'another port on https')
  t.notOk(redirectUriMatches(registered, 'https://APP.example/cb'), 'not normalized: exact string')
  t.notOk(redirectUriMatches(registered, 'https://app.example/cb?x=1'), 'added query')
  t.notOk(redirectUriMatches(registered, 'https://app.example/cb#f'), 'fragment')
  t.notOk(redirectUriMatches(registered, 'http://app.example/cb'), 'http, not loopback')
  t.ok(redirectUriMatches(registered, 'http://127.0.0.1:61234/cb'), 'loopback: any port')
  t.ok(redirectUriMatches(registered, 'http://127.0.0.1/cb'), 'loopback: no port')
  t.notOk(redirectUriMatches(registered, 'http://127.0.0.1:61234/cb/'), 'loopback: path still exact')
  t.notOk(redirectUriMatches(registered, 'http://localhost:61234/cb'), 'loopback: host still exact')
  t.notOk(redirectUriMatches(registered, 'http://127.0.0.1:61234/other'), 'loopback: other path')
  t.notOk(redirectUriMatches(registered, 'http://127.0.0.1:61234@evil.example/cb'), 'userinfo trick')
})

t.test('scopes: parsing and the cap by role', async (t) => {
  t.same(parseOAuthScope('offline_access write read read'), ['read', 'write', 'offline_access'])
  t.throws(() => parseOAuthScope('read admin'), { code: 'invalid_scope' })
  t.throws(() => parseOAuthScope(''), { code: 'invalid_scope' })
  t.same(capScopesByRole(['read', 'write', 'jobs', 'offline_access'], 'owner').granted, ['read', 'write', 'jobs', 'offline_access'])
  t.same(capScopesByRole(['read', 'jobs'], 'web_builder'), { granted: ['read'], withheld: ['jobs'] })
  t.throws(() => capScopesByRole(['read'], 'viewer'), { code: 'access_denied' })
  t.throws(() => capScopesByRole(['jobs', 'offline_access'], 'web_builder'), { code: 'access_denied' })
})

t.test('a client registers once', async (t) => {
  const metadata = {
    client_name: 'App',
    redirect_uris: ['https://a.example/cb'],
    client_uri: null,
    logo_uri: null,
    software_id: null,
    software_version: null,
  }
  const registered = spec(oauthClient)()
    .when({ type: 'RegisterOAuthClient', client_id: 3, metadata })
    .then(t, [
      {
        type: 'OAuthClientRegistered',
        data: {
          client_id: 3,
          client_name: 'App',
          redirect_uris: ['https://a.example/cb'],
          token_endpoint_auth_method: 'none',
          client_uri: null,
          logo_uri: null,
          software_id: null,
          software_version: null,
        },
      },
    ])
  spec(oauthClient)(...registered)
    .when({ type: 'RegisterOAuthClient', client_id: 3, metadata })
    .thenThrows(t, 'already_exists')
})

const approved: OAuthGrantEvent = {
  type: 'OAuthGrantApproved',
  data: {
    grant_id: 7,
    org_id: 1,
    user_id: 2,
    client_id: 3,
    scopes: ['read', 'offline_access'],
    resource: null,
    redirect_uri: 'https://a.example/cb',
    code_hash: h('c'),
    code_challenge: CHALLENGE,
    code_expires_at: at(10 * MIN).toISOString(),
  },
}
const exchange = (over: Record<string, unknown> = {}) =>
  ({
    type: 'ExchangeOAuthCode',
    grant_id: 7,
    client_id: 3,
    redirect_uri: 'https://a.example/cb',
    code_hash: h('c'),
    verifier_challenge: CHALLENGE,
    now: at(MIN),
    access_token_hash: h('a'),
    refresh_token_hash: h('1'),
    ...over,
  }) as const
const exchanged: OAuthGrantEvent = {
  type: 'OAuthCodeExchanged',
  data: {
    grant_id: 7,
    access_token_hash: h('a'),
    access_expires_at: at(61 * MIN).toISOString(),
    refresh_token_hash: h('1'),
    refresh_expires_at: at(MIN + 30 * 24 * 60 * MIN).toISOString(),
  },
}
const refresh = (presented: string, over: Record<string, unknown> = {}) =>
  ({
    type: 'RefreshOAuthTokens',
    grant_id: 7,
    client_id: 3,
    presented_refresh_hash: presented,
    now: at(2 * MIN),
    access_token_hash: h('b'),
    refresh_token_hash: h('2'),
    ...over,
  }) as const
const refreshed: OAuthGrantEvent = {
  type: 'OAuthTokensRefreshed',
  data: {
    grant_id: 7,
    generation: 2,
    previous_refresh_hash: h('1'),
    access_token_hash: h('b'),
    access_expires_at: at(62 * MIN).toISOString(),
    refresh_token_hash: h('2'),
    refresh_expires_at: at(2 * MIN + 30 * 24 * 60 * MIN).toISOString(),
  },
}

t.test('approval records the code with a 10-minute expiry', async (t) => {
  const { code_expires_at: _e, ...data } = approved.data
  spec(oauthGrant)()
    .when({ type: 'ApproveOAuthGrant', ...data, scopes: [...data.scopes], now: T0 })
    .then(t, [approved])
})

t.test('code exchange: the checks, in order', async (t) => {
  const g = spec(oauthGrant)
  g(approved).when(exchange()).then(t, [exchanged])
  g(approved)
    .when(exchange({ code_hash: h('5') }))
    .thenThrows(t, 'invalid_grant', { detail: 'unknown authorization code' })
  g(approved)
    .when(exchange({ client_id: 4 }))
    .thenThrows(t, 'invalid_grant', { detail: 'the code was issued to another client' })
  g(approved)
    .when(exchange({ redirect_uri: 'https://a.example/cb/' }))
    .thenThrows(t, 'invalid_grant', { detail: 'redirect_uri differs from the authorization request' })
  g(approved)
    .when(exchange({ now: at(10 * MIN) }))
    .thenThrows(t, 'invalid_grant', { detail: 'the authorization code expired' })
  g(approved)
    .when(exchange({ verifier_challenge: 'x'.repeat(43) }))
    .thenThrows(t, 'invalid_grant', { detail: 'code_verifier does not match the code_challenge' })
  // Reuse revokes, whatever else the replay gets wrong (another client, a wrong verifier).
  g(approved, exchanged)
    .when(exchange({ client_id: 4, verifier_challenge: 'y'.repeat(43) }))
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grant_id: 7, reason: 'code_reused' } }])
  g(approved, exchanged, { type: 'OAuthGrantRevoked', data: { grant_id: 7, reason: 'code_reused' } })
    .when(exchange())
    .thenThrows(t, 'invalid_grant', { detail: 'the grant was revoked' })
  // Without offline_access: no refresh token.
  const online: OAuthGrantEvent = { type: 'OAuthGrantApproved', data: { ...approved.data, scopes: ['read'] } }
  g(online)
    .when(exchange())
    .then(t, [{ type: 'OAuthCodeExchanged', data: { ...exchanged.data, refresh_token_hash: null, refresh_expires_at: null } }])
})

t.test('refresh: rotation, replay revokes the grant, expiry slides', async (t) => {
  const g = spec(oauthGrant)
  g(approved, exchanged)
    .when(refresh(h('1')))
    .then(t, [refreshed])
  g(approved, exchanged, refreshed)
    .when(refresh(h('1')))
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grant_id: 7, reason: 'refresh_token_reused' } }])
  g(approved, exchanged)
    .when(refresh(h('9')))
    .thenThrows(t, 'invalid_grant', { detail: 'unknown refresh token' })
  g(approved, exchanged)
    .when(refresh(h('1'), { client_id: 9 }))
    .thenThrows(t, 'invalid_grant')
  g(approved, exchanged)
    .when(refresh(h('1'), { now: at(MIN + 30 * 24 * 60 * MIN) }))
    .thenThrows(t, 'invalid_grant', { detail: 'the refresh token expired' })
  // Sliding: the rotated token lives 30 days from its own issue.
  g(approved, exchanged, refreshed)
    .when(refresh(h('2'), { now: at(29 * 24 * 60 * MIN + 10 * MIN), access_token_hash: h('d'), refresh_token_hash: h('3') }))
    .then(t, [
      {
        type: 'OAuthTokensRefreshed',
        data: {
          grant_id: 7,
          generation: 3,
          previous_refresh_hash: h('2'),
          access_token_hash: h('d'),
          access_expires_at: at(29 * 24 * 60 * MIN + 70 * MIN).toISOString(),
          refresh_token_hash: h('3'),
          refresh_expires_at: at(59 * 24 * 60 * MIN + 10 * MIN).toISOString(),
        },
      },
    ])
})

t.test('revocation: by token (RFC 7009) and by the grant owner', async (t) => {
  const g = spec(oauthGrant)
  const revoked = { type: 'OAuthGrantRevoked', data: { grant_id: 7, reason: 'token_revoked' } } as const
  g(approved, exchanged)
    .when({ type: 'RevokeOAuthToken', grant_id: 7, token_hash: h('a') })
    .then(t, [revoked])
  g(approved, exchanged)
    .when({ type: 'RevokeOAuthToken', grant_id: 7, token_hash: h('1') })
    .then(t, [revoked])
  g(approved, exchanged)
    .when({ type: 'RevokeOAuthToken', grant_id: 7, token_hash: h('4') })
    .thenNothingHappens(t)
  g()
    .when({ type: 'RevokeOAuthToken', grant_id: 7, token_hash: h('a') })
    .thenNothingHappens(t)
  g(approved, exchanged, revoked)
    .when({ type: 'RevokeOAuthToken', grant_id: 7, token_hash: h('a') })
    .thenNothingHappens(t)
  g(approved)
    .when({ type: 'RevokeOAuthGrant', grant_id: 7, revoker: { orgId: 1, userId: null } })
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grant_id: 7, reason: 'revoked' } }])
  g(approved)
    .when({ type: 'RevokeOAuthGrant', grant_id: 7, revoker: { orgId: 2, userId: null } })
    .thenThrows(t, 'not_found')
  g(approved)
    .when({ type: 'RevokeOAuthGrant', grant_id: 7, revoker: { orgId: 1, userId: 5 } })
    .thenThrows(t, 'not_found')
  g()
    .when({ type: 'RevokeOAuthGrant', grant_id: 7, revoker: { orgId: null, userId: null } })
    .thenThrows(t, 'not_found')
})
