/**
 * The Host header never sets an absolute URL the service prints. Every document and answer
 * that carries one is fetched twice from the service listening on 127.0.0.1 without BASE_URL: once with the
 * Host a browser would send, once with `Host: evil.example`; both must be the same and name the listen
 * address. The OAuth metadata and the docs are served `Cache-Control: public`, so a cache keyed on the path
 * alone would hand an attacker's issuer to everyone. Then the same with BASE_URL set: the configured address.
 * Also the SAML provider RPCs answer the absolute URLs the metadata document uses.
 */
import type { AddressInfo } from 'node:net'
import { inflateRawSync } from 'node:zlib'
import t, { type Test } from 'tap'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { PROTECTED_RESOURCE_METADATA_PATH } from '../../read-api/auth/bearer-challenge.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { startSamlIdp } from './saml-idp-support.js'
import { startTestIdp } from './sso-oidc-support.js'

const EVIL = 'evil.example'

const ts = await startTestSystem(t, { sso: { allowList: parseAllowList('127.0.0.1')! } })
await ts.app.listen({ host: '127.0.0.1', port: 0 })
const host = `127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
const origin = `http://${host}`
const acme = await orgWithKey(ts, 'Acme')
const samlIdp = await startSamlIdp()
t.teardown(() => samlIdp.close())
const oidcIdp = await startTestIdp({
  accounts: {},
  redirectUris: Array.from({ length: 5 }, (_, i) => `${origin}/auth/oidc/${i + 1}/callback`),
})
t.teardown(() => oidcIdp.close())

