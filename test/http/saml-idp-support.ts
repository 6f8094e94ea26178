/**
 * A real signing SAML 2.0 identity provider for the SSO tests, in-process on 127.0.0.1 (port 0), the SAML
 * sibling of sso-oidc-support.ts.
 *
 * - `GET /idp/metadata` answers the IdP metadata (samlify's IdentityProvider writes it); its URL is the entity id.
 * - `GET /sso?SAMLRequest=...&RelayState=...` (HTTP-Redirect binding) inflates and records the AuthnRequest and
 *   answers a real HTML page whose form auto-posts (HTTP-POST binding) a signed Response for the user named by
 *   `signInAs` to the request's AssertionConsumerServiceURL, with InResponseTo = the request ID and
 *   Audience = the request's Issuer. A headless browser goes through it as through any IdP's page.
 * - `response(options)` builds a base64 SAMLResponse directly, for tests that POST to the ACS without a browser,
 *   with per-field overrides and tampered variants.
 *
 * Who does what: the Response XML is written here from one template, so that a good response and each of its
 * broken siblings differ only in the field under test (samlify's createLoginResponse picks the Destination,
 * Recipient, Audience and InResponseTo from an SP entity and a parsed request, and cannot move a signed
 * assertion elsewhere). Signing is samlify's `SamlLib.constructSAMLSignature` (xml-crypto's SignedXml
 * underneath): RSA-SHA256, SHA-256 digests, exclusive c14n, an enveloped signature placed after the signed
 * element's Issuer, Reference URI = "#" + that element's ID, KeyInfo carrying the signing certificate.
 * Encryption (`encrypt: true`) is done here with node:crypto in the XML Encryption format that xml-encryption
 * (saml2-js's decrypter) reads: AES-256-GCM content, RSA-OAEP-MGF1P key transport to the SP encryption
 * certificate fixture. It is written by hand only because `response()` is synchronous and both xml-encryption
 * and samlify's encryptAssertion are callback/promise based.
 *
 * Every assertion declares its own namespaces, so a signed assertion keeps its digest when the wrapping
 * variant moves it into another element.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import samlify from 'samlify'

// samlify is CommonJS whose exports node's named-export detection does not see: take them from the default.
const { Extractor, IdentityProvider, SamlLib, Utility, setSchemaValidator } = samlify

export interface ReceivedAuthnRequest {
  readonly id: string
  readonly issuer: string
  readonly destination: string | undefined
  readonly acsUrl: string | undefined
  readonly relayState: string | undefined
  /** The inflated AuthnRequest XML. */
  readonly xml: string
}

export interface SamlIdp {
  readonly entityId: string
  readonly ssoUrl: string
  /** PEM of the signing certificate (the one in the metadata). */
  readonly certificate: string
  /** IdP metadata: entityID, SingleSignOnService (HTTP-Redirect) Location, signing KeyDescriptor. */
  readonly metadataXml: string
  /** AuthnRequests received at ssoUrl, decoded (inflate + parse), oldest first. */
  readonly requests: ReceivedAuthnRequest[]
  /**
   * Who the IdP signs in when a browser arrives at ssoUrl next (and which attributes it asserts). `options`
   * override what the request decides (acsUrl, audience, inResponseTo: pass `inResponseTo: null` for an
   * unsolicited response) and choose signing, tampering or encryption.
   */
  signInAs(user: { nameId: string; attributes?: Record<string, string> }, options?: Partial<ResponseOptions>): void
  /** A base64 SAMLResponse built directly (for tests that POST to the ACS without a browser). */
  response(options: ResponseOptions): string
  close(): Promise<void>
}

