/**
 * The text rule of the API's JSON bodies (no U+0000, no unpaired surrogate: domain/shared/values.ts) holds for
 * the browser and OAuth routes too: every form-urlencoded field (sign-in, password reset, invite acceptance,
 * SSO, the SAML ACS, the consent form, the token and revocation endpoints) and every query string parameter
 * of those pages is refused with 400 before any handler runs, and nothing is recorded. The sign-in pages
 * answer the envelope's validation_failed naming the field; the OAuth endpoints their RFC's error shape.
 * Without it a NUL would reach the database from several of these routes and answer 500.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { eventCount, expectError, orgWithKey } from './helpers.js'
import { pkce, register, registerClient } from './oauth-support.js'
import { Browser } from './people-support.js'
import { startSamlIdp } from './saml-idp-support.js'

const NUL = 'a\u0000b'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

const ts = await startTestSystem(t)
const acme = await orgWithKey(ts, 'Acme')
const idp = await startSamlIdp()
t.teardown(() => idp.close())
const saml = await ts.call<{ login_url: string; acs_url: string }>(
  'add_org_saml_provider',
  { label: 'Acme IdP', metadata_xml: idp.metadataXml, allowed_domains: ['acme.test'], default_role: 'seo_editor' },
  acme.key,
)
const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email: 'ann@acme.test', role: 'owner' }, acme.key)
const invitePath = new URL(invite.invite_url, 'http://x').pathname
const clientId = await registerClient(ts)
const { challenge } = pkce()
const authorizeQuery = {
  response_type: 'code',
  client_id: clientId,
  redirect_uri: 'https://app.example/callback',
  code_challenge: challenge,
  code_challenge_method: 'S256',
}

/** A browser that has been shown the sign-in form, so its posts carry a valid CSRF token and cookie. */
async function browser(): Promise<Browser> {
  const b = new Browser(ts.app)
  await b.get('/login')
  return b
}

t.test('a NUL in any field of a sign-in page form answers 400 validation_failed naming the field', async (t) => {
  const before = await eventCount(ts)
  const cases: { url: string; form: Record<string, string>; field: string }[] = [
    { url: '/login', form: { email: NUL, password: 'correct horse battery', code: '123456' }, field: 'email' },
    {
      url: '/login',
      form: { email: 'ann@acme.test', password: 'correct horse battery', code: '123456', return_to: `/account${NUL}` },
      field: 'return_to',
    },
    { url: '/password-reset', form: { email: `ann@acme.test${NUL}` }, field: 'email' },
    { url: '/password-reset/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', form: { password: NUL, confirm: NUL }, field: 'password' },
    { url: invitePath, form: { password: `a long enough ${NUL}`, confirm: `a long enough ${NUL}` }, field: 'password' },
    { url: `${invitePath}/confirm`, form: { code: `12345${NUL}` }, field: 'code' },
    { url: '/logout', form: { [`x${NUL}`]: '1' }, field: 'key' },
    { url: '/login/sso', form: { email: `ann@acme.test${NUL}` }, field: 'email' },
    { url: saml.acs_url, form: { SAMLResponse: 'PHNhbWw+', RelayState: NUL }, field: 'RelayState' },
    { url: '/account/apps/1/disconnect', form: { note: NUL }, field: 'note' },
  ]
  for (const c of cases) {
    const response = await (await browser()).post(c.url, c.form)
    t.not(response.statusCode, 500, `${c.url} ${c.field}: not a 500`)
    const body = expectError(t, response, 400, 'validation_failed', `${c.url} ${c.field}`)
    t.match(body.detail ?? '', new RegExp(`${c.field}.*U\\+0000`), `${c.url}: detail names the field and what is wrong (${body.detail})`)
  }
  t.equal(await eventCount(ts), before, 'nothing was recorded')
})

t.test('a NUL in the query string of a sign-in page answers 400 validation_failed naming the parameter', async (t) => {
  const before = await eventCount(ts)
  const urls = [
    '/login?return_to=%2Faccount%00',
    '/login/sso?return_to=%00',
    '/auth/oidc/1?return_to=%00',
    '/auth/oidc/1/callback?state=a%00b&code=c',
    `${saml.login_url}?return_to=%00`,
    '/account/apps?return_to=%00',
    '/password-reset?x=%00',
  ]
  for (const url of urls) {
    const response = await ts.app.inject({ method: 'GET', url })
    t.not(response.statusCode, 500, `${url}: not a 500`)
    const body = expectError(t, response, 400, 'validation_failed', url)
    t.match(body.detail ?? '', /query string.*(return_to|state|x): contains U\+0000/, `${url}: detail names the parameter (${body.detail})`)
  }
  t.equal(await eventCount(ts), before, 'nothing was recorded')
})

