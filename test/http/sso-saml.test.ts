/**
 * SAML 2.0 single sign-on end to end: the service listening on 127.0.0.1, a real signing IdP (samlify's
 * signer, test/http/saml-idp-support.ts) on 127.0.0.1, and fetch with a cookie jar walking every hop:
 * /saml/<key>/login → the IdP's HTTP-Redirect endpoint → its auto-post page → POST /saml/<key>/acs → /account.
 * A good login (assertion, response or both signed; provisioning; an existing member; the email attribute),
 * and a refusal for each thing the issue names: a bad signature, signature wrapping, the wrong key, wrong
 * audience, recipient, destination and issuer, expired conditions, a replayed assertion, an unknown
 * InResponseTo, an unsolicited response when not allowed, an encrypted assertion; and the request's own
 * rules (10 minutes, single use, this browser). Then the RPCs, the SP metadata, /login/sso and the log.
 */
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, withoutIds } from './helpers.js'
import { setInvitePassword } from './people-support.js'
import { CookieBrowser } from './sso-oidc-support.js'
import { ATTACKER_NAME_ID, samlFixtures, startSamlIdp, type ResponseOptions } from './saml-idp-support.js'

let offsetMs = 0
const clock = () => new Date(Date.now() + offsetMs)
const ts = await startTestSystem(t, { clock })
await ts.app.listen({ host: '127.0.0.1', port: 0 })
const app = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
const acme = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const idp = await startSamlIdp()
t.teardown(() => idp.close())

const provider = await ts.call<any>(
  'add_org_saml_provider',
  { label: 'Acme Okta', metadata_xml: idp.metadataXml, allowed_domains: ['acme.test'], default_role: 'seo_editor' },
  acme.key,
)
const absolute = (path: string) => new URL(path, app).href
const acsOf = (p: any) => absolute(p.acs_url)
const entityOf = (p: any) => absolute(p.sp_entity_id)

interface Hop {
  readonly browser: CookieBrowser
  /** The auto-post page's form, as the IdP sent it. */
  readonly form: { action: string; fields: Record<string, string> }
  readonly acs: Response
  readonly body: string
}

const postForm = (browser: CookieBrowser, action: string, fields: Record<string, string>) =>
  browser.fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })

/** One SP-initiated sign-in, hop by hop; `options` choose what the IdP signs (and how it breaks it). */
async function samlSignIn(
  nameId: string,
  options: {
    provider?: any
    browser?: CookieBrowser
    response?: Partial<ResponseOptions>
    attributes?: Record<string, string>
    returnTo?: string
    beforeAcs?: () => void
  } = {},
): Promise<Hop> {
  const browser = options.browser ?? new CookieBrowser()
  const p = options.provider ?? provider
  const start = await browser.fetch(
    absolute(`${p.login_url}${options.returnTo ? `?return_to=${encodeURIComponent(options.returnTo)}` : ''}`),
  )
  if (start.status !== 303) throw new Error(`login answered ${start.status}: ${await start.text()}`)
  idp.signInAs({ nameId, ...(options.attributes ? { attributes: options.attributes } : {}) }, options.response ?? {})
  const page = await browser.fetch(start.headers.get('location')!)
  const html = await page.text()
  if (page.status !== 200) throw new Error(`the IdP answered ${page.status}: ${html}`)
  const action = html.match(/<form method="post" action="([^"]+)"/)![1]!.replace(/&amp;/g, '&')
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]),
  )
  options.beforeAcs?.()
  const acs = await postForm(browser, action, fields)
  return { browser, form: { action, fields }, acs, body: acs.status === 303 ? '' : await acs.text() }
}

async function account(browser: CookieBrowser) {
  const response = await browser.fetch(`${app}/account`)
  return { status: response.status, body: await response.text() }
}

async function failures() {
  const { rows } = await ts.database.pool.query(`select data from es_events where type = 'SsoSignInFailed' order by global_position`)
  return rows.map((r) => r.data)
}

