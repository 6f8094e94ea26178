/**
 * The test SAML IdP proves itself against saml2-js, the service's own SP library: good responses (each way
 * of signing, and encrypted) are accepted with the right NameID and attributes; the tampered ones are
 * refused; the HTTP-Redirect login page posts a response to the ACS that answers the AuthnRequest; the
 * metadata says what the fields say. Then it pins what saml2-js does NOT check, which the service must.
 *
 * @xmldom/xmldom and xml-crypto are imported directly although package.json does not list them: they are
 * hoisted dependencies of saml2-js and samlify, and the ones saml2-js itself parses and verifies with.
 */
import { createRequire } from 'node:module'
import { DOMParser } from '@xmldom/xmldom'
import t from 'tap'
import { SignedXml } from 'xml-crypto'
import { ATTACKER_NAME_ID, samlFixtures, startSamlIdp, type ResponseOptions } from './saml-idp-support.js'

// saml2-js ships no types; the test reaches it untyped rather than declaring a module the service may declare.
const saml2 = createRequire(import.meta.url)('saml2-js')

const DSIG = 'http://www.w3.org/2000/09/xmldsig#'
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion'
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata'

const idp = await startSamlIdp()
t.teardown(() => idp.close())

const spEntityId = 'https://rankrelay.test/saml/acme/metadata'
const acsUrl = 'https://rankrelay.test/saml/acme/acs'
const sp = new saml2.ServiceProvider({
  entity_id: spEntityId,
  assert_endpoint: acsUrl,
  allow_unencrypted_assertion: true,
  // Only for the encrypted case: saml2-js decrypts with the SP encryption key.
  private_key: samlFixtures.spEncryptionKey,
  certificate: samlFixtures.spEncryptionCert,
})
const samlIdp = new saml2.IdentityProvider({ sso_login_url: idp.ssoUrl, certificates: [idp.certificate] })

interface Assertion {
  response_header: { destination?: string; in_response_to?: string; id: string }
  user: { name_id: string; attributes: Record<string, string[]> }
}

function assert(SAMLResponse: string): Promise<{ ok: Assertion } | { error: Error }> {
  return new Promise((resolve) =>
    sp.post_assert(samlIdp, { request_body: { SAMLResponse } }, (error: Error | null, result: Assertion) =>
      resolve(error ? { error } : { ok: result }),
    ),
  )
}

const decode = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8')
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml')

const good: ResponseOptions = {
  acsUrl,
  audience: spEntityId,
  nameId: 'ann@acme.test',
  attributes: { email: 'ann@acme.test', displayName: 'Ann Example' },
  inResponseTo: '_request-1',
}

