/**
 * The OAuth 2.0 authorization server over HTTP, with real members signed in through the real pages:
 * discovery, registration (good and bad redirect URIs), the authorize checks (which errors are pages and
 * which are redirects; PKCE missing, plain or wrong; redirect-URI variants), consent with CSRF, the code
 * exchange, refresh rotation, replay of a rotated refresh token and reuse of a code (both revoke the grant),
 * expiry on an injected clock, revocation (RFC 7009), roles (viewers refused, caps), and tokens on RPCs and
 * MCP confined to their organization.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey, streamEvents } from './helpers.js'
import {
  authorizeUrl,
  bearer,
  codeFlow,
  consent,
  pkce,
  redirectParams,
  register,
  registerClient,
  signedInMember,
  tokenRequest,
  type Clock,
} from './oauth-support.js'
import { Browser } from './people-support.js'

const clock: Clock = { now: Date.parse('2026-11-25T12:00:00.000Z') }
const ts = await startTestSystem(t, { clock: () => new Date(clock.now) })
const acme = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const owner = await signedInMember(ts, clock, acme.key, 'owner@acme.example', 'owner')
const otherOwner = await signedInMember(ts, clock, other.key, 'owner@other.example', 'owner')
const clientId = await registerClient(ts, ['https://app.example/callback', 'http://127.0.0.1:7777/cb'])
const secrets: string[] = []

const rpcWith = (token: string, method: string, body: unknown = {}) =>
  ts.app.inject({
    method: 'POST',
    url: `/api/v1/rpc/${method}`,
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })

t.test('discovery: RFC 8414 metadata and the RFC 9728 document naming it', async (t) => {
  const meta = await ts.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'rr.example' } })
  t.equal(meta.statusCode, 200)
  const m = meta.json()
  // Not listening and no BASE_URL: http://localhost, whatever the Host header says (host-header.test.ts).
  t.equal(m.issuer, 'http://localhost')
  t.equal(m.authorization_endpoint, 'http://localhost/oauth/authorize')
  t.equal(m.token_endpoint, 'http://localhost/oauth/token')
  t.equal(m.registration_endpoint, 'http://localhost/oauth/register')
  t.equal(m.revocation_endpoint, 'http://localhost/oauth/revoke')
  t.same(m.code_challenge_methods_supported, ['S256'])
  t.same(m.grant_types_supported, ['authorization_code', 'refresh_token'])
  t.same(m.response_types_supported, ['code'])
  t.same(m.token_endpoint_auth_methods_supported, ['none'])
  t.same(m.scopes_supported, ['read', 'write', 'jobs', 'offline_access'])
  const pr = (
    await ts.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/api/v1/mcp', headers: { host: 'rr.example' } })
  ).json()
  t.same(pr.authorization_servers, [m.issuer], 'the protected resource names this authorization server')
})

t.test('registration: public clients with https or loopback redirect URIs; RFC 7591 errors', async (t) => {
  const ok = await register(ts, {
    client_name: 'Native',
    redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'https://a.example/cb'],
  })
  t.equal(ok.statusCode, 201)
  const body = ok.json()
  t.match(body, { client_id: /^\d+$/, client_name: 'Native', token_endpoint_auth_method: 'none', response_types: ['code'] })
  t.equal(ok.headers['cache-control'], 'no-store')
  for (const [uris, why] of [
    [['http://app.example/cb'], 'http on a public host'],
    [['https://app.example/cb#x'], 'a fragment'],
    [['myapp://cb'], 'a custom scheme'],
    [['/cb'], 'a relative URI'],
    [[], 'none at all'],
    [[' https://app.example/cb'], 'a leading space'],
    [['https://app.example/cb\n'], 'a trailing newline'],
    [['https://app.example/c\r\nb'], 'CR/LF inside'],
    [['https://app.example\\@evil.example/cb'], 'a backslash'],
    [['https://app.example/a/../cb'], 'dot segments'],
    [['https://APP.example/cb'], 'not in the form URL parsing gives it'],
  ] as const) {
    const bad = await register(ts, { client_name: 'Bad', redirect_uris: uris })
    t.equal(bad.statusCode, 400, why)
    t.equal(bad.json().error, 'invalid_redirect_uri', `${why}: invalid_redirect_uri`)
    t.type(bad.json().error_description, 'string')
  }
  for (const [extra, why] of [
    [{ token_endpoint_auth_method: 'client_secret_basic' }, 'a confidential client'],
    [{ grant_types: ['client_credentials'] }, 'client credentials'],
    [{ grant_types: ['implicit'] }, 'implicit'],
    [{ response_types: ['token'] }, 'response type token'],
    [{ client_name: 42 }, 'a non-string name'],
    [{ client_name: 'Good App\u202Egnp.exe' }, 'a right-to-left override in the name'],
    [{ client_name: 'Good\u2066App' }, 'a bidi isolate in the name'],
    [{ client_name: 'Good\r\nApp' }, 'a control character in the name'],
  ] as const) {
    const bad = await register(ts, { client_name: 'Bad', redirect_uris: ['https://a.example/cb'], ...extra })
    t.equal(bad.statusCode, 400, `${why}: 400`)
    t.equal(bad.json().error, 'invalid_client_metadata', why)
    t.type(bad.json().error_description, 'string', `${why}: described`)
  }
})

t.test('authorize: errors before the redirect URI is trusted are pages, never redirects', async (t) => {
  const { challenge } = pkce()
  const base = {
    response_type: 'code',
    client_id: clientId,
    scope: 'read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }
  for (const [params, why] of [
    [{ ...base, client_id: '999999', redirect_uri: 'https://app.example/callback' }, 'unknown client'],
    [{ ...base, client_id: undefined, redirect_uri: 'https://app.example/callback' }, 'no client_id'],
    [{ ...base, redirect_uri: undefined }, 'no redirect_uri'],
    [{ ...base, redirect_uri: 'https://app.example/callback/' }, 'trailing slash'],
    [{ ...base, redirect_uri: 'https://app.example:8443/callback' }, 'another port on https'],
    [{ ...base, redirect_uri: 'http://app.example/callback' }, 'http, not loopback'],
    [{ ...base, redirect_uri: 'https://app.example/callback#frag' }, 'a fragment'],
    [{ ...base, redirect_uri: 'https://evil.example/callback' }, 'another host'],
    [{ ...base, redirect_uri: 'http://127.0.0.1:7777/cb/' }, 'loopback, other path'],
  ] as const) {
    const response = await owner.browser.get(authorizeUrl(params as Record<string, string | undefined>))
    t.equal(response.statusCode, 400, `${why}: 400`)
    t.notOk(response.headers.location, `${why}: no redirect`)
    t.match(response.headers['content-type'], /text\/html/, `${why}: a page`)
  }
  // Loopback: any port (RFC 8252 section 7.3).
  const loop = await owner.browser.get(authorizeUrl({ ...base, redirect_uri: 'http://127.0.0.1:51234/cb' }))
  t.equal(loop.statusCode, 200, 'loopback with another port: the consent page')
})

t.test('authorize: later errors are redirected with error=, state and iss; PKCE S256 is required', async (t) => {
  const { challenge } = pkce()
  const base = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example/callback',
    scope: 'read',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }
  for (const [params, error, why] of [
    [{ ...base, code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request', 'no PKCE'],
    [{ ...base, code_challenge_method: undefined }, 'invalid_request', 'no method (plain by default)'],
    [{ ...base, code_challenge_method: 'plain' }, 'invalid_request', 'plain'],
    [{ ...base, code_challenge: 'short' }, 'invalid_request', 'a malformed challenge'],
    [{ ...base, response_type: 'token' }, 'unsupported_response_type', 'implicit'],
    [{ ...base, scope: 'read admin' }, 'invalid_scope', 'unknown scope'],
    [{ ...base, scope: undefined }, 'invalid_scope', 'no scope'],
    [{ ...base, resource: 'https://elsewhere.example/' }, 'invalid_target', 'a foreign resource'],
  ] as const) {
    const response = await owner.browser.get(authorizeUrl(params as Record<string, string | undefined>))
    t.equal(response.statusCode, 303, `${why}: redirected`)
    const q = redirectParams(response)
    t.equal(String(response.headers.location).split('?')[0], 'https://app.example/callback', `${why}: to the registered URI`)
    t.equal(q.get('error'), error, `${why}: ${error}`)
    t.equal(q.get('state'), 'xyz', `${why}: state echoed`)
    t.ok(q.get('iss'), `${why}: iss (RFC 9207)`)
    t.notOk(q.get('code'), `${why}: no code`)
  }
  const repeated = await owner.browser.get(`${authorizeUrl(base)}&scope=write`)
  t.equal(redirectParams(repeated).get('error'), 'invalid_request', 'a repeated parameter')
})

t.test('authorize: not signed in → /login?return_to=…; consent names the app and scopes; CSRF; deny', async (t) => {
  const { challenge } = pkce()
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example/callback',
    scope: 'read jobs',
    state: 'q',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }
  const anonymous = await new Browser(ts.app).get(authorizeUrl(params))
  t.equal(anonymous.statusCode, 303)
  t.equal(anonymous.headers.location, `/login?return_to=${encodeURIComponent(authorizeUrl(params))}`)

  const page = await owner.browser.get(authorizeUrl(params))
  t.equal(page.statusCode, 200)
  t.match(page.body, /Test App/, 'names the app')
  t.match(page.body, /Acme/, 'names the organization')
  t.match(page.body, /<strong>read<\/strong>/)
  t.match(page.body, /<strong>jobs<\/strong>/)
  t.match(page.body, /app\.example/, 'names where it sends the member back')
  t.equal(page.headers['x-frame-options'], 'DENY', 'not framable')
  t.equal(page.headers['cache-control'], 'no-store')

  const forged = await owner.browser.post('/oauth/authorize', { ...params, decision: 'approve' }, 'not-the-token')
  t.equal(forged.statusCode, 403, 'a POST without the CSRF token is refused')
  const missing = await owner.browser.post('/oauth/authorize', { ...params, decision: 'approve' }, null)
  t.equal(missing.statusCode, 403, 'and one with none at all')

  const { answer } = await consent(owner.browser, params, 'deny')
  t.equal(answer.statusCode, 303)
  t.equal(redirectParams(answer).get('error'), 'access_denied')
  t.equal(redirectParams(answer).get('state'), 'q')
})

t.test('code flow, token on RPCs and MCP within its organization, refresh rotation, replay revokes', async (t) => {
  const flow = await codeFlow(ts, owner.browser, clientId, { scope: 'read offline_access' })
  t.equal(flow.tokens.statusCode, 200)
  t.equal(flow.tokens.headers['cache-control'], 'no-store')
  const tokens = flow.tokens.json()
  t.match(tokens, { access_token: /^rro_/, refresh_token: /^rrr_/, token_type: 'Bearer', expires_in: 3600, scope: 'read offline_access' })
  secrets.push(flow.code, tokens.access_token, tokens.refresh_token)

  const org = await rpcWith(tokens.access_token, 'get_organization')
  t.equal(org.statusCode, 200, 'the token calls an RPC')
  t.equal(org.json().result.name, 'Acme', 'injected organization: the grant’s')
  const foreign = await rpcWith(tokens.access_token, 'get_organization', { org_id: other.orgId })
  t.equal(foreign.statusCode, 404, 'another organization answers like a missing one')
  const write = await rpcWith(tokens.access_token, 'add_client', { client: { name: 'X' } })
  t.equal(write.statusCode, 403)
  t.equal(write.json().code, 'insufficient_scope')
  t.match(String(write.headers['www-authenticate']), /error="insufficient_scope", scope="write"/, 'names the scope to re-consent for')
  t.match(
    write.json(),
    { detail: /the token has read/, hint: /Authorize the app again with the write scope/ },
    'the hint speaks to a token holder, not a key holder',
  )

  const mcp = (body: unknown, token = tokens.access_token) =>
    ts.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { ...bearer(token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify(body),
    })
  const called = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_organization', arguments: {} } })
  t.equal(called.statusCode, 200)
  t.match(called.json().result.structuredContent, { result: { name: 'Acme' } }, 'MCP tools/call with the token')
  const crossOrg = await mcp({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'get_organization', arguments: { org_id: other.orgId } },
  })
  t.equal(crossOrg.json().result.isError, true, 'MCP: another organization is an error result')
  t.match(JSON.stringify(crossOrg.json().result.content), /not_found|not found/)

  const activity = await streamEvents(ts, `oauth_grant-${tokens.access_token.slice(4).split('.')[0]}`)
  t.same(
    activity.map((e) => e.type),
    ['OAuthGrantApproved', 'OAuthCodeExchanged'],
  )
  t.match(activity[0]!.metadata, { org_id: acme.orgId, actor: { kind: 'user', id: owner.userId } })

  // Refresh: rotated on every use.
  clock.now += 60_000
  const refreshed = await tokenRequest(ts, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })
  t.equal(refreshed.statusCode, 200)
  const next = refreshed.json()
  t.not(next.refresh_token, tokens.refresh_token, 'a new refresh token')
  t.not(next.access_token, tokens.access_token, 'a new access token')
  secrets.push(next.access_token, next.refresh_token)
  t.equal((await rpcWith(next.access_token, 'get_organization')).statusCode, 200)
  t.equal((await rpcWith(tokens.access_token, 'get_organization')).statusCode, 200, 'the previous access token lives out its hour')
  const otherClient = await tokenRequest(ts, {
    grant_type: 'refresh_token',
    refresh_token: next.refresh_token,
    client_id: await registerClient(ts),
  })
  t.equal(otherClient.json().error, 'invalid_grant', 'another client cannot use it')

  // Replay of the rotated refresh token: refused, and the whole grant is revoked.
  const replay = await tokenRequest(ts, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })
  t.equal(replay.statusCode, 400)
  t.equal(replay.json().error, 'invalid_grant')
  const dead = await rpcWith(next.access_token, 'get_organization')
  t.equal(dead.statusCode, 401, 'the newest access token is dead too')
  t.match(
    String(dead.headers['www-authenticate']),
    /^Bearer realm="RankRelay", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp", error="invalid_token"$/,
  )
  const after = await tokenRequest(ts, { grant_type: 'refresh_token', refresh_token: next.refresh_token, client_id: clientId })
  t.equal(after.json().error, 'invalid_grant', 'and so is the newest refresh token')
  const grants = await ts.call<any[]>('oauth_list_grants', { include_revoked: true }, acme.key)
  t.match(grants.at(-1), {
    user_id: owner.userId,
    client_name: 'Test App',
    scopes: 'read offline_access',
    revoked_reason: 'refresh_token_reused',
  })
})

t.test('code reuse revokes what the code issued; PKCE and redirect mismatches are invalid_grant', async (t) => {
  const flow = await codeFlow(ts, owner.browser, clientId, { scope: 'read' })
  const tokens = flow.tokens.json()
  t.notOk(tokens.refresh_token, 'no refresh token without offline_access')
  const again = await tokenRequest(ts, {
    grant_type: 'authorization_code',
    code: flow.code,
    code_verifier: flow.verifier,
    client_id: clientId,
    redirect_uri: flow.redirectUri,
  })
  t.equal(again.statusCode, 400)
  t.equal(again.json().error, 'invalid_grant')
  t.equal((await rpcWith(tokens.access_token, 'get_organization')).statusCode, 401, 'the token the code issued is revoked')

  // Wrong verifier, wrong redirect URI, unknown client, missing fields.
  const { verifier, challenge } = pkce()
  const { answer } = await consent(owner.browser, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:40000/cb',
    scope: 'read',
    state: 'a',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  const code = redirectParams(answer).get('code')!
  t.match(String(answer.headers.location), /^http:\/\/127\.0\.0\.1:40000\/cb\?code=/, 'back to the loopback port the app asked for')
  const exchange = (over: Record<string, string>) =>
    tokenRequest(ts, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:40000/cb',
      ...over,
    })
  t.equal((await exchange({ code_verifier: pkce().verifier })).json().error, 'invalid_grant', 'a wrong verifier')
  t.equal(
    (await exchange({ redirect_uri: 'http://127.0.0.1:7777/cb' })).json().error,
    'invalid_grant',
    'another redirect URI than the request’s',
  )
  t.equal((await exchange({ code_verifier: 'short' })).json().error, 'invalid_request', 'a malformed verifier')
  const unknownClient = await exchange({ client_id: '987654' })
  t.equal(unknownClient.statusCode, 401)
  t.equal(unknownClient.json().error, 'invalid_client')
  t.equal((await tokenRequest(ts, { grant_type: 'password', client_id: clientId })).json().error, 'unsupported_grant_type')
  t.equal((await tokenRequest(ts, { grant_type: 'client_credentials', client_id: clientId })).json().error, 'unsupported_grant_type')
  t.equal((await tokenRequest(ts, { client_id: clientId })).json().error, 'invalid_request')
  const json = await ts.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ grant_type: 'authorization_code' }),
  })
  t.equal(json.json().error, 'invalid_request', 'JSON is not a token request')
  const ok = await exchange({})
  t.equal(ok.statusCode, 200, 'the right verifier still works after failed attempts')
})

t.test('expiry on the clock: a code after 10 minutes, an access token after 60', async (t) => {
  const { verifier, challenge } = pkce()
  const { answer } = await consent(owner.browser, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example/callback',
    scope: 'read',
    state: 'e',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  const code = redirectParams(answer).get('code')!
  clock.now += 10 * 60_000
  const late = await tokenRequest(ts, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: 'https://app.example/callback',
  })
  t.equal(late.json().error, 'invalid_grant', 'the code expired')
  t.match(late.json().error_description, /expired/)

  const flow = await codeFlow(ts, owner.browser, clientId, { scope: 'read' })
  const token = flow.tokens.json().access_token
  clock.now += 59 * 60_000
  t.equal((await rpcWith(token, 'get_organization')).statusCode, 200, 'alive at 59 minutes')
  clock.now += 60_000
  t.equal((await rpcWith(token, 'get_organization')).statusCode, 401, 'dead at 60')
  const grantId = Number(token.slice(4).split('.')[0])
  const active = await ts.call<any[]>('oauth_list_grants', {}, acme.key)
  t.notOk(
    active.some((g) => g.id === grantId),
    'an expired grant is no longer listed as connected',
  )
  const all = await ts.call<any[]>('oauth_list_grants', { include_revoked: true }, acme.key)
  t.match(
    all.find((g) => g.id === grantId),
    { status: 'expired', revoked_at: null },
  )
})

t.test('revocation (RFC 7009): 200 for unknown tokens; a revoked token is dead at once', async (t) => {
  const revoke = (token: string) =>
    ts.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, client_id: clientId }).toString(),
    })
  t.equal((await revoke('rro_1.nope')).statusCode, 200, 'unknown')
  t.equal((await revoke('garbage')).statusCode, 200, 'garbage')
  const flow = await codeFlow(ts, owner.browser, clientId, { scope: 'read offline_access' })
  const tokens = flow.tokens.json()
  t.equal((await revoke(tokens.refresh_token)).statusCode, 200)
  t.equal((await rpcWith(tokens.access_token, 'get_organization')).statusCode, 401, 'revoking the refresh token ends the grant')
  t.equal((await revoke(tokens.refresh_token)).statusCode, 200, 'twice is fine')
})

t.test('roles: a viewer cannot authorize; a web builder is capped; grants RPCs', async (t) => {
  const viewer = await signedInMember(ts, clock, acme.key, 'viewer@acme.example', 'viewer')
  const { challenge } = pkce()
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example/callback',
    scope: 'read',
    state: 'v',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }
  const page = await viewer.browser.get(authorizeUrl(params))
  t.equal(page.statusCode, 403)
  t.match(page.body, /Viewers cannot authorize/)
  t.notMatch(page.body, /name="decision"/, 'no Allow button')
  await viewer.browser.get('/account') // a page with a form: a CSRF token valid for this session
  const forced = await viewer.browser.post('/oauth/authorize', { ...params, decision: 'approve' })
  t.equal(forced.statusCode, 303)
  t.equal(redirectParams(forced).get('error'), 'access_denied', 'approving anyway is refused')

  const builder = await signedInMember(ts, clock, acme.key, 'builder@acme.example', 'web_builder')
  const capped = await codeFlow(ts, builder.browser, clientId, { scope: 'read write jobs' })
  t.equal(capped.tokens.json().scope, 'read write', 'jobs withheld from a web builder')

  const mine = await codeFlow(ts, otherOwner.browser, clientId, { scope: 'read' })
  const otherToken = mine.tokens.json().access_token
  const builderToken = capped.tokens.json().access_token
  const listed = await ts.call<any[]>('oauth_list_grants', { user_id: builder.userId }, acme.key)
  t.equal(listed.length, 1)
  t.equal(listed[0].scopes, 'read write')
  const viaToken = (await rpcWith(builderToken, 'oauth_list_grants')).json().result
  t.ok(
    viaToken.length >= 1 && viaToken.every((g: any) => g.user_id === builder.userId),
    'a web builder’s token sees its own member’s grants',
  )
  const ownerFlow = await codeFlow(ts, owner.browser, clientId, { scope: 'read write' })
  const ownerToken = ownerFlow.tokens.json().access_token
  const ownerView = (await rpcWith(ownerToken, 'oauth_list_grants')).json().result
  t.ok(
    ownerView.some((g: any) => g.user_id === builder.userId) && ownerView.some((g: any) => g.user_id === owner.userId),
    'an owner’s token sees the whole organization',
  )
  const manage = await rpcWith(builderToken, 'update_org_member_role', { user_id: owner.userId, role: 'viewer' })
  t.equal(manage.statusCode, 403, 'the token acts with its member’s role: a web builder cannot manage members')
  // Owner-only operations (spec Authentication 9): register_webhook and export_org.
  const hook = await rpcWith(builderToken, 'register_webhook', { url: 'https://10.0.0.1/hook' })
  t.match(
    { status: hook.statusCode, ...hook.json() },
    { status: 403, code: 'forbidden', detail: /only an owner may register a webhook; this token acts for a web_builder/ },
  )
  const ownerHook = await rpcWith(ownerToken, 'register_webhook', { url: 'https://10.0.0.1/hook' })
  t.equal(ownerHook.json().code, 'webhook_url_refused', 'an owner’s token gets past the owner rule (to the URL policy)')
  const jobsEditor = await signedInMember(ts, clock, acme.key, 'jobs-editor@acme.example', 'seo_editor')
  const jobsToken = (await codeFlow(ts, jobsEditor.browser, clientId, { scope: 'read write jobs' })).tokens.json().access_token
  const exportJob = (token: string) =>
    ts.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { kind: 'export_org' },
    })
  const refusedExport = await exportJob(jobsToken)
  t.match(
    { status: refusedExport.statusCode, ...refusedExport.json() },
    { status: 403, code: 'forbidden', detail: /only an owner may export the organization/ },
    'an SEO editor’s jobs token cannot export',
  )
  const cross = await rpcWith(otherToken, 'revoke_oauth_grant', { grant_id: listed[0].id })
  t.equal(cross.statusCode, 403, 'a read-only token cannot revoke')
  const crossOrg = await ts.rpc('revoke_oauth_grant', { grant_id: listed[0].id }, other.key)
  t.equal(crossOrg.statusCode, 404, "another organization's grant answers like a missing one")
  const revoked = await ts.call('revoke_oauth_grant', { grant_id: listed[0].id }, acme.key)
  t.same(revoked, { id: listed[0].id, revoked: true })
  t.equal((await rpcWith(builderToken, 'get_organization')).statusCode, 401, 'revoked through the RPC')
  t.equal((await rpcWith(otherToken, 'get_organization')).json().result.name, 'Other')

  // The member's standing counts on every request: demoted to viewer, or removed, their tokens stop working.
  const editor = await signedInMember(ts, clock, acme.key, 'editor@acme.example', 'seo_editor')
  const editorToken = (await codeFlow(ts, editor.browser, clientId, { scope: 'read' })).tokens.json().access_token
  t.equal((await rpcWith(editorToken, 'get_organization')).statusCode, 200)
  await ts.call('update_org_member_role', { user_id: editor.userId, role: 'viewer' }, acme.key)
  t.equal((await rpcWith(editorToken, 'get_organization')).statusCode, 401, 'a member demoted to viewer: 401')
  await ts.call('update_org_member_role', { user_id: editor.userId, role: 'seo_editor' }, acme.key)
  t.equal((await rpcWith(editorToken, 'get_organization')).statusCode, 200, 'and back')
  await ts.call('remove_org_member', { user_id: editor.userId }, acme.key)
  t.equal((await rpcWith(editorToken, 'get_organization')).statusCode, 401, 'a removed member: 401')
})

t.test('Connected apps: members see theirs, owners the organization’s; Disconnect revokes', async (t) => {
  t.equal(
    (await new Browser(ts.app).get('/account/apps')).headers.location,
    `/login?return_to=${encodeURIComponent('/account/apps')}`,
    'sign-in first',
  )
  const seo = await signedInMember(ts, clock, acme.key, 'seo@acme.example', 'seo_editor')
  const seoToken = (
    await codeFlow(ts, seo.browser, await registerClient(ts, ['https://seo-tool.example/cb'], 'SEO Tool'), {
      scope: 'read',
      redirectUri: 'https://seo-tool.example/cb',
    })
  ).tokens.json().access_token
  const ownerToken = (await codeFlow(ts, owner.browser, clientId, { scope: 'read' })).tokens.json().access_token

  t.match((await seo.browser.get('/account')).body, /<a href="\/account\/apps">Connected apps<\/a>/, 'the account page links to it')
  const mine = await seo.browser.get('/account/apps')
  t.equal(mine.statusCode, 200)
  t.match(mine.body, /SEO Tool/)
  t.match(mine.body, /seo-tool\.example/)
  t.notMatch(mine.body, /Test App/, 'not the owner’s apps')
  const all = await owner.browser.get('/account/apps')
  t.match(all.body, /SEO Tool/, 'the owner sees every member’s apps')
  t.match(all.body, /seo@acme\.example/, 'and who connected them')
  t.match(all.body, /Test App/)
  t.notMatch((await otherOwner.browser.get('/account/apps')).body, /SEO Tool/, 'never another organization’s')

  const ownerGrant = (await ts.call<any[]>('oauth_list_grants', { user_id: owner.userId }, acme.key)).at(-1).id
  const seoGrant = (await ts.call<any[]>('oauth_list_grants', { user_id: seo.userId }, acme.key)).at(-1).id
  const foreign = await seo.browser.post(`/account/apps/${ownerGrant}/disconnect`, {})
  t.equal(foreign.statusCode, 404, 'a member cannot disconnect another member’s app')
  t.equal((await otherOwner.browser.post(`/account/apps/${seoGrant}/disconnect`, {})).statusCode, 404, 'nor another organization’s owner')
  t.equal((await seo.browser.post(`/account/apps/${seoGrant}/disconnect`, {}, 'forged')).statusCode, 403, 'CSRF')
  await seo.browser.get('/account/apps')
  const done = await seo.browser.post(`/account/apps/${seoGrant}/disconnect`, {})
  t.equal(done.statusCode, 303)
  t.equal(done.headers.location, '/account/apps?disconnected=1')
  t.equal((await rpcWith(seoToken, 'get_organization')).statusCode, 401, 'its token is dead')
  t.notMatch((await seo.browser.get('/account/apps')).body, /SEO Tool/, 'gone from the list')
  await owner.browser.get('/account/apps')
  t.equal((await owner.browser.post(`/account/apps/${ownerGrant}/disconnect`, {})).statusCode, 303, 'an owner disconnects')
  t.equal((await rpcWith(ownerToken, 'get_organization')).statusCode, 401)
})

t.test('no plaintext code or token in the log', async (t) => {
  const { rows } = await ts.database.pool.query<{ data: string }>(
    `select data::text as data from es_events where stream_name like 'oauth_%'`,
  )
  const log = rows.map((r) => r.data).join('\n')
  t.ok(secrets.length >= 5)
  for (const secret of secrets) t.notOk(log.includes(secret.split('.')[1]!), 'only digests are stored')
})
