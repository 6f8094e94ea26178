/**
 * People and sign-in end to end, through the real pages and RPCs: invite → set password → enrol TOTP (codes
 * computed here from the otpauth secret) → sign in → session cookie → sign out; wrong passwords and codes,
 * replayed codes, recovery codes, lock-out (with an injected clock), CSRF, open redirects, password resets
 * (reuse and expiry), roles and cross-organization ids, and no secret anywhere in the log.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { signedInMember, safeReturnTo, loginUrl } from '../../read-api/people/session.js'
import { startTestSystem } from '../support/system.js'
import { expectError, keyFor, orgWithKey } from './helpers.js'
import { Browser, codeAt, enrolmentOf } from './people-support.js'

let now = Date.parse('2026-11-25T12:00:00.000Z')
const clock = () => new Date(now)
const resets: { email: string; link: string }[] = []
const ts = await startTestSystem(t, {
  clock,
  people: { deliverPasswordReset: async (r) => void resets.push({ email: r.email, link: r.link }) },
})
const acme = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** Every secret a test saw, checked against the log at the end. */
const secrets: string[] = []

async function enrol(email: string, role: string, password = 'correct horse battery') {
  const invite = await ts.call<{ user_id: number; invite_url: string; invite_token: string }>(
    'invite_org_member',
    { email, role },
    acme.key,
  )
  secrets.push(invite.invite_token, password)
  const b = new Browser(ts.app)
  const shown = await b.get(invite.invite_url)
  const set = await b.post(invite.invite_url, { password, confirm: password })
  const enrolment = enrolmentOf(set.body)
  secrets.push(enrolment.uri.match(/secret=([A-Z2-7]+)/)![1]!, ...enrolment.recoveryCodes)
  now += 30_000
  const confirmed = await b.post(`${invite.invite_url}/confirm`, { code: codeAt(enrolment.secret, now) })
  return { invite, shown, set, enrolment, confirmed, password }
}

async function signIn(b: Browser, email: string, password: string, code: string, returnTo?: string) {
  await b.get(returnTo === undefined ? '/login' : `/login?return_to=${encodeURIComponent(returnTo)}`)
  return b.post('/login', { email, password, code, ...(returnTo === undefined ? {} : { return_to: returnTo }) })
}

const ann = await enrol('Ann@Example.com', 'owner')

t.test('invite → password → TOTP enrolment', async (t) => {
  t.equal(ann.shown.statusCode, 200)
  t.match(ann.shown.body, /ann@example\.com/, 'the invite page names the (normalized) email')
  t.match(ann.shown.body, /Owner/)
  t.equal(ann.set.statusCode, 200)
  t.match(ann.enrolment.uri, /^otpauth:\/\/totp\/RankRelay:ann%40example\.com\?secret=/)
  t.equal(ann.enrolment.recoveryCodes.length, 10, 'ten recovery codes, shown once')
  t.equal(ann.confirmed.statusCode, 303)
  t.equal(ann.confirmed.headers.location, '/login?enrolled=1')
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  t.match(members, [{ user_id: ann.invite.user_id, email: 'ann@example.com', role: 'owner', status: 'active' }])
  t.notOk(JSON.stringify(members).match(/hash|secret|token/), 'no credentials in the listing')
  const again = await new Browser(ts.app).get(ann.invite.invite_url)
  t.equal(again.statusCode, 404, 'a used invite link is gone')
  t.match(again.body, /invite_invalid/)
})

t.test('a wrong first code does not enrol', async (t) => {
  const invite = await ts.call<{ invite_url: string; invite_token: string }>(
    'invite_org_member',
    { email: 'wrong-code@example.com', role: 'viewer' },
    acme.key,
  )
  secrets.push(invite.invite_token)
  const b = new Browser(ts.app)
  await b.get(invite.invite_url)
  t.equal((await b.post(invite.invite_url, { password: 'short', confirm: 'short' })).statusCode, 400, 'a short password is refused')
  t.equal(
    (await b.post(invite.invite_url, { password: 'long enough password', confirm: 'different password!' })).statusCode,
    400,
    'mismatch refused',
  )
  const set = await b.post(invite.invite_url, { password: 'long enough password', confirm: 'long enough password' })
  secrets.push(...enrolmentOf(set.body).recoveryCodes)
  const wrong = await b.post(`${invite.invite_url}/confirm`, { code: '000000' })
  t.equal(wrong.statusCode, 400)
  t.match(wrong.body, /totp_code_wrong/)
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  t.equal(members.find((m) => m.email === 'wrong-code@example.com').status, 'invited')
})

