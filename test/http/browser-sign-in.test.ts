/**
 * The sign-in pages in a real browser (headless Chromium through playwright-core, see test/support/chromium.ts):
 * an owner invites a member over the API; the member opens the invite link, sets a password, reads the TOTP
 * secret off the page, confirms it with a code, signs in with email, password and code, reaches the account
 * page, and signs out. Every step is a click on the served pages (cookies, CSRF tokens and redirects are the
 * browser's own). A screenshot of the signed-in page is kept in test-artifacts/.
 */
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { secretOfOtpauthUri, totp } from '../../commands/secrets/totp.js'
import { artifactPath, launchChromium } from '../support/chromium.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'

t.test('a member is invited, enrols TOTP and signs in, all by clicking the real pages', async (t) => {
  const browser = await launchChromium(t)
  if (!browser) return
  const ts = await startTestSystem(t)
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const org = await orgWithKey(ts, 'Acme Agency')
  const email = 'dana@acme.example'
  const password = 'correct horse battery staple'
  const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email, role: 'seo_editor' }, org.key)

  const page = await browser.newPage()
  const opened = await page.goto(new URL(invite.invite_url, origin).toString())
  t.equal(opened?.status(), 200, 'the invite page opens')
  await page.fill('#password', password)
  await page.fill('#confirm', password)
  await Promise.all([page.waitForURL(/\/invite\//), page.click('button[type=submit]')])
  const uri = await page.getAttribute('a[href^="otpauth://"]', 'href')
  t.match(uri, /^otpauth:\/\/totp\//, 'the enrolment page shows the otpauth:// URI')
  const secret = secretOfOtpauthUri(uri!)
  const confirmedAt = Date.now()
  await page.fill('#code', totp(secret, confirmedAt))
  await page.click('button[type=submit]')
  await page.waitForLoadState()
  // A code is good once: sign in with the next step's code (the server accepts one step either side).
  const nextStep = (Math.floor(confirmedAt / 30_000) + 1) * 30_000

  await page.goto(`${origin}/login?return_to=${encodeURIComponent('/account')}`)
  await page.fill('#email', email)
  await page.fill('#password', password)
  await page.fill('#code', totp(secret, nextStep))
  await Promise.all([page.waitForURL(`${origin}/account`), page.click('button[type=submit]')])
  const account = await page.textContent('body')
  t.match(account, email, 'signed in: the account page names the member')
  t.match(account, /seo_editor|SEO editor/i, 'and the role')
  const cookies = await page.context().cookies()
  const session = cookies.find((c) => c.name === 'rr_session')
  t.ok(session?.httpOnly, 'the session cookie is http-only')
  t.equal(session?.sameSite, 'Lax')
  await page.screenshot({ path: artifactPath('sign-in-account.png'), fullPage: true })

  await Promise.all([page.waitForLoadState(), page.click('form[action="/logout"] button')])
  const after = await page.goto(`${origin}/account`)
  t.match(page.url(), /\/login/, 'signed out: the account page sends the browser to sign in')
  t.ok(after)
})