t.test('the OAuth endpoints answer RFC 6749 invalid_request for a NUL in a form field or the query', async (t) => {
  const before = await eventCount(ts)
  const oauthForm = (url: string, form: Record<string, string>) =>
    ts.app.inject({ method: 'POST', url, headers: FORM, payload: new URLSearchParams(form).toString() })
  const cases: { what: string; send: () => ReturnType<typeof oauthForm>; field: string }[] = [
    {
      what: 'token: code',
      send: () =>
        oauthForm('/oauth/token', {
          grant_type: 'authorization_code',
          client_id: clientId,
          code: NUL,
          redirect_uri: 'https://app.example/callback',
          code_verifier: 'v'.repeat(43),
        }),
      field: 'code',
    },
    {
      what: 'token: refresh_token',
      send: () => oauthForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: NUL }),
      field: 'refresh_token',
    },
    { what: 'revoke: token', send: () => oauthForm('/oauth/revoke', { token: NUL }), field: 'token' },
    {
      what: 'authorize form: state',
      send: async () => (await browser()).post('/oauth/authorize', { ...authorizeQuery, state: NUL, decision: 'approve' }),
      field: 'state',
    },
    {
      what: 'authorize query: state',
      send: () => ts.app.inject({ method: 'GET', url: `/oauth/authorize?${new URLSearchParams({ ...authorizeQuery, state: NUL })}` }),
      field: 'state',
    },
  ]
  for (const c of cases) {
    const response = await c.send()
    t.equal(response.statusCode, 400, `${c.what}: 400 (${response.body.slice(0, 200)})`)
    t.match(response.headers['content-type'], /^application\/json/, `${c.what}: JSON`)
    let body: { error?: string; error_description?: string } = {}
    try {
      body = response.json()
    } catch {
      t.fail(`${c.what}: body is not JSON`)
    }
    t.same(Object.keys(body).sort(), ['error', 'error_description'], `${c.what}: the RFC 6749 error shape`)
    t.equal(body.error, 'invalid_request', c.what)
    t.match(
      body.error_description ?? '',
      new RegExp(`${c.field}.*U\\+0000`),
      `${c.what}: the description names the field (${body.error_description})`,
    )
    t.equal(response.headers['cache-control'], 'no-store', `${c.what}: not cached`)
  }
  t.equal(await eventCount(ts), before, 'nothing was recorded')
})

t.test('a NUL in a registration request answers RFC 7591 invalid_client_metadata', async (t) => {
  const before = await eventCount(ts)
  const response = await register(ts, {
    client_name: `Spoof${'\u0000'}`,
    redirect_uris: ['https://app.example/callback'],
    token_endpoint_auth_method: 'none',
  })
  t.equal(response.statusCode, 400, response.body)
  const body = response.json()
  t.same(Object.keys(body).sort(), ['error', 'error_description'], 'the RFC 7591 error shape')
  t.equal(body.error, 'invalid_client_metadata')
  t.match(body.error_description, /client_name.*U\+0000/)
  const malformed = await ts.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: '{"client_name":',
  })
  t.equal(malformed.statusCode, 400)
  t.equal(malformed.json().error, 'invalid_client_metadata', 'malformed JSON too')
  t.equal(await eventCount(ts), before, 'nothing was registered')
})

t.test('ordinary forms and queries still work', async (t) => {
  const b = await browser()
  const login = await b.post('/login', { email: 'nobody@acme.test', password: 'not the password', code: '123456' })
  t.equal(login.statusCode, 401, 'a wrong sign-in is still the sign-in page')
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/login?return_to=%2Faccount' })).statusCode,
    200,
    'a query without NUL shows the page',
  )
  const token = await ts.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: FORM,
    payload: 'grant_type=refresh_token&client_id=1&refresh_token=a&refresh_token=b',
  })
  t.equal(token.json().error_description, 'refresh_token is repeated', 'a repeated OAuth field is still seen as repeated')
  // A surrogate pair (not a lone surrogate) is text.
  const pair = await b.post('/login', { email: 'pipes🚿@acme.test', password: 'x', code: '1' })
  t.equal(pair.statusCode, 401, 'an emoji is not refused')
})
