/**
 * OIDC single sign-on end to end: the service listening on 127.0.0.1, a real OpenID provider (oidc-provider)
 * in-process on 127.0.0.1, and fetch with a cookie jar walking every redirect: /login/sso → /auth/oidc/<id> →
 * the IdP → the callback → /account. Good sign-ins (an existing member; a new member provisioned with the
 * default role), and refusals: wrong nonce, expired state (the service clock moved on), reused state, another
 * browser, unverified email, a domain not allowed, the hosted-domain rule, another organization's member.
 * Then the RPCs (validation, the secret never returned, another organization's provider answers like a
 * missing one) and the log (reasons recorded, no secret in any event).
 */
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, withoutIds } from './helpers.js'
import { setInvitePassword } from './people-support.js'
import { CookieBrowser, startTestIdp } from './sso-oidc-support.js'

let offsetMs = 0
const clock = () => new Date(Date.now() + offsetMs)
const ts = await startTestSystem(t, { clock, sso: { allowList: parseAllowList('127.0.0.1')! } })
await ts.app.listen({ host: '127.0.0.1', port: 0 })
const app = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
const acme = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')

const idp = await startTestIdp({
  accounts: {
    ann: { email: 'Ann@Acme.test', email_verified: true, hd: 'acme.test' },
    newbie: { email: 'newbie@acme.test', email_verified: true, hd: 'acme.test' },
    unverified: { email: 'unverified@acme.test', email_verified: false, hd: 'acme.test' },
    outsider: { email: 'someone@elsewhere.test', email_verified: true },
    nohd: { email: 'nohd@acme.test', email_verified: true },
    otherhd: { email: 'otherhd@acme.test', email_verified: true, hd: 'evil.test' },
    bob: { email: 'bob@other.test', email_verified: true },
    founder: { email: 'founder@startup.test', email_verified: true },
  },
  // Provider ids come from a sequence on a fresh database: the first few.
  redirectUris: Array.from({ length: 20 }, (_, i) => `${app}/auth/oidc/${i + 1}/callback`),
})
t.teardown(() => idp.close())

const base = { label: 'Acme IdP', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret }
const provider = await ts.call<any>(
  'add_org_sso_provider',
  { ...base, allowed_domains: ['ACME.test'], default_role: 'seo_editor' },
  acme.key,
)
const hdProvider = await ts.call<any>('add_org_sso_provider', { ...base, label: 'Acme Workspace', hosted_domain: 'acme.test' }, acme.key)

/** One sign-in, hop by hop. `tamper` may change the authorization request; `beforeCallback` runs just before the callback. */
async function ssoSignIn(
  account: string,
  options: {
    providerId?: number
    browser?: CookieBrowser
    tamper?: (url: URL) => void
    beforeCallback?: () => void
    returnTo?: string
  } = {},
) {
  const browser = options.browser ?? new CookieBrowser()
  const providerId = options.providerId ?? provider.id
  const start = await browser.fetch(
    `${app}/auth/oidc/${providerId}${options.returnTo ? `?return_to=${encodeURIComponent(options.returnTo)}` : ''}`,
  )
  t.equal(start.status, 303, 'the start redirects to the IdP')
  const authorize = new URL(start.headers.get('location')!)
  options.tamper?.(authorize)
  idp.next(account)
  const reached = await browser.followUntil(authorize.href, `${app}/auth/oidc/`)
  if (reached.response) throw new Error(`the IdP answered ${reached.response.status}: ${await reached.response.text()}`)
  options.beforeCallback?.()
  const callback = await browser.fetch(reached.url)
  return { browser, authorize, callbackUrl: reached.url, callback, body: callback.status === 303 ? '' : await callback.text() }
}

async function account(browser: CookieBrowser) {
  const response = await browser.fetch(`${app}/account`)
  return { status: response.status, body: await response.text() }
}

