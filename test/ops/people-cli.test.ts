/**
 * `npm run ops -- create-user` and `reset-password` from the real CLI against a running service: the printed
 * password and otpauth:// secret complete a first sign-in over real HTTP (GET /login for the CSRF token, POST
 * /login, then the session cookie opens /account), and a printed reset link opens its page.
 */
import t from 'tap'
import { secretOfOtpauthUri, totp } from '../../commands/secrets/totp.js'
import { call, sandbox, type Sandbox, type Served } from './spawn.js'

/** Cookies a fetch response sets, as one Cookie header (name=value pairs). */
const cookiesOf = (response: Response, jar: Map<string, string>) => {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = pair!.indexOf('=')
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
}

t.test('create-user prints what a first sign-in needs, and it works', async (t) => {
  const box: Sandbox = await sandbox(t)
  const served: Served = await box.serve()
  const url = served.baseUrl
  const orgId = await call<number>(url, 'create_organization', { name: 'First Owner Agency' }, served.mintedKey!)

  const [usage, created] = await Promise.all([
    box.run(['create-user', '--email', 'x@example.com']),
    box.run(['create-user', '--org', String(orgId), '--email', 'Owner@Example.com']),
  ])
  t.equal(usage.code, 2, 'no --org: a usage error')
  t.match(usage.stderr, /create-user needs --org/)
  t.equal(created.code, 0, created.stderr)
  const out = created.stdout
  t.match(out, new RegExp(`^User \\d+ created: owner@example\\.com, owner of organization ${orgId}\\.`))
  const password = /^Password: (\S+)$/m.exec(out)?.[1]
  const uri = /^TOTP \(add to an authenticator app\): (otpauth:\/\/totp\/\S+)$/m.exec(out)?.[1]
  const recovery = [...out.matchAll(/^ {2}([a-z0-9]{5}-[a-z0-9]{5})$/gm)].map((m) => m[1])
  t.ok(password && password.length >= 20, 'a generated password')
  t.ok(uri, 'the otpauth URI')
  t.equal(recovery.length, 10, 'ten recovery codes')
  t.notOk(created.stderr.includes(password!), 'the password is not logged')

  const taken = await box.run([
    'create-user',
    '--org',
    String(orgId),
    '--email',
    'owner@example.com',
    '--password',
    'a long enough password',
  ])
  t.equal(taken.code, 1, 'the same email again: exit 1')
  t.match(taken.stderr, /A user with this email already exists/)
  t.notMatch(taken.stderr, /\n\s+at /, 'a message, not a stack trace')

  // The first sign-in, over real HTTP against the service (which opens the TOTP secret with the same key).
  const jar = new Map<string, string>()
  const form = await fetch(`${url}/login`)
  let cookie = cookiesOf(form, jar)
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!
  const code = totp(secretOfOtpauthUri(uri!), Date.now())
  const signedIn = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf, email: 'owner@example.com', password: password!, code }).toString(),
  })
  t.equal(signedIn.status, 303, 'signed in')
  cookie = cookiesOf(signedIn, jar)
  const account = await fetch(`${url}/account`, { headers: { cookie }, redirect: 'manual' })
  t.equal(account.status, 200)
  t.match(await account.text(), /owner@example\.com/)

  const reset = await box.run(['reset-password', '--email', 'owner@example.com'])
  t.equal(reset.code, 0, reset.stderr)
  const link = /(\/password-reset\/[A-Za-z0-9_-]{43})\n$/.exec(reset.stdout)?.[1]
  t.ok(link, `a reset link: ${reset.stdout}`)
  t.equal((await fetch(`${url}${link}`)).status, 200, 'the link opens the new-password page')
  const unknown = await box.run(['reset-password', '--email', 'nobody@example.com'])
  t.equal(unknown.code, 1)
})