async function expectRefused(t: Test, hop: Pick<Hop, 'acs' | 'body' | 'browser'>, reason: string, kind: 'identity' | 'state' = 'identity') {
  t.equal(hop.acs.status, kind === 'state' ? 400 : 403, `${reason}: refused`)
  t.match(hop.body, kind === 'state' ? /sso_state_invalid/ : /sso_sign_in_refused/)
  t.notOk(hop.browser.cookies.has('rr_session'), 'no session')
  const last = (await failures()).at(-1)
  t.match(last, { reason, provider_id: provider.id, protocol: 'saml' }, `recorded as ${reason}`)
  return last
}

t.test('the AuthnRequest: HTTP-Redirect to the IdP, our entity id and ACS URL, bound to this browser', async (t) => {
  const browser = new CookieBrowser()
  const start = await browser.fetch(absolute(provider.login_url))
  t.equal(start.status, 303)
  const location = new URL(start.headers.get('location')!)
  t.equal(location.origin + location.pathname, idp.ssoUrl)
  t.ok(location.searchParams.get('SAMLRequest'), 'a deflated, base64 AuthnRequest in the query')
  t.ok(browser.cookies.has('rr_saml'), 'the browser-binding cookie')
  idp.signInAs({ nameId: 'nobody@acme.test' })
  await browser.fetch(location.href)
  const received = idp.requests.at(-1)!
  t.equal(received.issuer, entityOf(provider), 'Issuer: the SP entity id')
  t.equal(received.acsUrl, acsOf(provider), 'AssertionConsumerServiceURL: our ACS')
  t.equal(received.destination, idp.ssoUrl)
  t.match(received.id, /^_[0-9a-f]{42}$/)
  t.match(received.xml, /ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"/)
  const { rows } = await ts.database.pool.query(`select * from saml_login_requests where request_id = $1`, [received.id])
  t.equal(rows.length, 1, 'the request id is recorded for InResponseTo')
  t.equal((await new CookieBrowser().fetch(`${app}/saml/${'a'.repeat(24)}/login`)).status, 404, 'an unknown provider key')
})

t.test('a new staff member on an allowed domain signs in, provisioned with the default role; return_to honoured', async (t) => {
  const hop = await samlSignIn('newbie@acme.test', { returnTo: '/account?from=saml' })
  t.equal(hop.acs.status, 303, hop.body)
  t.equal(hop.acs.headers.get('location'), '/account?from=saml')
  t.ok(hop.browser.cookies.has('rr_session'), 'a session cookie like /login issues')
  const page = await account(hop.browser)
  t.equal(page.status, 200)
  t.match(page.body, /newbie@acme\.test/)
  t.match(page.body, /SEO editor of organization/)
  const members = await ts.call<any[]>('list_org_members', {}, acme.key)
  const newbie = members.find((m) => m.email === 'newbie@acme.test')
  t.match(newbie, { role: 'seo_editor', status: 'active' })
  const { rows } = await ts.database.pool.query(`select type, data from es_events where stream_name = $1 order by stream_revision`, [
    `user-${newbie.user_id}`,
  ])
  t.same(
    rows.map((r) => r.type),
    ['OrgMemberProvisionedBySso', 'UserSignedInWithSso'],
  )
  t.match(rows[0].data, { provider_id: provider.id, protocol: 'saml', via: 'allowed_domain', role: 'seo_editor' })
  t.match(rows[1].data, { provider_id: provider.id, protocol: 'saml', subject: 'newbie@acme.test' })
})

t.test('signed Response, signed Response and Assertion: both accepted; an existing member keeps their role', async (t) => {
  await ts.call('invite_org_member', { email: 'ann@acme.test', role: 'viewer' }, acme.key)
  for (const sign of ['response', 'both'] as const) {
    const hop = await samlSignIn('Ann@Acme.test', { response: { sign } })
    t.equal(hop.acs.status, 303, `${sign}: ${hop.body}`)
    t.match((await account(hop.browser)).body, /Viewer of organization/, `${sign}: the invited member, in with their role`)
  }
  t.equal((await ts.call<any[]>('list_org_members', {}, acme.key)).filter((m) => m.email === 'ann@acme.test').length, 1, 'no second user')
})

t.test('refusals', async (t) => {
  await t.test('a bad signature (the signed NameID changed after signing)', async (t) => {
    for (const sign of ['assertion', 'response'] as const) {
      const failure = await expectRefused(
        t,
        await samlSignIn('newbie@acme.test', { response: { tamper: 'bad_signature', sign } }),
        'signature_invalid',
      )
      t.match(failure.detail, /signature/i)
    }
  })
  await t.test('signed by another key (KeyInfo carries the attacker certificate)', async (t) => {
    await expectRefused(t, await samlSignIn('newbie@acme.test', { response: { tamper: 'attacker_key' } }), 'signature_invalid')
  })
  await t.test('signature wrapping: the genuine signed assertion moved under an evil one', async (t) => {
    const hop = await samlSignIn('newbie@acme.test', { response: { tamper: 'wrapping' } })
    const failure = await expectRefused(t, hop, 'saml_response_invalid')
    t.match(failure.detail, /exactly one Assertion, found 2/)
    t.notOk(
      (await ts.call<any[]>('list_org_members', {}, acme.key)).some((m) => m.email === ATTACKER_NAME_ID),
      'nobody signed in as the attacker',
    )
  })
  await t.test('wrong audience', async (t) => {
    await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', { response: { audience: 'https://another-sp.example/metadata' } }),
      'audience_mismatch',
    )
  })
  await t.test('wrong recipient', async (t) => {
    const failure = await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', { response: { recipient: 'https://another-sp.example/acs' } }),
      'recipient_mismatch',
    )
    t.match(failure.detail, /another-sp/)
  })
  await t.test('wrong destination (on a signed Response, and on an unsigned envelope)', async (t) => {
    for (const sign of ['response', 'assertion'] as const) {
      await expectRefused(
        t,
        await samlSignIn('newbie@acme.test', { response: { destination: 'https://another-sp.example/acs', sign } }),
        'destination_mismatch',
      )
    }
  })
  await t.test('wrong issuer', async (t) => {
    await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', { response: { issuer: 'https://evil-idp.example/metadata' } }),
      'issuer_mismatch',
    )
  })
  await t.test('expired conditions; not yet valid; an expired subject confirmation', async (t) => {
    const past = new Date(Date.now() - 10 * 60_000)
    await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', { response: { notBefore: new Date(Date.now() - 20 * 60_000), notOnOrAfter: past } }),
      'assertion_expired',
    )
    await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', {
        response: { notBefore: new Date(Date.now() + 10 * 60_000), notOnOrAfter: new Date(Date.now() + 20 * 60_000) },
      }),
      'assertion_not_yet_valid',
    )
    await expectRefused(t, await samlSignIn('newbie@acme.test', { response: { subjectNotOnOrAfter: past } }), 'assertion_expired')
  })
  await t.test('within the clock skew (the IdP 30 seconds behind) still signs in', async (t) => {
    const hop = await samlSignIn('newbie@acme.test', {
      response: { notOnOrAfter: new Date(Date.now() - 30_000), subjectNotOnOrAfter: new Date(Date.now() - 30_000) },
    })
    t.equal(hop.acs.status, 303, hop.body)
  })
  await t.test('a replayed assertion', async (t) => {
    const first = await samlSignIn('newbie@acme.test')
    t.equal(first.acs.status, 303, 'the first post signs in')
    const again = new CookieBrowser()
    for (const [name, value] of first.browser.cookies) if (name !== 'rr_session') again.cookies.set(name, value)
    const replay = await postForm(again, first.form.action, first.form.fields)
    await expectRefused(t, { acs: replay, body: await replay.text(), browser: again }, 'assertion_replayed')
  })
  await t.test('an unknown InResponseTo', async (t) => {
    await expectRefused(
      t,
      await samlSignIn('newbie@acme.test', { response: { inResponseTo: '_a-request-this-service-never-issued' } }),
      'in_response_to_unknown',
      'state',
    )
  })
  await t.test('an unsolicited response when the provider does not allow it', async (t) => {
    await expectRefused(t, await samlSignIn('newbie@acme.test', { response: { inResponseTo: null } }), 'unsolicited_response')
  })
  await t.test('an encrypted assertion, with a clear reason', async (t) => {
    const failure = await expectRefused(t, await samlSignIn('newbie@acme.test', { response: { encrypt: true } }), 'assertion_encrypted')
    t.match(failure.detail, /encrypted assertions are not supported/)
  })
  await t.test('the request expired (the service clock 11 minutes on)', async (t) => {
    const hop = await samlSignIn('newbie@acme.test', {
      // The assertion itself stays valid: the IdP's clock moves with ours.
      response: { notOnOrAfter: new Date(Date.now() + 20 * 60_000), subjectNotOnOrAfter: new Date(Date.now() + 20 * 60_000) },
      beforeAcs: () => {
        offsetMs = 11 * 60_000
      },
    })
    offsetMs = 0
    await expectRefused(t, hop, 'state_expired', 'state')
  })
  await t.test('a response reaching another browser', async (t) => {
    const browser = new CookieBrowser()
    const start = await browser.fetch(absolute(provider.login_url))
    idp.signInAs({ nameId: 'newbie@acme.test' })
    const html = await (await browser.fetch(start.headers.get('location')!)).text()
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    )
    // The IdP's page reaches a browser that never started this sign-in (login CSRF, a leaked form).
    const elsewhere = new CookieBrowser()
    const response = await postForm(elsewhere, acsOf(provider), fields)
    await expectRefused(t, { acs: response, body: await response.text(), browser: elsewhere }, 'browser_mismatch', 'state')
  })
  await t.test('a domain not allowed; another organization’s member: the same page', async (t) => {
    const outsider = await samlSignIn('someone@elsewhere.test')
    await expectRefused(t, outsider, 'domain_not_allowed')
    // Bob has an account in Other (an invite alone reserves the address only in Other).
    const invited = await ts.call<{ invite_url: string }>('invite_org_member', { email: 'bob@other.test', role: 'owner' }, other.key)
    t.equal((await setInvitePassword(ts.app, invited.invite_url)).statusCode, 200, 'Bob accepts the invite')
    const bob = await samlSignIn('bob@other.test')
    await expectRefused(t, bob, 'account_unavailable')
    t.equal(
      bob.body.replace(/<input[^>]*>/g, ''),
      outsider.body.replace(/<input[^>]*>/g, ''),
      'the page is the same whether or not the account exists',
    )
  })
  await t.test('garbage in the form', async (t) => {
    const browser = new CookieBrowser()
    for (const body of [
      'SAMLResponse=not-base64!!',
      `SAMLResponse=${Buffer.from('<x/>').toString('base64')}`,
      `SAMLResponse=${Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>').toString('base64')}`,
      'nothing=here',
    ]) {
      const response = await browser.fetch(acsOf(provider), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      t.equal(response.status, 403, body.slice(0, 30))
      t.equal((await failures()).at(-1).reason, 'saml_response_invalid')
    }
  })
})

