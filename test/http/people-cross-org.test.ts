/**
 * An invite neither reveals nor reserves an address outside the inviting organization:
 * another organization's invite of a member's address answers exactly like an invite of a fresh address, two
 * organizations can invite the same address, and a pending invite blocks neither another organization's
 * invite, nor the operator's create-user, nor an SSO provisioning. The sign-in email stays unambiguous: the
 * first invite accepted (or account made) takes the address, and a later acceptance elsewhere is refused.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { createUserWithCredentials } from '../../commands/people.js'
import { completeSsoSignIn } from '../../commands/sso.js'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'
import { Browser, codeAt, enrolmentOf } from './people-support.js'
import { TEST_SERVICE_KEY } from './webhooks-helpers.js'

let now = Date.parse('2026-11-25T12:00:00.000Z')
const ts = await startTestSystem(t, { clock: () => new Date(now), webhooks: { serviceKey: TEST_SERVICE_KEY } })
const acme = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const third = await orgWithKey(ts, 'Third')

/** An invite's answer with what differs between any two invites (ids, tokens, the address itself) taken out. */
const shapeOf = (response: { statusCode: number; headers: Record<string, unknown>; json(): any }) => {
  const body = response.json()
  const result = body.result ?? {}
  return {
    status: response.statusCode,
    contentType: response.headers['content-type'],
    keys: Object.keys(body).sort(),
    resultKeys: Object.keys(result).sort(),
    role: result.role,
    memberStatus: result.status,
    error: body.code,
  }
}

const invite = (email: string, key: string) => ts.rpc('invite_org_member', { email, role: 'viewer' }, key)

/** Follows an invite link: sets the password, then confirms the first TOTP code. Answers both pages. */
async function accept(inviteUrl: string, password = 'correct horse battery') {
  const b = new Browser(ts.app)
  await b.get(inviteUrl)
  const set = await b.post(inviteUrl, { password, confirm: password })
  if (set.statusCode !== 200) return { set, confirmed: null }
  const enrolment = enrolmentOf(set.body)
  now += 30_000
  const confirmed = await b.post(`${inviteUrl}/confirm`, { code: codeAt(enrolment.secret, now) })
  return { set, confirmed }
}

const members = async (key: string) => ts.call<{ user_id: number; email: string; status: string }[]>('list_org_members', {}, key)

t.test('two organizations invite the same address: both succeed, answered like a fresh address', async (t) => {
  const fresh = await invite('fresh-one@example.com', other.key)
  const first = await invite('shared@example.com', acme.key)
  const second = await invite('Shared@Example.com', other.key)
  t.equal(first.statusCode, 200, first.body)
  t.equal(second.statusCode, 200, `the second organization's invite succeeds too: ${second.body}`)
  t.same(shapeOf(second), shapeOf(fresh), 'answered exactly like an invite of an address nobody has')
  t.equal(second.json().result.email, 'shared@example.com')
  t.ok((await members(acme.key)).some((m) => m.email === 'shared@example.com' && m.status === 'invited'))
  t.ok((await members(other.key)).some((m) => m.email === 'shared@example.com' && m.status === 'invited'))
  // Within one organization an address is still one member: that is the organization's own business.
  expectError(t, await invite('SHARED@example.com', acme.key), 409, 'email_taken', 'the same organization again')
})

t.test("another organization's member cannot be probed through an invite, nor have their sign-in taken", async (t) => {
  const ann = (await invite('ann@example.com', acme.key)).json().result
  const enrolled = await accept(ann.invite_url, 'anns long password')
  t.equal(enrolled.confirmed?.statusCode, 303, 'Ann is an active member of Acme')

  const fresh = await invite('fresh-two@example.com', other.key)
  const probe = await invite('ANN@example.com', other.key)
  t.same(shapeOf(probe), shapeOf(fresh), "inviting Acme's member answers exactly like inviting a fresh address")
  t.notOk(
    (await members(other.key)).some((m) => m.status === 'active' && m.email === 'ann@example.com'),
    'nothing of Acme shows in Other',
  )

  // The address already signs in to Ann's account: Other's invite cannot become a second account with it.
  const taken = await accept(probe.json().result.invite_url, 'someone elses password')
  t.equal(taken.set.statusCode, 409, 'accepting is refused')
  t.match(taken.set.body, /email_taken/)
  const b = new Browser(ts.app)
  await b.get('/login')
  now += 30_000
  const signIn = await b.post('/login', { email: 'ann@example.com', password: 'someone elses password', code: '000000' })
  t.not(signIn.statusCode, 303, 'the refused password signs nobody in')
  t.ok(
    (await members(acme.key)).some((m) => m.email === 'ann@example.com' && m.status === 'active'),
    "Ann's membership is untouched",
  )
})

t.test('a pending invite reserves nothing outside its organization', async (t) => {
  // Acme invites Bob and he does not answer; Other invites him too, and he joins Other.
  const acmeBob = (await invite('bob@example.com', acme.key)).json().result
  const otherBob = await invite('bob@example.com', other.key)
  t.equal(otherBob.statusCode, 200, 'Acme’s pending invite does not block Other')
  t.equal((await accept(otherBob.json().result.invite_url)).confirmed?.statusCode, 303, 'Bob joins Other')
  t.ok((await members(other.key)).some((m) => m.email === 'bob@example.com' && m.status === 'active'))
  const late = await accept(acmeBob.invite_url)
  t.equal(late.set.statusCode, 409, "Acme's invite can no longer be accepted: the address signs in to Bob's account")

  // The operator's create-user and an SSO provisioning are not blocked by another organization's invite.
  await invite('carol@example.com', acme.key)
  const created = await createUserWithCredentials({ ...ts.system.write, serviceKey: TEST_SERVICE_KEY }, systemContext('test'), {
    orgId: third.orgId,
    email: 'carol@example.com',
    role: 'viewer',
  })
  t.equal(created.orgId, third.orgId, 'create-user makes Carol a member of Third')

  await invite('dave@sso.example', acme.key)
  const provisioned = await completeSsoSignIn(ts.system.write, {
    provider: {
      protocol: 'oidc',
      providerId: 1,
      rules: {
        orgId: third.orgId,
        allowedDomains: ['sso.example'],
        defaultRole: 'viewer',
        hostedDomain: '',
        allowSignup: false,
        publicSignup: false,
      },
    },
    subject: 'dave-subject',
    identity: { email: 'dave@sso.example', emailVerified: true, hostedDomain: undefined },
    requestId: null,
  })
  t.match(provisioned, { ok: true, orgId: third.orgId, provisioned: 'allowed_domain' }, 'SSO provisions Dave into Third')
})

t.test("an SSO sign-in takes up its own organization's pending invite, not another's", async (t) => {
  const acmeErin = (await invite('erin@sso.example', acme.key)).json().result
  await invite('erin@sso.example', other.key)
  const signedIn = await completeSsoSignIn(ts.system.write, {
    provider: {
      protocol: 'oidc',
      providerId: 2,
      rules: { orgId: acme.orgId, allowedDomains: [], defaultRole: 'viewer', hostedDomain: '', allowSignup: false, publicSignup: false },
    },
    subject: 'erin-subject',
    identity: { email: 'erin@sso.example', emailVerified: true, hostedDomain: undefined },
    requestId: null,
  })
  t.match(signedIn, { ok: true, userId: acmeErin.user_id, orgId: acme.orgId, provisioned: null }, "Acme's provider signs in Acme's invitee")
})
