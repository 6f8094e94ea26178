/**
 * OIDC single sign-on in a real browser (headless Chromium, see test/support/chromium.ts): from /login the
 * person follows the company sign-in link, types their work email on /login/sso, and is sent through the real
 * identity provider (oidc-provider on loopback) and back to the callback, which provisions them and lands on
 * /account. Cookies, the CSRF token, the state binding and every redirect are the browser's own. A screenshot
 * of the signed-in page is kept in test-artifacts/.
 */
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { artifactPath, launchChromium } from '../support/chromium.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { startTestIdp } from './sso-oidc-support.js'

t.test('a new staff member signs in with the company IdP by clicking the real pages', async (t) => {
  const browser = await launchChromium(t)
  if (!browser) return
  const ts = await startTestSystem(t, { sso: { allowList: parseAllowList('127.0.0.1')! } })
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const org = await orgWithKey(ts, 'Acme Agency')
  const idp = await startTestIdp({
    accounts: { dana: { email: 'dana@acme.example', email_verified: true } },
    redirectUris: Array.from({ length: 5 }, (_, i) => `${origin}/auth/oidc/${i + 1}/callback`),
  })
  t.teardown(() => idp.close())
  idp.next('dana')
  const provider = await ts.call<{ id: number }>(
    'add_org_sso_provider',
    {
      label: 'Acme IdP',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      allowed_domains: ['acme.example'],
      default_role: 'web_builder',
    },
    org.key,
  )

  const page = await browser.newPage()
  await page.goto(`${origin}/login?return_to=${encodeURIComponent('/account')}`)
  await Promise.all([page.waitForURL(/\/login\/sso/), page.click('a[href^="/login/sso"]')])
  await page.fill('#email', 'dana@acme.example')
  await Promise.all([page.waitForURL(`${origin}/account`), page.click('button[type=submit]')])
  const account = await page.textContent('body')
  t.match(account, 'dana@acme.example', 'signed in through the IdP: the account page names the member')
  t.match(account, /Web builder/, 'provisioned with the default role')
  const cookies = await page.context().cookies()
  t.ok(cookies.find((c) => c.name === 'rr_session')?.httpOnly, 'a session cookie like /login issues')
  await page.screenshot({ path: artifactPath('sso-account.png'), fullPage: true })
  const members = await ts.call<any[]>('list_org_members', {}, org.key)
  t.match(members, [{ email: 'dana@acme.example', role: 'web_builder', status: 'active' }])
  t.ok(provider.id)
})