t.test('IdP-initiated (unsolicited) responses when the provider allows them; the email from an attribute', async (t) => {
  const open = await ts.call<any>(
    'add_org_saml_provider',
    { label: 'Acme ADFS', metadata_xml: idp.metadataXml, allowed_domains: ['acme.test'], allow_unsolicited: true, email_attribute: 'mail' },
    acme.key,
  )
  const browser = new CookieBrowser()
  const samlResponse = idp.response({
    acsUrl: acsOf(open),
    audience: entityOf(open),
    nameId: 'opaque-id-42',
    attributes: { mail: 'Dora@acme.test' },
    inResponseTo: null,
  })
  const response = await postForm(browser, acsOf(open), { SAMLResponse: samlResponse, RelayState: '/account?from=idp' })
  t.equal(response.status, 303, await response.clone().text())
  t.equal(response.headers.get('location'), '/account?from=idp', 'a local RelayState is where the person lands')
  t.match((await account(browser)).body, /dora@acme\.test/)
  const replay = await postForm(new CookieBrowser(), acsOf(open), { SAMLResponse: samlResponse })
  t.equal(replay.status, 403, 'the same unsolicited response twice: a replay')
  t.equal((await failures()).at(-1).reason, 'assertion_replayed')
  const offsite = await postForm(new CookieBrowser(), acsOf(open), {
    SAMLResponse: idp.response({
      acsUrl: acsOf(open),
      audience: entityOf(open),
      nameId: 'x',
      attributes: { mail: 'dora@acme.test' },
      inResponseTo: null,
    }),
    RelayState: 'https://evil.example/',
  })
  t.equal(offsite.headers.get('location'), '/account', 'an off-site RelayState is ignored')
  // Dot segments that normalise into '//evil.example/…': the same guard as return_to.
  const dotted = await postForm(new CookieBrowser(), acsOf(open), {
    SAMLResponse: idp.response({
      acsUrl: acsOf(open),
      audience: entityOf(open),
      nameId: 'y',
      attributes: { mail: 'dora@acme.test' },
      inResponseTo: null,
    }),
    RelayState: '/..//evil.example/phish',
  })
  t.equal(dotted.status, 303)
  t.equal(dotted.headers.get('location'), '/account', 'a RelayState that normalises to another origin is ignored')
  const missing = await postForm(new CookieBrowser(), acsOf(open), {
    SAMLResponse: idp.response({ acsUrl: acsOf(open), audience: entityOf(open), nameId: 'dora@acme.test', inResponseTo: null }),
  })
  t.equal(missing.status, 403, 'no mail attribute: no email')
  t.equal((await failures()).at(-1).reason, 'email_missing')
})