t.test('sign in, the session cookie works, sign out ends it', async (t) => {
  const b = new Browser(ts.app)
  now += 30_000
  const response = await signIn(b, 'ANN@example.com ', ann.password, codeAt(ann.enrolment.secret, now))
  t.equal(response.statusCode, 303, response.body)
  t.equal(response.headers.location, '/account')
  const cookie = [response.headers['set-cookie']].flat().find((c) => String(c).startsWith('rr_session='))!
  t.ok(cookie, 'a session cookie')
  t.match(cookie, /HttpOnly/)
  t.match(cookie, /SameSite=Lax/)
  t.match(cookie, /Path=\//)
  t.notMatch(cookie, /Secure/, 'not Secure without an https BASE_URL')
  secrets.push(b.cookies.get('rr_session')!)
  const account = await b.get('/account')
  t.equal(account.statusCode, 200)
  t.match(account.body, /ann@example\.com/)

  const member = await signedInMember({ headers: { cookie: b.cookieHeader }, server: ts.app } as any)
  t.same(member, { userId: ann.invite.user_id, orgId: acme.orgId, role: 'owner', email: 'ann@example.com' }, 'signedInMember(request)')
  t.equal(await signedInMember({ headers: {}, server: ts.app } as any), null, 'no cookie: null')
  t.equal(await signedInMember({ headers: { cookie: `rr_session=${'x'.repeat(43)}` }, server: ts.app } as any), null, 'unknown token: null')

  const loggedIn = await b.get('/login?return_to=%2Faccount')
  t.equal(loggedIn.statusCode, 303, 'a signed-in person at /login goes straight back')

  const logout = await b.post('/logout', {})
  t.equal(logout.statusCode, 303)
  t.equal(logout.headers.location, '/login?signed_out=1')
  const after = await b.get('/account')
  t.equal(after.statusCode, 303, 'signed out: /account sends to /login')
  t.equal(after.headers.location, '/login?return_to=%2Faccount')
  const stale = await signedInMember({ headers: { cookie: `rr_session=${secrets.at(-1)}` }, server: ts.app } as any)
  t.equal(stale, null, 'the old session token no longer works')
})

t.test('wrong password, wrong or replayed code, unknown email: all alike', async (t) => {
  now += 60_000
  const code = codeAt(ann.enrolment.secret, now)
  const wrongPassword = await signIn(new Browser(ts.app), 'ann@example.com', 'not the password', code)
  const unknown = await signIn(new Browser(ts.app), 'nobody@example.com', 'not the password', code)
  const wrongCode = await signIn(new Browser(ts.app), 'ann@example.com', ann.password, '123456')
  for (const [label, r] of [
    ['wrong password', wrongPassword],
    ['unknown email', unknown],
    ['wrong code', wrongCode],
  ] as const) {
    t.equal(r.statusCode, 401, label)
    t.match(r.body, /sign_in_failed/, `${label}: coded message`)
  }
  const strip = (body: string) => body.replace(/name="csrf" value="[^"]+"/, '').replace(/value="[^"]*@example\.com"/, '')
  t.equal(strip(wrongPassword.body), strip(unknown.body), 'an unknown email looks exactly like a wrong password')

  const first = await signIn(new Browser(ts.app), 'ann@example.com', ann.password, code)
  t.equal(first.statusCode, 303, 'the right code signs in')
  const replay = await signIn(new Browser(ts.app), 'ann@example.com', ann.password, code)
  t.equal(replay.statusCode, 401, 'the same code (same time step) is not accepted twice')
})

t.test('a recovery code signs in once', async (t) => {
  const recovery = ann.enrolment.recoveryCodes[0]!
  const first = await signIn(new Browser(ts.app), 'ann@example.com', ann.password, recovery.toUpperCase())
  t.equal(first.statusCode, 303)
  const second = await signIn(new Browser(ts.app), 'ann@example.com', ann.password, recovery)
  t.equal(second.statusCode, 401, 'used up')
})

t.test('lock-out: 5 failures in 15 minutes lock the account for 15 minutes', async (t) => {
  const bob = await enrol('bob@example.com', 'seo_editor', 'bobs long password')
  for (let i = 0; i < 5; i++) {
    now += 1000
    t.equal((await signIn(new Browser(ts.app), 'bob@example.com', `guess number ${i}`, '000000')).statusCode, 401)
  }
  now += 30_000
  const locked = await signIn(new Browser(ts.app), 'bob@example.com', bob.password, codeAt(bob.enrolment.secret, now))
  t.equal(locked.statusCode, 401, 'the right credentials are refused while locked')
  t.match(locked.body, /locked after 5 failed attempts in 15 minutes/)
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  t.ok(members.find((m) => m.email === 'bob@example.com').locked_until, 'owners see the lock')
  const { rows } = await ts.database.pool.query(`select type from es_events where stream_name = $1 order by stream_revision`, [
    `user-${bob.invite.user_id}`,
  ])
  const types = rows.map((r: any) => r.type)
  t.equal(types.filter((x: string) => x === 'UserSignInFailed').length, 5, 'five failures recorded')
  t.ok(types.includes('UserLockedOut'), 'and the lock-out')

  now += 15 * 60_000 + 1000
  const unlocked = await signIn(new Browser(ts.app), 'bob@example.com', bob.password, codeAt(bob.enrolment.secret, now))
  t.equal(unlocked.statusCode, 303, 'after 15 minutes the right credentials work again')
})

t.test("CSRF: a POST without the token, with a wrong one, or with another browser's is refused", async (t) => {
  now += 60_000
  const form = { email: 'ann@example.com', password: ann.password, code: codeAt(ann.enrolment.secret, now) }
  const b = new Browser(ts.app)
  await b.get('/login')
  const missing = await b.post('/login', form, null)
  t.equal(missing.statusCode, 403)
  t.match(missing.body, /csrf_failed/)
  t.equal((await b.post('/login', form, 'x'.repeat(43))).statusCode, 403, 'wrong token')
  const other = new Browser(ts.app)
  await other.get('/login')
  t.equal((await b.post('/login', form, other.lastCsrf)).statusCode, 403, "another browser's token")
  const noCookie = new Browser(ts.app)
  t.equal((await noCookie.post('/login', form, b.lastCsrf)).statusCode, 403, 'a token without its cookie')
  t.equal((await new Browser(ts.app).post('/logout', {}, null)).statusCode, 403, 'logout too')
  t.equal((await new Browser(ts.app).post('/password-reset', { email: 'ann@example.com' }, null)).statusCode, 403, 'password reset too')
  t.equal((await new Browser(ts.app).post(ann.invite.invite_url, { password: 'x', confirm: 'x' }, null)).statusCode, 403, 'invite too')
  const ok = await b.post('/login', form)
  t.equal(ok.statusCode, 303, 'with the token it works')
  // After sign-in the old token (bound to no session) no longer fits: the logout form needs a fresh one.
  const staleToken = b.lastCsrf
  await b.get('/account')
  t.not(b.lastCsrf, staleToken, 'the token is bound to the session')
  t.equal((await b.post('/logout', {}, staleToken)).statusCode, 403, 'the pre-sign-in token is refused for logout')
  t.equal((await b.post('/logout', {})).statusCode, 303)
})

t.test('return_to: same-origin relative paths only', async (t) => {
  t.equal(safeReturnTo('/oauth/authorize?client_id=a&state=b'), '/oauth/authorize?client_id=a&state=b')
  const longAuthorize = `/oauth/authorize?client_id=c1&state=${'s'.repeat(2000)}&redirect_uri=${encodeURIComponent(`https://app.example/${'p'.repeat(1500)}`)}`
  t.equal(safeReturnTo(longAuthorize), longAuthorize, 'an authorize URL with a 2,000-character state survives sign-in')
  t.equal(safeReturnTo(`/${'x'.repeat(5000)}`), null, 'beyond the cap: the account page instead')
  for (const bad of [
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '/ok\nLocation: x',
    '',
    'relative/path',
    '/%2F%2Fevil',
  ]) {
    const result = safeReturnTo(bad)
    t.ok(result === null || (result.startsWith('/') && !result.startsWith('//')), `refused or kept on this origin: ${JSON.stringify(bad)}`)
  }
  t.equal(safeReturnTo('//evil.example/x'), null)
  t.equal(safeReturnTo('https://evil.example/'), null)
  t.equal(loginUrl('/oauth/authorize?x=1'), '/login?return_to=%2Foauth%2Fauthorize%3Fx%3D1')

  now += 60_000
  const back = await signIn(
    new Browser(ts.app),
    'ann@example.com',
    ann.password,
    codeAt(ann.enrolment.secret, now),
    '/oauth/authorize?client_id=c1&state=s',
  )
  t.equal(back.headers.location, '/oauth/authorize?client_id=c1&state=s', 'sent back where it came from')
  now += 60_000
  const evil = await signIn(
    new Browser(ts.app),
    'ann@example.com',
    ann.password,
    codeAt(ann.enrolment.secret, now),
    'https://evil.example/steal',
  )
  t.equal(evil.statusCode, 303)
  t.equal(evil.headers.location, '/account', 'an open-redirect attempt goes to the account page instead')
  now += 60_000
  const schemeRelative = await signIn(
    new Browser(ts.app),
    'ann@example.com',
    ann.password,
    codeAt(ann.enrolment.secret, now),
    '//evil.example/steal',
  )
  t.equal(schemeRelative.headers.location, '/account')
  const page = await new Browser(ts.app).get(`/login?return_to=${encodeURIComponent('//evil.example/')}`)
  t.notMatch(page.body, /evil/, 'an unsafe return_to is not even carried in the form')
})

t.test('return_to: dot segments that normalise into another origin are refused', async (t) => {
  // Each starts with a single '/', but URL parsing resolves its dot segments into '//host/…', which a
  // browser follows as a scheme-relative URL to another origin.
  for (const bad of [
    '/..//evil.example/phish',
    '/.//evil.example/x',
    '/a/..//evil.example/x',
    '/%2e%2e//evil.example/x',
    '/%2E%2E//evil.example/x',
    '/.%2e//evil.example/x',
    '/a/b/../..//evil.example/x',
    '/%2e//evil.example/x',
  ]) {
    t.equal(safeReturnTo(bad), null, `refused: ${bad}`)
    t.equal(loginUrl(bad), '/login', `not carried to the sign-in page: ${bad}`)
  }
  t.equal(safeReturnTo('/a/../account?x=1#f'), '/account?x=1#f', 'dot segments that stay on this origin are normalised and kept')
  t.equal(safeReturnTo('/..'), '/', 'above the root is the root')

  now += 60_000
  const phish = await signIn(
    new Browser(ts.app),
    'ann@example.com',
    ann.password,
    codeAt(ann.enrolment.secret, now),
    '/..//evil.example/phish',
  )
  t.equal(phish.statusCode, 303)
  t.equal(phish.headers.location, '/account', 'signed in, and sent to the account page, not to //evil.example')
})

t.test('password reset: single use, short-lived, stored hashed', async (t) => {
  const b = new Browser(ts.app)
  now += 60_000
  const signedIn = await signIn(b, 'ann@example.com', ann.password, codeAt(ann.enrolment.secret, now))
  t.equal(signedIn.statusCode, 303)

  await new Browser(ts.app).get('/password-reset').then(async (r) => t.equal(r.statusCode, 200))
  const requester = new Browser(ts.app)
  await requester.get('/password-reset')
  const known = await requester.post('/password-reset', { email: 'ann@example.com' })
  const unknownRequester = new Browser(ts.app)
  await unknownRequester.get('/password-reset')
  const unknown = await unknownRequester.post('/password-reset', { email: 'nobody@example.com' })
  t.equal(known.statusCode, 200)
  t.equal(known.body, unknown.body, 'the same answer for an unknown email')
  t.equal(resets.length, 1, 'one link delivered (to the configured delivery)')
  const link = resets[0]!.link
  const token = link.split('/').at(-1)!
  secrets.push(token)
  t.match(link, /^http:\/\/localhost\/password-reset\/[A-Za-z0-9_-]{43}$/, 'absolute, on the address of an app that is not listening')

  const valid = await ts.call('get_valid_password_reset', { token_hash: sha256(token) })
  t.match(valid, { user_id: ann.invite.user_id, org_id: acme.orgId, email: 'ann@example.com' })
  t.equal(await ts.call('has_recent_password_reset', { user_id: ann.invite.user_id }), true)
  t.equal(await ts.call('has_recent_password_reset', { user_id: ann.invite.user_id + 1000 }), false)
  expectError(t, await ts.rpc('get_valid_password_reset', { token_hash: sha256(token) }, acme.key), 403, 'platform_only')

  // A second request within 5 minutes is not issued (no mail flood).
  await requester.get('/password-reset')
  await requester.post('/password-reset', { email: 'ann@example.com' })
  t.equal(resets.length, 1, 'throttled')

  const user = new Browser(ts.app)
  t.equal((await user.get(link)).statusCode, 200)
  const newPassword = 'a brand new password'
  secrets.push(newPassword)
  const used = await user.post(link, { password: newPassword, confirm: newPassword })
  t.equal(used.statusCode, 303)
  t.equal(used.headers.location, '/login?reset=1')
  t.equal((await user.get(link)).statusCode, 400, 'the link is used up (GET)')
  const reuse = await user.post(link, { password: 'another new password', confirm: 'another new password' }, user.lastCsrf)
  t.equal(reuse.statusCode, 400, 'the link is used up (POST)')
  t.match(reuse.body, /password_reset_invalid/)
  t.equal(await ts.call('get_valid_password_reset', { token_hash: sha256(token) }), null, 'no longer valid')
  t.equal((await b.get('/account')).statusCode, 303, 'the reset ended the earlier session')

  now += 60_000
  t.equal(
    (await signIn(new Browser(ts.app), 'ann@example.com', ann.password, codeAt(ann.enrolment.secret, now))).statusCode,
    401,
    'old password refused',
  )
  now += 60_000
  t.equal(
    (await signIn(new Browser(ts.app), 'ann@example.com', newPassword, codeAt(ann.enrolment.secret, now))).statusCode,
    303,
    'new password works',
  )
  ann.password = newPassword

  // Expiry: a link older than 30 minutes is refused.
  now += 6 * 60_000
  await requester.get('/password-reset')
  await requester.post('/password-reset', { email: 'ann@example.com' })
  t.equal(resets.length, 2)
  const late = resets[1]!.link
  secrets.push(late.split('/').at(-1)!)
  const lateBrowser = new Browser(ts.app)
  t.equal((await lateBrowser.get(late)).statusCode, 200, 'fresh: valid')
  now += 31 * 60_000
  t.equal(
    (await lateBrowser.post(late, { password: 'too late password', confirm: 'too late password' })).statusCode,
    400,
    'expired: refused',
  )
  t.equal((await new Browser(ts.app).get(late)).statusCode, 400)
})

t.test('roles: only owner-level credentials manage members; other organizations answer like missing', async (t) => {
  const readOnly = await keyFor(ts, acme.orgId, 'read')
  expectError(
    t,
    await ts.rpc('invite_org_member', { email: 'x@example.com', role: 'viewer' }, readOnly.key),
    403,
    'insufficient_scope',
    'read-only key invites',
  )
  expectError(
    t,
    await ts.rpc('update_org_member_role', { user_id: ann.invite.user_id, role: 'viewer' }, readOnly.key),
    403,
    'insufficient_scope',
  )
  expectError(
    t,
    await ts.rpc('invite_org_member', { email: 'x@example.com', role: 'admin' }, acme.key),
    400,
    'validation_failed',
    'unknown role',
  )
  expectError(
    t,
    await ts.rpc('invite_org_member', { email: 'ANN@example.com', role: 'viewer' }, acme.key),
    409,
    'email_taken',
    'email unique, case-insensitively',
  )
  // Another organization's invite neither sees nor blocks Acme's member (test/http/people-cross-org.test.ts).
  const elsewhere = await ts.call<{ user_id: number; invite_token: string }>(
    'invite_org_member',
    { email: 'ann@example.com', role: 'viewer' },
    other.key,
  )
  secrets.push(elsewhere.invite_token)
  t.not(elsewhere.user_id, ann.invite.user_id, 'another organization invites the address as a person of its own')

  const viewer = await ts.call<{ user_id: number; invite_token: string }>(
    'invite_org_member',
    { email: 'vic@example.com', role: 'viewer' },
    acme.key,
  )
  secrets.push(viewer.invite_token)
  t.same(await ts.call('update_org_member_role', { user_id: viewer.user_id, role: 'web_builder' }, acme.key), {
    user_id: viewer.user_id,
    email: 'vic@example.com',
    role: 'web_builder',
  })

  const missing = expectError(t, await ts.rpc('update_org_member_role', { user_id: 999_999, role: 'viewer' }, other.key), 404, 'not_found')
  const foreign = expectError(
    t,
    await ts.rpc('update_org_member_role', { user_id: viewer.user_id, role: 'viewer' }, other.key),
    404,
    'not_found',
  )
  t.same(
    { ...foreign, detail: undefined, request_id: undefined },
    { ...missing, detail: undefined, request_id: undefined },
    "another organization's member answers like a missing one",
  )
  t.match(foreign.detail, /member \d+ not found/)
  expectError(t, await ts.rpc('remove_org_member', { user_id: viewer.user_id }, other.key), 404, 'not_found')
  t.notOk(
    (await ts.call<any[]>('list_org_members', {}, other.key)).some((m) => m.email === 'vic@example.com'),
    'not listed for the other organization',
  )
  expectError(t, await ts.rpc('list_org_members', {}, ts.platformKey), 400, 'org_id_required')
  t.ok((await ts.call<any[]>('list_org_members', { org_id: acme.orgId })).length >= 3, 'a platform key names the organization')

  t.same(await ts.call('remove_org_member', { user_id: viewer.user_id }, acme.key), { user_id: viewer.user_id, removed: true })
  expectError(t, await ts.rpc('remove_org_member', { user_id: viewer.user_id }, acme.key), 404, 'not_found', 'removed: gone')
  t.notOk((await ts.call<any[]>('list_org_members', {}, acme.key)).some((m) => m.email === 'vic@example.com'))
  const again = await ts.call<{ user_id: number; invite_token: string }>(
    'invite_org_member',
    { email: 'vic@example.com', role: 'viewer' },
    acme.key,
  )
  secrets.push(again.invite_token)
  t.not(again.user_id, viewer.user_id, 'a removed email can be invited again, as a new user')
  t.equal((await new Browser(ts.app).get(`/invite/${viewer.invite_token}`)).statusCode, 404, "the removed member's invite is dead")
})

t.test('removing a signed-in member ends their session', async (t) => {
  const carl = await enrol('carl@example.com', 'web_builder', 'carls long password')
  const b = new Browser(ts.app)
  now += 60_000
  t.equal((await signIn(b, 'carl@example.com', carl.password, codeAt(carl.enrolment.secret, now))).statusCode, 303)
  t.equal((await b.get('/account')).statusCode, 200)
  await ts.call('remove_org_member', { user_id: carl.invite.user_id }, acme.key)
  t.equal((await b.get('/account')).statusCode, 303, 'the session ended with the membership')
  now += 60_000
  t.equal(
    (await signIn(new Browser(ts.app), 'carl@example.com', carl.password, codeAt(carl.enrolment.secret, now))).statusCode,
    401,
    'and cannot sign in',
  )
})

t.test('pages: plain HTML with no external assets, framing refused, nothing cached', async (t) => {
  const r = await new Browser(ts.app).get('/login')
  t.match(r.headers['content-type'], /text\/html/)
  t.equal(r.headers['cache-control'], 'no-store')
  t.equal(r.headers['x-frame-options'], 'DENY')
  t.match(r.headers['content-security-policy'], /default-src 'none'/)
  t.notMatch(r.body, /<script|<link |src="http/, 'no scripts or external assets')
  t.match(r.body, /<label for="email">/, 'labelled inputs')
})

t.test('GET /api/v1/db/org_members: own organization only, no digests; token tables unreadable', async (t) => {
  const get = (url: string, key: string) => ts.app.inject({ url, headers: { authorization: `Bearer ${key}` } })
  const mine = await get('/api/v1/db/org_members', acme.key)
  t.equal(mine.statusCode, 200, mine.body)
  const rows = mine.json().rows as any[]
  t.ok(rows.length > 0 && rows.every((r) => r.org_id === acme.orgId), 'only Acme members')
  t.notMatch(mine.body, /hash|secret|token/)
  t.same(
    (await get('/api/v1/db/org_members', other.key)).json().rows.filter((r: any) => r.org_id === acme.orgId),
    [],
    'Other sees none of them',
  )
  for (const table of ['user_sessions', 'member_invites', 'password_resets'])
    t.equal((await get(`/api/v1/db/${table}`, acme.key)).statusCode, 404, `${table} is not readable`)
})

t.test('a session lasts 12 hours from sign-in', async (t) => {
  const b = new Browser(ts.app)
  now += 60_000
  t.equal((await signIn(b, 'ann@example.com', ann.password, codeAt(ann.enrolment.secret, now))).statusCode, 303)
  now += 12 * 60 * 60_000 - 60_000
  t.equal((await b.get('/account')).statusCode, 200, 'a minute before the end: still signed in')
  now += 2 * 60_000
  t.equal((await b.get('/account')).statusCode, 303, 'after 12 hours: sent to /login')
})

t.test('interpolated values are escaped', async (t) => {
  const r = await new Browser(ts.app).get(`/login?return_to=${encodeURIComponent('/x"><script>alert(1)</script>')}`)
  t.equal(r.statusCode, 200)
  t.notMatch(r.body, /<script/, 'no markup from the query reaches the page')
  t.match(r.body, /name="return_to" value="\/x%22%3E%3Cscript%3E/, 'kept as an encoded path')
  const { html, escapeHtml } = await import('../../read-api/people/html.js')
  t.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
  t.equal(html`<p title="${'"><b>'}">${'<i>'}</p>`.text, '<p title="&quot;&gt;&lt;b&gt;">&lt;i&gt;</p>')
})

t.test('with an https BASE_URL the cookies are Secure and __Host- prefixed', async (t) => {
  let secureNow = Date.parse('2026-11-25T12:00:00.000Z')
  const secure = await startTestSystem(t, { clock: () => new Date(secureNow), publicDocs: { baseUrl: 'https://rankrelay.example.com' } })
  const org = await orgWithKey(secure, 'Secure')
  const invite = await secure.call<{ invite_url: string }>('invite_org_member', { email: 'sec@example.com', role: 'owner' }, org.key)
  t.match(invite.invite_url, /^https:\/\/rankrelay\.example\.com\/invite\//, 'an absolute invite link')
  const path = new URL(invite.invite_url).pathname
  const b = new Browser(secure.app)
  const shown = await b.get(path)
  t.match(
    [shown.headers['set-cookie']].flat().join('\n'),
    /^__Host-rr_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/m,
    'the CSRF cookie',
  )
  const enrolment = enrolmentOf((await b.post(path, { password: 'a secure password', confirm: 'a secure password' })).body)
  secureNow += 30_000
  t.equal((await b.post(`${path}/confirm`, { code: codeAt(enrolment.secret, secureNow) })).statusCode, 303)
  secureNow += 30_000
  await b.get('/login')
  const signedIn = await b.post('/login', {
    email: 'sec@example.com',
    password: 'a secure password',
    code: codeAt(enrolment.secret, secureNow),
  })
  t.equal(signedIn.statusCode, 303)
  t.match(
    [signedIn.headers['set-cookie']].flat().join('\n'),
    /^__Host-rr_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=43200$/m,
    'the session cookie',
  )
  t.equal((await b.get('/account')).statusCode, 200)
})

t.test('while writes are switched off, the sign-in forms answer 503 pages', async (t) => {
  const { setWritesState } = await import('../../read-api/platform/writes-switch.js')
  const b = new Browser(ts.app)
  await b.get('/login')
  await setWritesState(ts.system.database.db, false, { reason: 'upgrade', changedBy: 'test' })
  t.teardown(() => setWritesState(ts.system.database.db, true, { changedBy: 'test' }))
  let paused = await b.post('/login', { email: 'ann@example.com', password: ann.password, code: '000000' })
  for (let i = 0; i < 50 && paused.statusCode !== 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    paused = await b.post('/login', { email: 'ann@example.com', password: ann.password, code: '000000' })
  }
  t.equal(paused.statusCode, 503)
  t.match(paused.body, /writes_disabled/)
  t.equal(paused.headers['retry-after'], '30')
  await setWritesState(ts.system.database.db, true, { changedBy: 'test' })
})

t.test('no secret in any event', async (t) => {
  const { rows } = await ts.database.pool.query<{ text: string }>(
    `select stream_name || data::text || metadata::text as text from es_events`,
  )
  const log = rows.map((r) => r.text).join('\n')
  t.ok(secrets.length > 20, `checked ${secrets.length} secrets`)
  for (const secret of secrets) t.notOk(log.includes(secret), `not in the log: ${secret.slice(0, 4)}…`)
  t.match(log, /"password_hash": ?"scrypt\$/, 'passwords as scrypt hashes')
  t.match(log, /"totp_secret_sealed": ?"v1\./, 'TOTP secrets sealed')
})
