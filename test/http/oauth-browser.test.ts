/**
 * The OAuth flow in a real browser (headless Chromium through playwright-core, see test/support/chromium.ts):
 * openid-client registers an app whose redirect URI is a real loopback listener; the browser opens the
 * authorization URL, is sent to /login, signs in, sees the consent page (kept as a screenshot in
 * test-artifacts/oauth-consent.png), clicks Allow and lands on the app's listener with the code; openid-client
 * exchanges it, calls an RPC, refreshes, and the replayed refresh token is refused with the grant revoked.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oidc from 'openid-client'
import t from 'tap'
import { artifactPath, launchChromium } from '../support/chromium.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { Browser as InjectBrowser, codeAt, enrolmentOf } from './people-support.js'

t.test('an app connects through the real pages in Chromium', async (t) => {
  const browser = await launchChromium(t)
  if (!browser) return
  const ts = await startTestSystem(t)
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const org = await orgWithKey(ts, 'Acme Agency')
  const email = 'dana@acme.example'
  const password = 'correct horse battery staple'

  // The member enrols (over inject: the sign-in pages have their own browser test).
  const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email, role: 'seo_editor' }, org.key)
  const setup = new InjectBrowser(ts.app)
  const path = new URL(invite.invite_url, origin).pathname
  await setup.get(path)
  const { secret } = enrolmentOf((await setup.post(path, { password, confirm: password })).body)
  const confirmedAt = Date.now()
  await setup.post(`${path}/confirm`, { code: codeAt(secret, confirmedAt) })
  const nextStep = (Math.floor(confirmedAt / 30_000) + 1) * 30_000

  // The app: a loopback listener for the redirect.
  const arrived: string[] = []
  const listener = createServer((request, response) => {
    arrived.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.')
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => listener.close(() => resolve())))
  const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`

  const config = await oidc.dynamicClientRegistration(new URL(origin), { client_name: 'Browser Test App', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
    algorithm: 'oauth2',
  })
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'read offline_access', state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })

  const page = await browser.newPage()
  await page.goto(url.href)
  t.match(page.url(), /\/login\?return_to=/, 'sent to sign in')
  await page.fill('#email', email)
  await page.fill('#password', password)
  await page.fill('#code', totp(secret, nextStep))
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')])
  const consent = await page.textContent('body')
  t.match(consent, /Browser Test App/, 'the consent page names the app')
  t.match(consent, /Acme Agency/, 'and the organization')
  t.match(consent, /offline_access/, 'and the scopes')
  await page.screenshot({ path: artifactPath('oauth-consent.png'), fullPage: true })

  await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.click('button[value=approve]')])
  const received = arrived.filter((u) => u.startsWith('/callback'))
  t.equal(received.length, 1, 'the app received the redirect once')
  const callback = new URL(received[0]!, redirectUri)
  t.equal(callback.searchParams.get('state'), state)

  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
  const call = (token: string) => fetch(`${origin}/api/v1/rpc/get_organization`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })
  const answered = await call(tokens.access_token)
  t.equal(answered.status, 200, 'the token calls an RPC')
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
  const replay = await oidc.refreshTokenGrant(config, tokens.refresh_token!).then(() => 'accepted', (error: { error?: string }) => error.error)
  t.equal(replay, 'invalid_grant', 'the replayed refresh token is refused')
  t.equal((await call(refreshed.access_token)).status, 401, 'and the grant is revoked')
})

function totp(secret: Buffer, at: number): string {
  return codeAt(secret, at)
}