t.test('public signup open (SSO_PUBLIC_SIGNUP): an unknown email on no allowed domain founds its own organization', async (t) => {
  const open = await startTestSystem(t, { sso: { publicSignup: true } })
  await open.app.listen({ host: '127.0.0.1', port: 0 })
  const origin = `http://127.0.0.1:${(open.app.server.address() as AddressInfo).port}`
  const org = await orgWithKey(open, 'Acme')
  const p = await open.call<any>(
    'add_org_saml_provider',
    { label: 'Okta', metadata_xml: idp.metadataXml, allowed_domains: ['acme.test'], allow_unsolicited: true },
    org.key,
  )
  t.equal(p.allow_signup, false, 'the provider itself does not allow signup')
  const browser = new CookieBrowser()
  const acs = new URL(p.acs_url, origin).href
  const response = await postForm(browser, acs, {
    SAMLResponse: idp.response({
      acsUrl: acs,
      audience: new URL(p.sp_entity_id, origin).href,
      nameId: 'founder@startup.test',
      inResponseTo: null,
    }),
  })
  t.equal(response.status, 303, await response.clone().text())
  const page = await (await browser.fetch(`${origin}/account`)).text()
  t.match(page, /founder@startup\.test/)
  t.match(page, /Owner of organization/)
  t.notMatch(page, new RegExp(`organization ${org.orgId}\\.`), 'a new organization, not the provider’s')
})