/** One request with the given Host header; what a client sees of it (status, the headers that carry URLs, body). */
async function seen(
  hostHeader: string,
  request: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: unknown },
) {
  const response = await ts.app.inject({
    method: request.method ?? 'GET',
    url: request.url,
    headers: { ...request.headers, host: hostHeader, ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
  })
  // An error body names its own request id: the one part that differs between two requests.
  const body = response.body.replace(/"request_id":"[^"]*"/g, '"request_id":"<id>"')
  return { status: response.statusCode, location: response.headers.location, authenticate: response.headers['www-authenticate'], body }
}

/** The same answer whatever the Host header says, naming the listen address and never the attacker's host. */
async function sameForAnyHost(t: Test, what: string, request: Parameters<typeof seen>[1], mustName = origin) {
  const honest = await seen(host, request)
  const forged = await seen(EVIL, request)
  t.same(forged, honest, `${what}: the same answer with Host: ${EVIL}`)
  t.notMatch(JSON.stringify(forged), EVIL, `${what}: never names ${EVIL}`)
  t.match(JSON.stringify(forged), mustName, `${what}: names ${mustName}`)
  return forged
}

t.test('OAuth discovery: issuer and endpoints, the protected resource metadata, WWW-Authenticate', async (t) => {
  const meta = await sameForAnyHost(t, 'authorization server metadata', { url: '/.well-known/oauth-authorization-server' })
  const m = JSON.parse(meta.body)
  t.equal(m.issuer, origin, 'the issuer is the listen address')
  for (const name of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint'])
    t.ok(String(m[name]).startsWith(`${origin}/oauth/`), name)
  const resource = JSON.parse((await sameForAnyHost(t, 'protected resource metadata', { url: PROTECTED_RESOURCE_METADATA_PATH })).body)
  t.same(resource.authorization_servers, [origin])
  const refused = await sameForAnyHost(t, 'a 401 of the RPC endpoint', { method: 'POST', url: '/api/v1/rpc/get_all_clients', payload: {} })
  t.equal(refused.status, 401)
  t.match(refused.authenticate, `resource_metadata="${origin}${PROTECTED_RESOURCE_METADATA_PATH}"`)
  const mcp = await seen(EVIL, {
    method: 'POST',
    url: '/api/v1/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
  })
  t.equal(mcp.status, 401)
  t.match(mcp.authenticate, `resource_metadata="${origin}${PROTECTED_RESOURCE_METADATA_PATH}"`, 'a 401 of the MCP endpoint too')
})

t.test('the public documents: llms.txt, the guide, OpenAPI, capabilities, security.txt, MCP resources', async (t) => {
  for (const url of ['/llms.txt', '/llms-full.txt', '/developers.md', '/api/v1/openapi.json']) await sameForAnyHost(t, url, { url })
  const openapi = JSON.parse((await seen(EVIL, { url: '/api/v1/openapi.json' })).body)
  t.equal(openapi.servers[0].url, origin, 'OpenAPI servers')
  const capabilities = JSON.parse(
    (await sameForAnyHost(t, 'capabilities', { url: '/api/v1/capabilities', headers: { authorization: `Bearer ${acme.key}` } })).body,
  )
  t.equal(capabilities.base_url, origin)
  // security.txt's default contact is security@ the service's host: the listen address's, not the caller's.
  await sameForAnyHost(t, 'security.txt', { url: '/.well-known/security.txt' }, 'mailto:security@127.0.0.1')
  const resources = await sameForAnyHost(
    t,
    'MCP resources',
    {
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { authorization: `Bearer ${acme.key}`, accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'resources/list' },
    },
    `${origin}/developers.md`,
  )
  t.equal(resources.status, 200)
})

t.test('SAML: the RPCs answer the absolute URLs the metadata and the AuthnRequest use (items 8 and 10)', async (t) => {
  const added = await seen(EVIL, {
    method: 'POST',
    url: '/api/v1/rpc/add_org_saml_provider',
    headers: { authorization: `Bearer ${acme.key}` },
    payload: { label: 'Okta', metadata_xml: samlIdp.metadataXml, allowed_domains: ['acme.test'] },
  })
  t.equal(added.status, 200, added.body)
  t.notMatch(added.body, EVIL)
  const provider = JSON.parse(added.body).result
  const key = provider.login_url.match(/\/saml\/([a-z0-9]+)\/login$/)?.[1]
  t.ok(key, `login_url ${provider.login_url}`)
  t.equal(provider.sp_entity_id, `${origin}/saml/${key}/metadata`, 'sp_entity_id is absolute')
  t.equal(provider.sp_metadata_url, provider.sp_entity_id)
  t.equal(provider.acs_url, `${origin}/saml/${key}/acs`, 'acs_url is absolute')
  t.equal(provider.login_url, `${origin}/saml/${key}/login`, 'login_url is absolute')
  const listed = await sameForAnyHost(t, 'list_org_saml_providers', {
    method: 'POST',
    url: '/api/v1/rpc/list_org_saml_providers',
    headers: { authorization: `Bearer ${acme.key}` },
    payload: {},
  })
  t.same(JSON.parse(listed.body).result.at(-1), provider, 'the list answers what add answered')

  const metadata = await sameForAnyHost(t, 'SP metadata', { url: `/saml/${key}/metadata` })
  t.match(metadata.body, `entityID="${provider.sp_entity_id}"`, 'the metadata names the entity id the RPC answered')
  t.match(metadata.body, `Location="${provider.acs_url}"`, 'and the ACS URL')

  for (const hostHeader of [host, EVIL]) {
    const login = await seen(hostHeader, { url: `/saml/${key}/login` })
    t.equal(login.status, 303)
    const authnRequest = inflateRawSync(Buffer.from(new URL(login.location!).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8')
    t.match(
      authnRequest,
      `AssertionConsumerServiceURL="${provider.acs_url}"`,
      `Host ${hostHeader}: the AuthnRequest names the ACS URL the RPC answered`,
    )
    t.match(authnRequest, `>${provider.sp_entity_id}<`, `Host ${hostHeader}: and the SP entity id as its issuer`)
  }
})

t.test('OIDC: the redirect URI sent to the identity provider and the one the RPC answers', async (t) => {
  const added = await ts.call<any>(
    'add_org_sso_provider',
    { label: 'Acme IdP', issuer: oidcIdp.issuer, client_id: oidcIdp.clientId, client_secret: oidcIdp.clientSecret },
    acme.key,
  )
  t.equal(added.redirect_uri, `${origin}/auth/oidc/${added.id}/callback`, 'the RPC answers the absolute redirect URI to register')
  t.equal(added.login_url, `${origin}/auth/oidc/${added.id}`)
  for (const hostHeader of [host, EVIL]) {
    const start = await seen(hostHeader, { url: `/auth/oidc/${added.id}` })
    t.equal(start.status, 303)
    t.equal(
      new URL(start.location!).searchParams.get('redirect_uri'),
      added.redirect_uri,
      `Host ${hostHeader}: the IdP is sent the redirect URI the RPC answered`,
    )
  }
})

t.test('with BASE_URL set, every absolute URL is the configured one whatever the Host', async (t) => {
  const configured = await startTestSystem(t, { publicDocs: { baseUrl: 'https://rankrelay.example' } })
  const issuer = (await configured.app.inject({ url: '/.well-known/oauth-authorization-server', headers: { host: EVIL } })).json().issuer
  t.equal(issuer, 'https://rankrelay.example')
  const llms = (await configured.app.inject({ url: '/llms.txt', headers: { host: EVIL } })).body
  t.match(llms, 'https://rankrelay.example/api/v1')
  t.notMatch(llms, EVIL)
})
