/**
 * SAML single sign-on in a real browser (headless Chromium, see test/support/chromium.ts): from /login the
 * person follows the company sign-in link, types their work email on /login/sso, is sent with an HTTP-Redirect
 * AuthnRequest to the real signing IdP (test/http/saml-idp-support.ts), whose page auto-posts the signed
 * Response to the ACS, which provisions them and lands on /account. Cookies (the request's browser binding
 * included), the CSRF token, the cross-port form post and every redirect are the browser's own. A screenshot of
 * the signed-in page is kept in test-artifacts/.
 */
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { artifactPath, launchChromium } from '../support/chromium.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { startSamlIdp } from './saml-idp-support.js'

t.test('a new staff member signs in with the company SAML IdP by clicking the real pages', async (t) => {
  const browser = await launchChromium(t)
  if (!browser) return
  const ts = await startTestSystem(t)
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const org = await orgWithKey(ts, 'Acme Agency')
  const idp = await startSamlIdp()
  t.teardown(() => idp.close())
  idp.signInAs({ nameId: 'erin@acme.example' })
  await ts.call(
    'add_org_saml_provider',
    { label: 'Acme Okta', metadata_xml: idp.metadataXml, allowed_domains: ['acme.example'], default_role: 'seo_editor' },
    org.key,
  )

  const page = await browser.newPage()
  await page.goto(`${origin}/login?return_to=${encodeURIComponent('/account')}`)
  await Promise.all([page.waitForURL(/\/login\/sso/), page.click('a[href^="/login/sso"]')])
  await page.fill('#email', 'erin@acme.example')
  await Promise.all([page.waitForURL(`${origin}/account`), page.click('button[type=submit]')])
  const account = await page.textContent('body')
  t.match(account, 'erin@acme.example', 'signed in through the IdP: the account page names the member')
  t.match(account, /SEO editor/, 'provisioned with the default role')
  const cookies = await page.context().cookies()
  t.ok(cookies.find((c) => c.name === 'rr_session')?.httpOnly, 'a session cookie like /login issues')
  t.ok(
    cookies.find((c) => c.name === 'rr_saml'),
    'the request was bound to this browser',
  )
  t.equal(idp.requests.length, 1, 'one AuthnRequest reached the IdP')
  await page.screenshot({ path: artifactPath('saml-account.png'), fullPage: true })
  const members = await ts.call<any[]>('list_org_members', {}, org.key)
  t.match(members, [{ email: 'erin@acme.example', role: 'seo_editor', status: 'active' }])
})
