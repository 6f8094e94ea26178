/**
 * End to end with an independent OAuth client library: openid-client discovers this authorization server
 * (RFC 8414) and registers dynamically (RFC 7591); the member goes through the real /login and consent pages
 * over a real socket (fetch, a cookie jar, redirects followed by hand); openid-client exchanges the code with
 * PKCE, the token calls an RPC, the refresh token rotates, and replaying the old refresh token is refused and
 * revokes the grant. A viewer going through the same pages is refused.
 */
import type { AddressInfo } from 'node:net'
import * as oidc from 'openid-client'
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { connectMcp } from './mcp-support.js'
import { Browser, codeAt, enrolmentOf } from './people-support.js'

let now = Date.parse('2026-11-25T12:00:00.000Z')
const ts = await startTestSystem(t, { clock: () => new Date(now) })
await ts.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
const acme = await orgWithKey(ts, 'Acme')
const password = 'correct horse battery'
const REDIRECT = 'http://127.0.0.1:53682/callback'

/** A member enrolled through the invite pages; returns the TOTP secret for sign-in. */
async function enrol(email: string, role: string): Promise<Buffer> {
  const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email, role }, acme.key)
  const b = new Browser(ts.app)
  const path = new URL(invite.invite_url, base).pathname
  await b.get(path)
  const { secret } = enrolmentOf((await b.post(path, { password, confirm: password })).body)
  now += 30_000
  await b.post(`${path}/confirm`, { code: codeAt(secret, now) })
  return secret
}

/** A browser over fetch: keeps cookies, never follows redirects by itself. */
class FetchBrowser {
  readonly jar = new Map<string, string>()

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.size > 0) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '))
    const response = await fetch(new URL(url, base), { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      if (/Max-Age=0/i.test(line)) this.jar.delete(pair!.slice(0, eq))
      else this.jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
    }
    return response
  }

  /** Follows same-origin redirects; stops at the first answer that is not one, or at a redirect elsewhere. */
  async follow(url: string, init: RequestInit = {}): Promise<{ response: Response; url: string; body: string }> {
    let response = await this.request(url, init)
    let at = new URL(url, base).href
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      const next = new URL(response.headers.get('location')!, at)
      if (next.origin !== base) return { response, url: next.href, body: '' }
      at = next.href
      response = await this.request(at)
    }
    return { response, url: at, body: await response.text() }
  }
}

const hiddenFields = (html: string) => {
  const form = new URLSearchParams()
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(
      m[1]!,
      m[2]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    )
  }
  return form
}

/** Authorization URL → /login (signs in) → consent page; returns the consent page. */
async function throughLogin(browser: FetchBrowser, authorizationUrl: URL, email: string, secret: Buffer) {
  const login = await browser.follow(authorizationUrl.href)
  t.match(login.url, /\/login\?return_to=%2Foauth%2Fauthorize/, 'not signed in: sent to /login with return_to')
  const fields = hiddenFields(login.body)
  now += 30_000
  fields.set('email', email)
  fields.set('password', password)
  fields.set('code', codeAt(secret, now))
  return browser.follow('/login', { method: 'POST', body: fields })
}

t.test('openid-client: register, code + PKCE through the real pages, call an RPC, refresh, replay revokes', async (t) => {
  const secret = await enrol('owner@acme.example', 'owner')
  const config = await oidc.dynamicClientRegistration(
    new URL(base),
    {
      client_name: 'openid-client e2e',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
    oidc.None(),
    { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' },
  )
  const server = config.serverMetadata()
  t.equal(server.issuer, base, 'discovered the issuer')
  t.same(server.code_challenge_methods_supported, ['S256'])
  t.match(config.clientMetadata().client_id, /^\d+$/, 'registered dynamically')

  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'read write offline_access',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: `${base}/api/v1/mcp`,
  })
  const browser = new FetchBrowser()
  const consent = await throughLogin(browser, authorizationUrl, 'owner@acme.example', secret)
  t.equal(consent.response.status, 200, 'back at /oauth/authorize after sign-in: the consent page')
  t.match(consent.body, /openid-client e2e/, 'it names the app')
  const approve = hiddenFields(consent.body)
  approve.set('decision', 'approve')
  const back = await browser.follow('/oauth/authorize', { method: 'POST', body: approve })
  t.equal(back.response.status, 303)
  t.ok(back.url.startsWith(`${REDIRECT}?`), 'redirected to the app')

  const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state })
  t.match(tokens.access_token, /^rro_/)
  t.match(tokens.refresh_token, /^rrr_/)
  t.ok(tokens.expiresIn()! > 3590 && tokens.expiresIn()! <= 3600, '60 minutes')
  t.equal(tokens.scope, 'read write offline_access')

  const call = (token: string) =>
    oidc.fetchProtectedResource(
      config,
      token,
      new URL(`${base}/api/v1/rpc/get_organization`),
      'POST',
      '{}',
      new Headers({ 'content-type': 'application/json' }),
    )
  const org = await call(tokens.access_token)
  t.equal(org.status, 200, 'the access token calls an RPC')
  t.equal(((await org.json()) as { result: { name: string } }).result.name, 'Acme')

  // The MCP SDK's own client with the access token: tools listed, one called, confined to the grant's organization.
  const mcp = await connectMcp(t, ts, tokens.access_token)
  const { tools } = await mcp.client.listTools()
  t.ok(
    tools.some((tool) => tool.name === 'get_organization'),
    'MCP tools listed with the token',
  )
  const called = await mcp.client.callTool({ name: 'get_organization', arguments: {} })
  t.match(called.structuredContent, { result: { name: 'Acme' } }, 'an MCP tool called with the token')

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
  t.not(refreshed.refresh_token, tokens.refresh_token, 'the refresh token rotated')
  t.equal((await call(refreshed.access_token)).status, 200, 'the new access token works')

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (error: { error?: string }) => error.error,
    )
  t.equal(await errorOf(oidc.refreshTokenGrant(config, tokens.refresh_token!)), 'invalid_grant', 'the old refresh token is refused')
  // Plain fetch: openid-client itself rejects a 401 with its WWW-Authenticate challenge (that works too).
  await t.rejects(call(refreshed.access_token), 'openid-client reports the challenge')
  const after = await fetch(`${base}/api/v1/rpc/get_organization`, {
    method: 'POST',
    headers: { authorization: `Bearer ${refreshed.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  t.equal(after.status, 401, 'the grant is revoked: even the newest access token is refused')
  t.match(after.headers.get('www-authenticate'), /resource_metadata=".*\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"/)
  t.equal(await errorOf(oidc.refreshTokenGrant(config, refreshed.refresh_token!)), 'invalid_grant', 'and so is the newest refresh token')
  const grants = await ts.call<{ revoked_reason: string | null }[]>('oauth_list_grants', { include_revoked: true }, acme.key)
  t.match(grants, [{ revoked_reason: 'refresh_token_reused' }])
})

t.test('a viewer going through the same pages cannot authorize', async (t) => {
  const secret = await enrol('viewer@acme.example', 'viewer')
  const config = await oidc.dynamicClientRegistration(
    new URL(base),
    { client_name: 'viewer test', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
    oidc.None(),
    {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    },
  )
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'read',
    state: 'v',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  })
  const page = await throughLogin(new FetchBrowser(), url, 'viewer@acme.example', secret)
  t.equal(page.response.status, 403)
  t.match(page.body, /Viewers cannot authorize/)
  t.match(page.body, /error=access_denied/, 'a link back to the app with access_denied')
  t.notMatch(page.body, /name="decision"/, 'no Allow button')
})