t.test('the SP metadata', async (t) => {
  const response = await fetch(absolute(provider.sp_metadata_url))
  t.equal(response.status, 200)
  t.match(response.headers.get('content-type'), /application\/samlmetadata\+xml/)
  const xml = await response.text()
  t.match(xml, `entityID="${entityOf(provider)}"`)
  t.match(xml, `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${acsOf(provider)}"`)
  t.equal(provider.sp_entity_id, provider.sp_metadata_url, 'the entity id is the metadata URL')
  t.equal((await fetch(`${app}/saml/${'b'.repeat(24)}/metadata`)).status, 404)
})

t.test('/login/sso sends staff on a SAML provider’s domain to it', async (t) => {
  const saml = await ts.call<any>(
    'add_org_saml_provider',
    { label: 'Beta', metadata_xml: idp.metadataXml, allowed_domains: ['beta.test'] },
    other.key,
  )
  const browser = new CookieBrowser()
  const html = await (await browser.fetch(`${app}/login/sso`)).text()
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1]!
  const sent = await postForm(browser, `${app}/login/sso`, { csrf, email: 'zed@beta.test', return_to: '/account' })
  t.equal(sent.status, 303)
  t.equal(
    sent.headers.get('location'),
    `${new URL(saml.login_url).pathname}?return_to=%2Faccount`,
    'a same-origin redirect to the provider’s login URL',
  )
})