t.test('the authorization request: code + PKCE S256, openid email profile, state, nonce, redirect URI', async (t) => {
  const browser = new CookieBrowser()
  const start = await browser.fetch(`${app}/auth/oidc/${provider.id}`)
  const url = new URL(start.headers.get('location')!)
  t.equal(url.origin + url.pathname, `${idp.issuer}/auth`)
  const q = url.searchParams
  t.equal(q.get('response_type'), 'code')
  t.equal(q.get('client_id'), idp.clientId)
  t.equal(q.get('scope'), 'openid email profile')
  t.equal(q.get('code_challenge_method'), 'S256')
  t.match(q.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/)
  t.match(q.get('state'), /^[A-Za-z0-9_-]{43}$/)
  t.match(q.get('nonce'), /^[A-Za-z0-9_-]{20,}$/)
  t.equal(q.get('redirect_uri'), `${app}/auth/oidc/${provider.id}/callback`)
  t.ok(browser.cookies.has('rr_oidc'), 'the state is bound to this browser')
  const again = await new CookieBrowser().fetch(`${app}/auth/oidc/${provider.id}`)
  t.not(new URL(again.headers.get('location')!).searchParams.get('state'), q.get('state'), 'a fresh state each time')
  const hd = new URL((await new CookieBrowser().fetch(`${app}/auth/oidc/${hdProvider.id}`)).headers.get('location')!)
  t.equal(hd.searchParams.get('hd'), 'acme.test', 'the hosted domain is passed as a hint')
  t.equal((await new CookieBrowser().fetch(`${app}/auth/oidc/999999`)).status, 404, 'an unknown provider')
})

t.test('an existing member signs in (an invited one too: the provider proves the address), return_to honoured', async (t) => {
  const invited = await ts.call<any>('invite_org_member', { email: 'ann@acme.test', role: 'viewer' }, acme.key)
  const { browser, callback } = await ssoSignIn('ann', { returnTo: '/account?from=sso' })
  t.equal(callback.status, 303)
  t.equal(callback.headers.get('location'), '/account?from=sso')
  t.ok(browser.cookies.has('rr_session'), 'a session cookie like /login issues')
  const page = await account(browser)
  t.equal(page.status, 200)
  t.match(page.body, /ann@acme\.test/)
  t.match(page.body, /Viewer of organization/, 'the member keeps their role')
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  t.match(
    members.find((m) => m.user_id === invited.user_id),
    { status: 'active', role: 'viewer' },
  )
  t.equal(members.filter((m) => m.email === 'ann@acme.test').length, 1, 'no second user')
  const invitePage = await fetch(invited.invite_url.startsWith('http') ? invited.invite_url : `${app}${invited.invite_url}`)
  t.equal(invitePage.status, 404, 'the invite link is used up')
  const { rows } = await ts.database.pool.query(`select type from es_events where stream_name = $1 order by stream_revision`, [
    `user-${invited.user_id}`,
  ])
  t.same(
    rows.map((r) => r.type),
    ['OrgMemberInvited', 'UserSignedInWithSso'],
  )
})

t.test('an unknown email on an allowed domain is provisioned with the default role', async (t) => {
  const { browser, callback } = await ssoSignIn('newbie')
  t.equal(callback.status, 303)
  t.equal(callback.headers.get('location'), '/account', 'no return_to: the account page')
  const page = await account(browser)
  t.match(page.body, /newbie@acme\.test/)
  t.match(page.body, /SEO editor of organization/)
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  const newbie = members.find((m) => m.email === 'newbie@acme.test')
  t.match(newbie, { role: 'seo_editor', status: 'active' })
  const { rows } = await ts.database.pool.query(
    `select type, data, metadata from es_events where stream_name = $1 order by stream_revision`,
    [`user-${newbie.user_id}`],
  )
  t.same(
    rows.map((r) => r.type),
    ['OrgMemberProvisionedBySso', 'UserSignedInWithSso'],
  )
  t.match(rows[0].data, { org_id: acme.orgId, role: 'seo_editor', provider_id: provider.id, via: 'allowed_domain' })
  t.equal(rows[0].metadata.org_id, acme.orgId, 'audited under the organization')
  // The second time, the same member signs in again (no second provisioning).
  const second = await ssoSignIn('newbie')
  t.equal(second.callback.status, 303)
  t.equal((await ts.call<any[]>('list_org_members', {}, acme.key)).filter((m) => m.email === 'newbie@acme.test').length, 1)
})

async function failures() {
  const { rows } = await ts.database.pool.query(`select data from es_events where type = 'SsoSignInFailed' order by global_position`)
  return rows.map((r) => r.data)
}