export interface ResponseOptions {
  /** Response@Destination and SubjectConfirmationData@Recipient unless overridden. */
  acsUrl: string
  /** The SP entity id, in AudienceRestriction/Audience. */
  audience: string
  nameId: string
  attributes?: Record<string, string>
  /** null/undefined: unsolicited (no InResponseTo anywhere). */
  inResponseTo?: string | null
  destination?: string
  recipient?: string
  /** Both the Response's and the Assertion's Issuer (default: the IdP entity id). */
  issuer?: string
  /** Conditions (default now-1min .. now+5min). */
  notBefore?: Date
  notOnOrAfter?: Date
  /** SubjectConfirmationData@NotOnOrAfter (default now+5min). */
  subjectNotOnOrAfter?: Date
  /** Default random. */
  assertionId?: string
  /** Default 'assertion'. */
  sign?: 'assertion' | 'response' | 'both'
  /**
   * Each variant is XML whose naive reading lets an attacker in:
   * - bad_signature: signed, then the NameID of the signed assertion is changed to `attacker@evil.test`
   *   (and the signed Response too, when the response is signed).
   * - attacker_key: signed correctly, but with the attacker key; KeyInfo carries the attacker certificate.
   * - wrapping (XSW): the genuine signed assertion (for `nameId`) is kept intact but moved into the
   *   <saml:Advice> of an evil UNSIGNED assertion for `attacker@evil.test` (attributes: email
   *   attacker@evil.test), which sits where the assertion belongs: the first Assertion in document order,
   *   the Response's Assertion child, and the first NameID of the document. Always an assertion signature
   *   only (`sign` is ignored): a Response signature would cover the evil assertion.
   */
  tamper?: 'bad_signature' | 'wrapping' | 'attacker_key'
  /** EncryptedAssertion (of the signed assertion) for the SP encryption certificate fixture. */
  encrypt?: boolean
}

/** The NameID (and email attribute) every tampered variant tries to sign in. */
export const ATTACKER_NAME_ID = 'attacker@evil.test'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'saml')
const readFixture = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8')

/** The test key pairs (test/fixtures/saml; test-only). */
export const samlFixtures = {
  idpKey: readFixture('idp-key.pem'),
  idpCert: readFixture('idp-cert.pem'),
  attackerKey: readFixture('attacker-key.pem'),
  attackerCert: readFixture('attacker-cert.pem'),
  spEncryptionKey: readFixture('sp-encryption-key.pem'),
  spEncryptionCert: readFixture('sp-encryption-cert.pem'),
} as const

// samlify refuses to parse any message without a schema validator. This IdP parses only the AuthnRequests
// our own service (saml2-js) sends it, and what is under test is the service's checks of the Response, not
// the IdP's of the request, so a validator that accepts is enough here.
setSchemaValidator({ validate: async () => 'skipped: the test IdP parses only our own AuthnRequests' })

const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
} as const
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'
const RESPONSE_XPATH = "/*[local-name(.)='Response' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:protocol']"
const ASSERTION_XPATH = `${RESPONSE_XPATH}/*[local-name(.)='Assertion' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:assertion']`
const ISSUER_STEP = "/*[local-name(.)='Issuer']"

function esc(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

const newId = () => `_${crypto.randomBytes(20).toString('hex')}`
const iso = (date: Date) => date.toISOString()

function signXml(xml: string, referenceXPath: string, key: { privateKey: string; cert: string }): string {
  return SamlLib.constructSAMLSignature({
    rawSamlMessage: xml,
    referenceTagXPath: referenceXPath,
    privateKey: key.privateKey,
    signingCert: Utility.normalizeCerString(key.cert),
    signatureAlgorithm: RSA_SHA256,
    isBase64Output: false,
    // After the Issuer: the schema's place for ds:Signature in both Response and Assertion.
    signatureConfig: { prefix: 'ds', location: { reference: referenceXPath + ISSUER_STEP, action: 'after' } },
  })
}

interface AssertionFields {
  id: string
  issuer: string
  nameId: string
  attributes: Record<string, string>
  recipient: string
  inResponseTo: string | null | undefined
  audience: string
  notBefore: Date
  notOnOrAfter: Date
  subjectNotOnOrAfter: Date
  now: Date
  /** Inner XML put in <saml:Advice> (the wrapping variant). */
  advice?: string
}

function assertionXml(f: AssertionFields): string {
  const inResponseTo = f.inResponseTo ? ` InResponseTo="${esc(f.inResponseTo)}"` : ''
  const attributes = Object.entries(f.attributes)
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        `<saml:AttributeValue xsi:type="xs:string">${esc(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('')
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${esc(f.id)}" Version="2.0" IssueInstant="${iso(f.now)}">` +
    `<saml:Issuer>${esc(f.issuer)}</saml:Issuer>` +
    `<saml:Subject>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(f.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${iso(f.subjectNotOnOrAfter)}" Recipient="${esc(f.recipient)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation>` +
    `</saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(f.notBefore)}" NotOnOrAfter="${iso(f.notOnOrAfter)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(f.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    (f.advice ? `<saml:Advice>${f.advice}</saml:Advice>` : '') +
    `<saml:AuthnStatement AuthnInstant="${iso(f.now)}" SessionIndex="${esc(f.id)}-session">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  )
}

