/**
 * The OAuth flow once through a real browser: an app registers dynamically and builds
 * an authorization URL with PKCE (openid-client); headless Chromium opens it, is sent to /login, signs the
 * member in, is shown the consent page (a screenshot is kept in test-artifacts/oauth-consent.png), clicks
 * Allow, and lands on the app's loopback redirect URI, served by a tiny receiver here. The app then exchanges
 * the code, calls an RPC with the token, the MCP SDK's own client lists tools and calls one with it (and is
 * refused with the WWW-Authenticate challenge without it), the app refreshes, and replaying the old refresh
 * token is refused and revokes the grant. Every page step is a click on the served HTML: cookies, CSRF tokens and redirects are Chromium's.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oidc from 'openid-client'
import t from 'tap'
import { secretOfOtpauthUri, totp } from '../../commands/secrets/totp.js'
import { artifactPath, launchChromium } from '../support/chromium.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { connectMcp } from './mcp-support.js'

/** The app's redirect URI: a loopback listener that records where the browser was sent and says so. */
async function startReceiver(t: Parameters<typeof launchChromium>[0]): Promise<{ url: string; received: URL[] }> {
  const received: URL[] = []
  const server = http.createServer((req, res) => {
    received.push(new URL(req.url!, 'http://127.0.0.1'))
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<h1>Back at the app</h1>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received }
}

t.test('authorization code + PKCE through the real login and consent pages in headless Chromium', async (t) => {
  const browser = await launchChromium(t)
  if (!browser) return
  const ts = await startTestSystem(t)
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const acme = await orgWithKey(ts, 'Acme Agency')
  const app = await startReceiver(t)
  const page = await browser.newPage()

  // A member, enrolled through the invite pages in the browser.
  const email = 'owner@acme.example'
  const password = 'correct horse battery staple'
  const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email, role: 'owner' }, acme.key)
  await page.goto(new URL(invite.invite_url, base).href)
  await page.fill('#password', password)
  await page.fill('#confirm', password)
  await Promise.all([page.waitForURL(/\/invite\//), page.click('button[type=submit]')])
  const secret = secretOfOtpauthUri((await page.getAttribute('a[href^="otpauth://"]', 'href'))!)
  const confirmedAt = Date.now()
  await page.fill('#code', totp(secret, confirmedAt))
  await page.click('button[type=submit]')
  await page.waitForLoadState()

  // The app registers and sends the browser to authorize.
  const config = await oidc.dynamicClientRegistration(
    new URL(base),
    {
      client_name: 'Rank Tracker Desktop',
      redirect_uris: [app.url],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
    oidc.None(),
    { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' },
  )
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: app.url,
    scope: 'read offline_access',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })
  await page.goto(authorizationUrl.href)
  t.match(page.url(), /\/login\?return_to=/, 'not signed in: the browser is sent to /login')
  await page.fill('#email', email)
  await page.fill('#password', password)
  // A code is good once: the next step's (the server accepts one step either side).
  await page.fill('#code', totp(secret, (Math.floor(confirmedAt / 30_000) + 1) * 30_000))
  await Promise.all([page.waitForURL(/\/oauth\/authorize/), page.click('button[type=submit]')])

  const consent = (await page.textContent('body')) ?? ''
  t.match(consent, 'Rank Tracker Desktop', 'the consent page names the app')
  t.match(consent, /read/i, 'and the scopes asked for')
  await page.screenshot({ path: artifactPath('oauth-consent.png'), fullPage: true })

  await Promise.all([page.waitForURL((url) => url.href.startsWith(app.url)), page.click('button[name=decision][value=approve]')])
  t.match(await page.textContent('h1'), 'Back at the app', 'Allow sends the browser back to the app')
  const callback = app.received.find((u) => u.pathname === '/callback')!
  t.equal(callback.searchParams.get('state'), state, 'state echoed')

  const tokens = await oidc.authorizationCodeGrant(config, new URL(`${app.url}${callback.search}`), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  })
  t.match(tokens.access_token, /^rro_/)
  t.match(tokens.refresh_token, /^rrr_/)
  const call = (token: string) =>
    fetch(`${base}/api/v1/rpc/get_organization`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
  const org = await call(tokens.access_token)
  t.equal(org.status, 200, 'the access token calls an RPC')
  t.equal(((await org.json()) as { result: { name: string } }).result.name, 'Acme Agency', "of the member's organization")

  // The MCP SDK's own client with the token: it lists the tools and calls one, in the member's organization.
  const { client } = await connectMcp(t, ts, tokens.access_token)
  const tools = await client.listTools()
  t.ok(
    tools.tools.some((tool) => tool.name === 'get_organization'),
    'MCP tools listed with the OAuth token',
  )
  const called = await client.callTool({ name: 'get_organization', arguments: {} })
  t.notOk(called.isError, 'and a tool called')
  t.match(JSON.stringify(called.structuredContent ?? called.content), 'Acme Agency')
  await t.rejects(connectMcp(t, ts, undefined), { code: 401 }, 'without a token the SDK client is refused')
  const challenge = await fetch(`${base}/api/v1/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  })
  t.match(
    challenge.headers.get('www-authenticate'),
    /^Bearer realm="RankRelay", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"$/,
    'with the WWW-Authenticate challenge',
  )

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
  t.not(refreshed.refresh_token, tokens.refresh_token, 'the refresh token rotates')
  const replay = await oidc.refreshTokenGrant(config, tokens.refresh_token!).then(
    () => 'accepted',
    (error: { error?: string }) => error.error,
  )
  t.equal(replay, 'invalid_grant', 'the old refresh token is refused')
  t.equal((await call(refreshed.access_token)).status, 401, 'and the grant is revoked: the newest access token no longer works')
})