async function expectRefused(t: Test, outcome: Awaited<ReturnType<typeof ssoSignIn>>, reason: string, kind: 'identity' | 'state') {
  t.equal(outcome.callback.status, kind === 'state' ? 400 : 403, `${reason}: refused`)
  t.match(outcome.body, kind === 'state' ? /sso_state_invalid/ : /sso_sign_in_refused/)
  if (kind === 'identity') t.match(outcome.body, /ask an owner of your organization for an invite/)
  t.notOk(outcome.browser.cookies.has('rr_session'), 'no session')
  const last = (await failures()).at(-1)
  t.equal(last.reason, reason, `recorded as ${reason}`)
  return last
}

t.test('refusals', async (t) => {
  await t.test('wrong nonce', async (t) => {
    const outcome = await ssoSignIn('ann', { tamper: (url) => url.searchParams.set('nonce', 'a-nonce-this-service-never-issued') })
    const failure = await expectRefused(t, outcome, 'nonce_mismatch', 'identity')
    t.equal(failure.provider_id, provider.id)
  })
  await t.test('expired state (the service clock 11 minutes on)', async (t) => {
    const outcome = await ssoSignIn('ann', {
      beforeCallback: () => {
        offsetMs += 11 * 60_000
      },
    })
    offsetMs = 0
    await expectRefused(t, outcome, 'state_expired', 'state')
  })
  await t.test('state at 9 minutes still works', async (t) => {
    const outcome = await ssoSignIn('ann', {
      beforeCallback: () => {
        offsetMs += 9 * 60_000
      },
    })
    offsetMs = 0
    t.equal(outcome.callback.status, 303)
  })
  await t.test('reused state', async (t) => {
    const first = await ssoSignIn('ann')
    t.equal(first.callback.status, 303, 'the first use signs in')
    const replay = await first.browser.fetch(first.callbackUrl)
    t.equal(replay.status, 400)
    t.match(await replay.text(), /sso_state_invalid/)
    t.equal((await failures()).at(-1).reason, 'state_reused')
  })
  await t.test('a callback reaching another browser', async (t) => {
    const outcome = await ssoSignIn('ann')
    t.equal(outcome.callback.status, 303)
    const started = new CookieBrowser()
    const start = await started.fetch(`${app}/auth/oidc/${provider.id}`)
    idp.next('ann')
    // The IdP session lives in `started`; the callback URL is then opened in a fresh browser.
    const reached = await started.followUntil(start.headers.get('location')!, `${app}/auth/oidc/`)
    const elsewhere = await new CookieBrowser().fetch(reached.url)
    t.equal(elsewhere.status, 400)
    t.equal((await failures()).at(-1).reason, 'browser_mismatch')
  })
  await t.test('an unknown state is refused and not recorded (anyone can send one)', async (t) => {
    const before = (await failures()).length
    const response = await fetch(`${app}/auth/oidc/${provider.id}/callback?state=${'x'.repeat(43)}&code=abc`)
    t.equal(response.status, 400)
    t.match(await response.text(), /sso_state_invalid/)
    t.equal((await failures()).length, before, 'no event')
  })
  await t.test('unverified email', async (t) => {
    const failure = await expectRefused(t, await ssoSignIn('unverified'), 'email_unverified', 'identity')
    t.equal(failure.email_domain, 'acme.test')
  })
  await t.test('a domain not allowed', async (t) => {
    await expectRefused(t, await ssoSignIn('outsider'), 'domain_not_allowed', 'identity')
  })
  await t.test('hosted domain: missing hd, another hd; the right hd signs in', async (t) => {
    await expectRefused(t, await ssoSignIn('nohd', { providerId: hdProvider.id }), 'hosted_domain_mismatch', 'identity')
    await expectRefused(t, await ssoSignIn('otherhd', { providerId: hdProvider.id }), 'hosted_domain_mismatch', 'identity')
    t.equal((await ssoSignIn('ann', { providerId: hdProvider.id })).callback.status, 303)
  })
  await t.test("another organization's member is not signed in by this organization's provider", async (t) => {
    // Bob has an account in Other (an invite alone reserves the address only in Other).
    const invited = await ts.call<{ invite_url: string }>('invite_org_member', { email: 'bob@other.test', role: 'owner' }, other.key)
    t.equal((await setInvitePassword(ts.app, invited.invite_url)).statusCode, 200, 'Bob accepts the invite')
    const outcome = await ssoSignIn('bob')
    await expectRefused(t, outcome, 'account_unavailable', 'identity')
    const unknown = await ssoSignIn('outsider')
    t.equal(
      unknown.body.replace(/<input[^>]*>/g, ''),
      outcome.body.replace(/<input[^>]*>/g, ''),
      'the page is the same whether or not the account exists',
    )
  })
  await t.test('the IdP refusing (error in the callback)', async (t) => {
    const outcome = await ssoSignIn('ann', { tamper: (url) => url.searchParams.set('scope', 'email profile') })
    await expectRefused(t, outcome, 'provider_error', 'identity')
  })
})