function responseXml(
  f: { id: string; issuer: string; destination: string; inResponseTo: string | null | undefined; now: Date },
  body: string,
): string {
  const inResponseTo = f.inResponseTo ? ` InResponseTo="${esc(f.inResponseTo)}"` : ''
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${esc(f.id)}" Version="2.0" ` +
    `IssueInstant="${iso(f.now)}" Destination="${esc(f.destination)}"${inResponseTo}>` +
    `<saml:Issuer>${esc(f.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    body +
    `</samlp:Response>`
  )
}

/** The assertion element of a response document (the single one this module writes there). */
function extractAssertion(xml: string): { before: string; assertion: string; after: string } {
  const start = xml.indexOf('<saml:Assertion ')
  const endTag = '</saml:Assertion>'
  const end = xml.lastIndexOf(endTag) + endTag.length
  if (start < 0 || end < endTag.length) throw new Error('no assertion in the response')
  return { before: xml.slice(0, start), assertion: xml.slice(start, end), after: xml.slice(end) }
}

/** XML Encryption of `plaintext` for `certPem`: AES-256-GCM content, RSA-OAEP-MGF1P key transport
 * (SHA-1 OAEP digest: the spec's default for that algorithm; xml-encryption reads no other digest URI than xmldsig's). */
function encryptElement(plaintext: string, certPem: string): string {
  const key = crypto.randomBytes(32)
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
  const content = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()])
  const encryptedKey = crypto.publicEncrypt(
    { key: new crypto.X509Certificate(certPem).publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    key,
  )
  return (
    `<xenc:EncryptedData xmlns:xenc="${NS.xenc}" Type="http://www.w3.org/2001/04/xmlenc#Element">` +
    `<xenc:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"/>` +
    `<ds:KeyInfo xmlns:ds="${NS.ds}">` +
    `<xenc:EncryptedKey>` +
    `<xenc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p">` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/>` +
    `</xenc:EncryptionMethod>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${Utility.normalizeCerString(certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>` +
    `<xenc:CipherData><xenc:CipherValue>${encryptedKey.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    `</xenc:EncryptedKey>` +
    `</ds:KeyInfo>` +
    `<xenc:CipherData><xenc:CipherValue>${content.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    `</xenc:EncryptedData>`
  )
}

/** The Response XML (not base64) for `options`, issued by `entityId`. */
export function buildResponseXml(entityId: string, options: ResponseOptions): string {
  const now = new Date()
  const issuer = options.issuer ?? entityId
  const assertionFields: AssertionFields = {
    id: options.assertionId ?? newId(),
    issuer,
    nameId: options.nameId,
    attributes: options.attributes ?? {},
    recipient: options.recipient ?? options.acsUrl,
    inResponseTo: options.inResponseTo,
    audience: options.audience,
    notBefore: options.notBefore ?? new Date(now.getTime() - 60_000),
    notOnOrAfter: options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000),
    subjectNotOnOrAfter: options.subjectNotOnOrAfter ?? new Date(now.getTime() + 5 * 60_000),
    now,
  }
  const responseFields = {
    id: newId(),
    issuer,
    destination: options.destination ?? options.acsUrl,
    inResponseTo: options.inResponseTo,
    now,
  }
  const signer =
    options.tamper === 'attacker_key'
      ? { privateKey: samlFixtures.attackerKey, cert: samlFixtures.attackerCert }
      : { privateKey: samlFixtures.idpKey, cert: samlFixtures.idpCert }

  if (options.tamper === 'wrapping') {
    if (options.encrypt) throw new Error('wrapping with encrypt: the variant is about plaintext assertions')
    const signed = extractAssertion(signXml(responseXml(responseFields, assertionXml(assertionFields)), ASSERTION_XPATH, signer)).assertion
    const evil = assertionXml({
      ...assertionFields,
      id: newId(),
      nameId: ATTACKER_NAME_ID,
      attributes: { ...assertionFields.attributes, email: ATTACKER_NAME_ID },
      advice: signed,
    })
    return responseXml(responseFields, evil)
  }

  const sign = options.sign ?? 'assertion'
  let xml = responseXml(responseFields, assertionXml(assertionFields))
  if (sign === 'assertion' || sign === 'both') xml = signXml(xml, ASSERTION_XPATH, signer)
  if (options.encrypt) {
    const { before, assertion, after } = extractAssertion(xml)
    xml = `${before}<saml:EncryptedAssertion>${encryptElement(assertion, samlFixtures.spEncryptionCert)}</saml:EncryptedAssertion>${after}`
  }
  if (sign === 'response' || sign === 'both') xml = signXml(xml, RESPONSE_XPATH, signer)
  if (options.tamper === 'bad_signature') {
    if (options.encrypt) throw new Error('bad_signature with encrypt: the NameID is inside the ciphertext')
    const from = `emailAddress">${esc(options.nameId)}</saml:NameID>`
    if (!xml.includes(from)) throw new Error('bad_signature: NameID not found')
    xml = xml.replace(from, `emailAddress">${esc(ATTACKER_NAME_ID)}</saml:NameID>`)
  }
  return xml
}

function decodeAuthnRequest(samlRequest: string, relayState: string | undefined): ReceivedAuthnRequest {
  const xml = Utility.inflateString(samlRequest)
  const { request, issuer } = Extractor.extract(xml, Extractor.loginRequestFields) as {
    request?: { id?: string; destination?: string; assertionConsumerServiceUrl?: string }
    issuer?: string
  }
  if (!request?.id || !issuer) throw new Error('not an AuthnRequest with an ID and an Issuer')
  return { id: request.id, issuer, destination: request.destination, acsUrl: request.assertionConsumerServiceUrl, relayState, xml }
}

function autoPostPage(action: string, fields: Record<string, string | undefined>): string {
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`)
    .join('\n      ')
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Test IdP: signing you in</title></head>
  <body>
    <form method="post" action="${esc(action)}">
      ${inputs}
      <p>Signing you in…</p>
      <button type="submit">Continue</button>
    </form>
    <script>document.forms[0].submit()</script>
  </body>
</html>
`
}

export async function startSamlIdp(): Promise<SamlIdp> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const entityId = `${base}/idp/metadata`
  const ssoUrl = `${base}/sso`
  const metadataXml = IdentityProvider({
    entityID: entityId,
    signingCert: samlFixtures.idpCert,
    wantAuthnRequestsSigned: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl }],
  }).getMetadata()
  const requests: ReceivedAuthnRequest[] = []
  let next: { user: { nameId: string; attributes?: Record<string, string> }; options: Partial<ResponseOptions> } | undefined

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', base)
    const answer = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (req.method === 'GET' && url.pathname === '/idp/metadata') return answer(200, 'application/samlmetadata+xml', metadataXml)
    if (req.method !== 'GET' || url.pathname !== '/sso') return answer(404, 'text/plain', 'not found')
    const samlRequest = url.searchParams.get('SAMLRequest')
    if (!samlRequest) return answer(400, 'text/plain', 'SAMLRequest missing')
    let request: ReceivedAuthnRequest
    try {
      request = decodeAuthnRequest(samlRequest, url.searchParams.get('RelayState') ?? undefined)
    } catch (error) {
      return answer(400, 'text/plain', `bad SAMLRequest: ${String(error)}`)
    }
    requests.push(request)
    if (!next) return answer(403, 'text/plain', 'test IdP: nobody to sign in (call signInAs first)')
    const overrides = Object.fromEntries(Object.entries(next.options).filter(([, v]) => v !== undefined)) as Partial<ResponseOptions>
    const options: ResponseOptions = {
      acsUrl: request.acsUrl ?? '',
      audience: request.issuer,
      inResponseTo: request.id,
      nameId: next.user.nameId,
      ...(next.user.attributes ? { attributes: next.user.attributes } : {}),
      ...overrides,
    }
    if (!options.acsUrl) return answer(400, 'text/plain', 'the AuthnRequest names no AssertionConsumerServiceURL')
    const samlResponse = Buffer.from(buildResponseXml(entityId, options), 'utf8').toString('base64')
    return answer(200, 'text/html', autoPostPage(options.acsUrl, { SAMLResponse: samlResponse, RelayState: request.relayState }))
  })

  return {
    entityId,
    ssoUrl,
    certificate: samlFixtures.idpCert,
    metadataXml,
    requests,
    signInAs: (user, options = {}) => {
      next = { user, options }
    },
    response: (options) => Buffer.from(buildResponseXml(entityId, options), 'utf8').toString('base64'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