for (const sign of ['assertion', 'response', 'both'] as const) {
  t.test(`a good response signed on the ${sign} is accepted`, async (t) => {
    const xml = decode(idp.response({ ...good, sign }))
    const signatureParents = Array.from(parse(xml).getElementsByTagNameNS(DSIG, 'Signature')).map(
      (s) => (s.parentNode as Element).localName,
    )
    t.same(signatureParents.sort(), sign === 'both' ? ['Assertion', 'Response'] : [sign === 'assertion' ? 'Assertion' : 'Response'])
    t.match(xml, /SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#rsa-sha256"/)
    t.match(xml, /CanonicalizationMethod Algorithm="http:\/\/www\.w3\.org\/2001\/10\/xml-exc-c14n#"/)
    const result = await assert(idp.response({ ...good, sign }))
    if (!('ok' in result)) return void t.fail(`refused: ${result.error.message}`)
    t.equal(result.ok.user.name_id, 'ann@acme.test')
    t.same(result.ok.user.attributes, { email: ['ann@acme.test'], displayName: ['Ann Example'] })
    t.equal(result.ok.response_header.in_response_to, '_request-1')
    t.equal(result.ok.response_header.destination, acsUrl)
  })
}

t.test('an encrypted assertion decrypts with the SP encryption key and verifies', async (t) => {
  const samlResponse = idp.response({ ...good, encrypt: true })
  const doc = parse(decode(samlResponse))
  t.equal(doc.getElementsByTagNameNS(SAML, 'EncryptedAssertion').length, 1)
  t.equal(doc.getElementsByTagNameNS(SAML, 'Assertion').length, 0, 'no plaintext assertion')
  t.notMatch(decode(samlResponse), /ann@acme\.test/)
  const result = await assert(samlResponse)
  if (!('ok' in result)) return void t.fail(`refused: ${result.error.message}`)
  t.equal(result.ok.user.name_id, 'ann@acme.test')
})

t.test('bad_signature: the signed NameID changed afterwards is refused', async (t) => {
  for (const sign of ['assertion', 'response', 'both'] as const) {
    const samlResponse = idp.response({ ...good, sign, tamper: 'bad_signature' })
    const nameIds = Array.from(parse(decode(samlResponse)).getElementsByTagNameNS(SAML, 'NameID')).map((n) => n.textContent)
    t.same(nameIds, [ATTACKER_NAME_ID], `${sign}: a naive reader sees the attacker`)
    const result = await assert(samlResponse)
    t.ok('error' in result, `${sign}: refused`)
    if ('error' in result) t.match(result.error.message, /signature check failed/)
  }
})

t.test('attacker_key: a valid signature by a key the SP does not trust is refused', async (t) => {
  const samlResponse = idp.response({ ...good, tamper: 'attacker_key' })
  const xml = decode(samlResponse)
  const attackerCertBody = samlFixtures.attackerCert.replace(/-----[^-]+-----|\s/g, '')
  t.ok(xml.includes(`<ds:X509Certificate>${attackerCertBody}</ds:X509Certificate>`), 'KeyInfo carries the attacker certificate')
  const signature = parse(xml).getElementsByTagNameNS(DSIG, 'Signature')[0]!
  const verifier = new SignedXml({ publicCert: samlFixtures.attackerCert })
  verifier.loadSignature(signature)
  t.ok(verifier.checkSignature(xml), 'the signature is valid for the attacker key (trusting KeyInfo would let it in)')
  const result = await assert(samlResponse)
  t.ok('error' in result, 'refused')
  if ('error' in result) t.match(result.error.message, /signature check failed/)
})

t.test('wrapping: the genuine signed assertion moved under an unsigned evil one is refused', async (t) => {
  const xml = decode(idp.response({ ...good, tamper: 'wrapping' }))
  const doc = parse(xml)
  const assertions = Array.from(doc.getElementsByTagNameNS(SAML, 'Assertion'))
  t.equal(assertions.length, 2)
  const [evil, genuine] = assertions as [Element, Element]
  t.equal((evil.parentNode as Element).localName, 'Response', 'the evil assertion is where the assertion belongs')
  t.equal((genuine.parentNode as Element).localName, 'Advice', 'the genuine one sits in its Advice')
  t.equal(evil.getElementsByTagNameNS(DSIG, 'Signature').length, 1, 'the only signature is the genuine one, inside')
  t.equal(doc.getElementsByTagNameNS(SAML, 'NameID')[0]!.textContent, ATTACKER_NAME_ID, 'the first NameID is the attacker')
  const verifier = new SignedXml({ publicCert: idp.certificate })
  verifier.loadSignature(genuine.getElementsByTagNameNS(DSIG, 'Signature')[0]!)
  t.ok(verifier.checkSignature(xml), 'the genuine assertion is intact: its signature still verifies in place')
  t.equal(genuine.getElementsByTagNameNS(SAML, 'NameID')[0]!.textContent, 'ann@acme.test')

  const result = await assert(idp.response({ ...good, tamper: 'wrapping' }))
  // saml2-js counts every saml:Assertion in the document before it looks at any signature.
  t.ok('error' in result, 'refused')
  if ('error' in result) t.equal(result.error.message, 'Expected 1 Assertion or 1 EncryptedAssertion; found 2')
})

t.test('the HTTP-Redirect login: the page posts a response to the ACS that answers the AuthnRequest', async (t) => {
  const { url, requestId } = await new Promise<{ url: string; requestId: string }>((resolve, reject) =>
    sp.create_login_request_url(samlIdp, { relay_state: 'back-to/the page' }, (error: Error | null, url: string, requestId: string) =>
      error ? reject(error) : resolve({ url, requestId }),
    ),
  )
  t.ok(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`))

  const nobody = await fetch(url)
  t.equal(nobody.status, 403, 'nobody signed in yet')
  idp.signInAs({ nameId: 'bea@acme.test', attributes: { email: 'bea@acme.test' } })
  const page = await fetch(url)
  t.equal(page.status, 200)
  t.match(page.headers.get('content-type'), /^text\/html/)
  const html = await page.text()
  t.match(html, /<script>document\.forms\[0\]\.submit\(\)<\/script>/)
  t.match(html, /<button type="submit">/)
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1]
  t.equal(action, acsUrl)
  const field = (name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1]
  t.equal(field('RelayState'), 'back-to/the page')
  const samlResponse = field('SAMLResponse')!

  t.equal(idp.requests.length, 2)
  t.same(idp.requests[1], {
    id: requestId,
    issuer: spEntityId,
    destination: idp.ssoUrl,
    acsUrl,
    relayState: 'back-to/the page',
    xml: idp.requests[1]!.xml,
  })
  t.match(idp.requests[1]!.xml, /^<\?xml[^>]*>\s*<(samlp:)?AuthnRequest /)

  const result = await assert(samlResponse)
  if (!('ok' in result)) return void t.fail(`refused: ${result.error.message}`)
  t.equal(result.ok.user.name_id, 'bea@acme.test')
  t.equal(result.ok.response_header.in_response_to, requestId)
  const audience = parse(decode(samlResponse)).getElementsByTagNameNS(SAML, 'Audience')[0]!.textContent
  t.equal(audience, spEntityId, 'the audience is the request issuer')

  idp.signInAs({ nameId: 'bea@acme.test' }, { inResponseTo: null, sign: 'response' })
  const unsolicited = /name="SAMLResponse" value="([^"]*)"/.exec(await (await fetch(url)).text())![1]!
  t.notMatch(decode(unsolicited), /InResponseTo/, 'signInAs options override what the request decides')
})

t.test('the metadata says what the fields say', async (t) => {
  const served = await fetch(idp.entityId)
  t.equal(served.status, 200)
  t.equal(await served.text(), idp.metadataXml, 'served at the entity id')
  const doc = parse(idp.metadataXml)
  const entity = doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0]!
  t.equal(entity.getAttribute('entityID'), idp.entityId)
  const sso = Array.from(doc.getElementsByTagNameNS(MD, 'SingleSignOnService'))
  t.same(
    sso.map((s) => [s.getAttribute('Binding'), s.getAttribute('Location')]),
    [['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', idp.ssoUrl]],
  )
  const key = doc.getElementsByTagNameNS(MD, 'KeyDescriptor')[0]!
  t.equal(key.getAttribute('use'), 'signing')
  const cert = key.getElementsByTagNameNS(DSIG, 'X509Certificate')[0]!.textContent!.replace(/\s/g, '')
  t.equal(cert, idp.certificate.replace(/-----[^-]+-----|\s/g, ''))
})

// What saml2-js 4 accepts: the service itself must refuse these. Pinned so that the service's
// tests know which refusals are its own, and so that a saml2-js upgrade that changes them is noticed.
t.test('saml2-js leaves these checks to the service', async (t) => {
  const past = new Date(Date.now() - 60_000)
  const accepted: Array<[string, Partial<ResponseOptions>]> = [
    ['a wrong Destination', { destination: 'https://evil.test/acs' }],
    ['a wrong Recipient', { recipient: 'https://evil.test/acs' }],
    ['a wrong Issuer', { issuer: 'https://evil.test/idp' }],
    ['an expired SubjectConfirmationData', { subjectNotOnOrAfter: past }],
    ['an unsolicited response', { inResponseTo: null }],
    ['an unknown InResponseTo', { inResponseTo: '_never-issued' }],
    ['a wrong Destination on a signed Response', { destination: 'https://evil.test/acs', sign: 'response' }],
  ]
  for (const [what, options] of accepted) {
    const result = await assert(idp.response({ ...good, ...options }))
    t.ok('ok' in result, `accepted: ${what}`)
  }
  const replayed = idp.response({ ...good, assertionId: '_same-assertion' })
  t.ok('ok' in (await assert(replayed)) && 'ok' in (await assert(replayed)), 'accepted twice: the same response (no replay cache)')
  const refused: Array<[string, Partial<ResponseOptions>, RegExp]> = [
    ['a wrong Audience', { audience: 'https://evil.test/sp' }, /not valid for this audience/],
    ['expired Conditions', { notOnOrAfter: past }, /no longer valid/],
    ['Conditions not yet valid', { notBefore: new Date(Date.now() + 60_000) }, /not yet valid/],
  ]
  for (const [what, options, message] of refused) {
    const result = await assert(idp.response({ ...good, ...options }))
    t.ok('error' in result, `refused: ${what}`)
    if ('error' in result) t.match(result.error.message, message)
  }
})

// With only the assertion signed, the Response element around it is covered by no signature: saml2-js's
// response_header (destination, in_response_to) is whatever the sender wrote there. The service must read
// Recipient and InResponseTo from the SubjectConfirmationData of the (single, signed) assertion as well.
t.test("saml2-js's response_header is unsigned when only the assertion is signed", async (t) => {
  const xml = decode(idp.response({ ...good, sign: 'assertion' }))
  const forged = xml.replace(
    `Destination="${acsUrl}" InResponseTo="_request-1"`,
    'Destination="https://evil.test/acs" InResponseTo="_forged"',
  )
  t.not(forged, xml)
  const result = await assert(Buffer.from(forged).toString('base64'))
  if (!('ok' in result)) return void t.fail(`refused: ${result.error.message}`)
  t.equal(result.ok.response_header.destination, 'https://evil.test/acs')
  t.equal(result.ok.response_header.in_response_to, '_forged')
  t.notOk('issuer' in result.ok.response_header, 'saml2-js reports no Issuer at all')
  const confirmation = parse(forged).getElementsByTagNameNS(SAML, 'SubjectConfirmationData')[0]!
  t.equal(confirmation.getAttribute('InResponseTo'), '_request-1', 'the signed assertion still says the real request')
  t.equal(confirmation.getAttribute('Recipient'), acsUrl)
})