t.test('signup: allow_signup makes an unknown verified email the owner of a new organization', async (t) => {
  const open = await ts.call<any>('add_org_sso_provider', { ...base, label: 'Open IdP', allow_signup: true }, other.key)
  const { browser, callback } = await ssoSignIn('founder', { providerId: open.id })
  t.equal(callback.status, 303)
  const page = await account(browser)
  t.match(page.body, /founder@startup\.test/)
  t.match(page.body, /Owner of organization/)
  t.notMatch(page.body, new RegExp(`organization ${other.orgId}\\.`), 'a new organization, not the provider’s')
})

t.test('/login/sso sends staff to their provider by email domain', async (t) => {
  const browser = new CookieBrowser()
  const login = await browser.fetch(`${app}/login`)
  t.match(await login.text(), /href="\/login\/sso"/, '/login links to it')
  const form = await browser.fetch(`${app}/login/sso?return_to=/account`)
  const html = await form.text()
  t.equal(form.status, 200)
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1]!
  const post = (email: string) =>
    browser.fetch(`${app}/login/sso`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, email, return_to: '/account' }).toString(),
    })
  const sent = await post('Newbie@ACME.test')
  t.equal(sent.status, 303)
  t.equal(sent.headers.get('location'), `/auth/oidc/${provider.id}?login_hint=newbie%40acme.test&return_to=%2Faccount`)
  const start = await browser.fetch(new URL(sent.headers.get('location')!, app).href)
  t.equal(new URL(start.headers.get('location')!).searchParams.get('login_hint'), 'newbie@acme.test')
  const none = await post('someone@nowhere.test')
  t.equal(none.status, 200)
  const noneBody = await none.text()
  t.match(noneBody, /Single sign-on is not available for this email/)
  const typo = await post('not-an-email')
  t.equal((await typo.text()).replace(/value="[^"]*"/g, ''), noneBody.replace(/value="[^"]*"/g, ''), 'one generic answer')
  const forged = await browser.fetch(`${app}/login/sso`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=newbie%40acme.test',
  })
  t.equal(forged.status, 403, 'CSRF checked')
})