t.test('the RPCs', async (t) => {
  await t.test('add from metadata: the IdP values read from it, the SP URLs in the result', async (t) => {
    t.match(provider, {
      id: Number,
      kind: 'saml',
      label: 'Acme Okta',
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      email_attribute: '',
      allow_unsolicited: false,
      allowed_domains: ['acme.test'],
      default_role: 'seo_editor',
      allow_signup: false,
      active: true,
    })
    t.match(provider.certificate, /^-----BEGIN CERTIFICATE-----/)
    t.match(provider.certificates, [{ fingerprint_sha256: /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, expires_at: String }])
    t.match(provider.login_url, new RegExp(`^${app}/saml/[a-z0-9]{24}/login$`), 'absolute URLs, as the IdP must be given them')
    t.equal(provider.acs_url, provider.login_url.replace(/login$/, 'acs'))
    t.equal(provider.sp_entity_id, provider.login_url.replace(/login$/, 'metadata'))
    const list = await ts.call<any[]>('list_org_saml_providers', {}, acme.key)
    t.same(list[0], provider, 'the list shows what add returned')
  })
  await t.test('add from the three values; what is missing or wrong is named', async (t) => {
    const three = await ts.call<any>(
      'add_org_saml_provider',
      { label: 'Manual', idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: idp.certificate },
      acme.key,
    )
    t.match(three, { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl })
    const bare = idp.certificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
    t.equal(
      (
        await ts.call<any>(
          'add_org_saml_provider',
          { label: 'Bare cert', idp_entity_id: 'x', sso_url: idp.ssoUrl, certificate: bare },
          acme.key,
        )
      ).certificate,
      three.certificate,
      'a bare base64 certificate is made PEM',
    )
    const pinned = await ts.call<any>(
      'add_org_saml_provider',
      { label: 'Pinned', metadata_xml: idp.metadataXml, certificate: samlFixtures.attackerCert },
      acme.key,
    )
    t.not(pinned.certificate, three.certificate, 'a certificate given wins over the metadata’s')
    const e1 = expectError(
      t,
      await ts.rpc('add_org_saml_provider', { label: 'x', idp_entity_id: 'x' }, acme.key),
      400,
      'saml_provider_incomplete',
    )
    t.match(e1.detail, /sso_url, certificate/)
    const e2 = expectError(
      t,
      await ts.rpc('add_org_saml_provider', { label: 'x', metadata_xml: '<not-metadata/>' }, acme.key),
      400,
      'saml_metadata_invalid',
    )
    t.match(e2.detail, /EntityDescriptor/)
    expectError(t, await ts.rpc('add_org_saml_provider', { label: 'x', metadata_xml: 'not xml <' }, acme.key), 400, 'saml_metadata_invalid')
    expectError(
      t,
      await ts.rpc(
        'add_org_saml_provider',
        { label: 'x', idp_entity_id: 'x', sso_url: idp.ssoUrl, certificate: 'not a certificate' },
        acme.key,
      ),
      400,
      'saml_certificate_invalid',
    )
    expectError(
      t,
      await ts.rpc(
        'add_org_saml_provider',
        { label: 'x', idp_entity_id: 'x', sso_url: 'javascript:alert(1)', certificate: idp.certificate },
        acme.key,
      ),
      400,
      'validation_failed',
    )
    expectError(
      t,
      await ts.rpc('add_org_saml_provider', { label: 'x', metadata_xml: idp.metadataXml, default_role: 'admin' }, acme.key),
      400,
      'validation_failed',
    )
    expectError(t, await ts.rpc('add_org_saml_provider', { metadata_xml: idp.metadataXml }, acme.key), 400, 'validation_failed')
  })
  await t.test('update and delete; another organization’s provider answers like a missing one', async (t) => {
    const added = await ts.call<any>('add_org_saml_provider', { label: 'Temp', metadata_xml: idp.metadataXml }, acme.key)
    const updated = await ts.call<any>(
      'update_org_saml_provider',
      { provider_id: added.id, label: 'Renamed', allowed_domains: ['acme.test'], sso_url: `${idp.ssoUrl}?tenant=1` },
      acme.key,
    )
    t.match(updated, {
      label: 'Renamed',
      allowed_domains: ['acme.test'],
      sso_url: `${idp.ssoUrl}?tenant=1`,
      idp_entity_id: idp.entityId,
      certificate: added.certificate,
      login_url: added.login_url,
    })
    const missing = added.id + 1000
    for (const [method, body] of [
      ['update_org_saml_provider', { label: 'Mine now' }],
      ['delete_org_saml_provider', {}],
    ] as const) {
      const foreign = await ts.rpc(method, { provider_id: added.id, ...body }, other.key)
      const absent = await ts.rpc(method, { provider_id: missing, ...body }, other.key)
      t.equal(foreign.statusCode, 404, `${method}: another org's`)
      t.same(withoutIds(foreign.json(), [added.id]), withoutIds(absent.json(), [missing]), `${method}: same body as a missing one`)
    }
    const paused = await ts.call<any>('update_org_saml_provider', { provider_id: added.id, active: false }, acme.key)
    t.equal(paused.active, false)
    t.equal((await fetch(absolute(added.login_url), { redirect: 'manual' })).status, 404, 'an inactive provider does not start sign-ins')
    t.same(await ts.call('delete_org_saml_provider', { provider_id: added.id }, acme.key), { id: added.id, deleted: true })
    expectError(t, await ts.rpc('delete_org_saml_provider', { provider_id: added.id }, acme.key), 404, 'not_found')
    t.equal((await fetch(absolute(added.sp_metadata_url))).status, 404, 'its URLs are gone')
    t.notOk((await ts.call<any[]>('list_org_saml_providers', {}, acme.key)).some((p) => p.id === added.id))
    t.same(
      (await ts.call<any[]>('list_org_saml_providers', {}, other.key)).map((p) => p.label),
      ['Beta'],
      'each organization its own',
    )
  })
})

t.test('the log: every refusal has its reason, and no email address is in any', async (t) => {
  const saml = (await failures()).filter((f) => f.protocol === 'saml')
  const reasons = new Set(saml.map((f) => f.reason))
  for (const reason of [
    'signature_invalid',
    'saml_response_invalid',
    'audience_mismatch',
    'recipient_mismatch',
    'destination_mismatch',
    'issuer_mismatch',
    'assertion_expired',
    'assertion_not_yet_valid',
    'assertion_replayed',
    'in_response_to_unknown',
    'unsolicited_response',
    'assertion_encrypted',
    'state_expired',
    'browser_mismatch',
    'domain_not_allowed',
    'account_unavailable',
    'email_missing',
  ]) {
    t.ok(reasons.has(reason), reason)
  }
  t.notOk(JSON.stringify(saml).includes('@'), 'refusals carry no email address (a NameID that is one is left out)')
  t.ok(
    saml.some((f) => f.email_domain === 'acme.test'),
    'its domain is',
  )
})