t.test('the RPCs', async (t) => {
  await t.test('add: the result carries the login URL; the secret is write-only', async (t) => {
    t.match(provider, {
      id: Number,
      kind: 'oidc',
      label: 'Acme IdP',
      issuer: idp.issuer,
      client_id: idp.clientId,
      has_client_secret: true,
      allowed_domains: ['acme.test'],
      default_role: 'seo_editor',
      hosted_domain: '',
      allow_signup: false,
      active: true,
    })
    t.equal(provider.login_url, `${app}/auth/oidc/${provider.id}`, 'absolute: the listen address without BASE_URL')
    t.equal(provider.redirect_uri, `${app}/auth/oidc/${provider.id}/callback`, 'the redirect URI the sign-in sends the provider')
    const list = await ts.rpc('list_org_sso_providers', {}, acme.key)
    t.equal(list.statusCode, 200)
    t.same(
      list.json().result.map((p: any) => p.id),
      [provider.id, hdProvider.id],
    )
    t.notOk(list.body.includes(idp.clientSecret), 'never the secret')
    t.notOk(list.body.includes('v1.'), 'nor its ciphertext')
    t.same(
      (await ts.call<any[]>('list_org_sso_providers', {}, other.key)).map((p) => p.label),
      ['Open IdP'],
      'each organization its own',
    )
  })
  await t.test('bad issuers answer sso_issuer_invalid naming what failed', async (t) => {
    const e1 = expectError(
      t,
      await ts.rpc('add_org_sso_provider', { ...base, issuer: `${idp.issuer}/nowhere` }, acme.key),
      400,
      'sso_issuer_invalid',
    )
    t.match(e1.detail, /discovery document/)
    const e2 = expectError(
      t,
      await ts.rpc('add_org_sso_provider', { ...base, issuer: 'http://10.0.0.7' }, acme.key),
      400,
      'sso_issuer_invalid',
    )
    t.match(e2.detail, /address not allowed.*private/)
    const e3 = expectError(
      t,
      await ts.rpc('add_org_sso_provider', { ...base, issuer: 'https://localhost/' }, acme.key),
      400,
      'sso_issuer_invalid',
    )
    t.match(e3.detail, /loopback/)
    const e4 = expectError(t, await ts.rpc('add_org_sso_provider', { ...base, issuer: 'not a url' }, acme.key), 400, 'sso_issuer_invalid')
    t.match(e4.detail, /absolute URL/)
    const e5 = expectError(
      t,
      await ts.rpc('add_org_sso_provider', { ...base, issuer: `${idp.issuer}/` }, acme.key),
      400,
      'sso_issuer_invalid',
    )
    t.match(e5.detail, /issuer/, 'the document names another issuer')
    expectError(t, await ts.rpc('add_org_sso_provider', { ...base, allowed_domains: ['not a domain'] }, acme.key), 400, 'validation_failed')
    expectError(t, await ts.rpc('add_org_sso_provider', { ...base, default_role: 'admin' }, acme.key), 400, 'validation_failed')
    expectError(t, await ts.rpc('add_org_sso_provider', { label: 'x', issuer: idp.issuer }, acme.key), 400, 'validation_failed')
  })
  await t.test('update and delete; another organization’s provider answers like a missing one', async (t) => {
    const added = await ts.call<any>('add_org_sso_provider', { ...base, label: 'Temp' }, acme.key)
    const updated = await ts.call<any>(
      'update_org_sso_provider',
      { provider_id: added.id, label: 'Renamed', allowed_domains: ['acme.test', 'acme.example'], client_secret: '' },
      acme.key,
    )
    t.match(updated, { label: 'Renamed', allowed_domains: ['acme.test', 'acme.example'], has_client_secret: false, issuer: idp.issuer })
    const missing = added.id + 1000
    for (const [method, body] of [
      ['update_org_sso_provider', { label: 'Mine now' }],
      ['delete_org_sso_provider', {}],
    ] as const) {
      const foreign = await ts.rpc(method, { provider_id: added.id, ...body }, other.key)
      const absent = await ts.rpc(method, { provider_id: missing, ...body }, other.key)
      t.equal(foreign.statusCode, 404, `${method}: another org's`)
      t.same(withoutIds(foreign.json(), [added.id]), withoutIds(absent.json(), [missing]), `${method}: same body as a missing one`)
    }
    t.same(await ts.call('delete_org_sso_provider', { provider_id: added.id }, acme.key), { id: added.id, deleted: true })
    expectError(t, await ts.rpc('delete_org_sso_provider', { provider_id: added.id }, acme.key), 404, 'not_found')
    t.equal((await fetch(`${app}/auth/oidc/${added.id}`, { redirect: 'manual' })).status, 404, 'its login URL is gone')
    const paused = await ts.call<any>('update_org_sso_provider', { provider_id: hdProvider.id, active: false }, acme.key)
    t.equal(paused.active, false)
    t.equal(
      (await fetch(`${app}/auth/oidc/${hdProvider.id}`, { redirect: 'manual' })).status,
      404,
      'an inactive provider does not start sign-ins',
    )
  })
})

t.test('the log: every refusal has its reason, and no secret is in any event', async (t) => {
  const reasons = new Set((await failures()).map((f) => f.reason))
  for (const reason of [
    'nonce_mismatch',
    'state_expired',
    'state_reused',
    'browser_mismatch',
    'email_unverified',
    'domain_not_allowed',
    'hosted_domain_mismatch',
    'account_unavailable',
    'provider_error',
  ]) {
    t.ok(reasons.has(reason), reason)
  }
  const { rows } = await ts.database.pool.query<{ text: string }>(
    `select stream_name || data::text || metadata::text as text from es_events`,
  )
  const log = rows.map((r) => r.text).join('\n')
  t.notOk(log.includes(idp.clientSecret), 'the client secret is sealed')
  t.match(log, /"client_secret_sealed": "v1\./, 'as ciphertext')
  const failed = await failures()
  t.notOk(JSON.stringify(failed).includes('@'), 'refusals carry no email address')
  const { rows: states } = await ts.database.pool.query(`select * from oidc_login_states`)
  t.ok(states.length > 0)
  t.ok(
    states.every((s) => /^v1\./.test(s.code_verifier_sealed) && /^[0-9a-f]{64}$/.test(s.state_hash)),
    'verifiers sealed, states hashed',
  )
})
