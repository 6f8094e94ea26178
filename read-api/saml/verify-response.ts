// saml2-js (with xmlbuilder2, xml-encryption) and xml-crypto are imported when a response is verified, not with the app.
import type saml2 from 'saml2-js'
import type { SignedXml } from 'xml-crypto'
import type { SsoFailureReason } from '../../domain/sso/events.js'
import { SAML_RESPONSE_MAX_BYTES } from '../../domain/sso/policy.js'
import type { BearerConfirmation, SamlAssertionFacts } from '../../domain/sso/saml-checks.js'
import { NS, attribute, child, children, descendants, parseXml, textOf } from './xml.js'

/**
 * A SAMLResponse from the HTTP-POST binding, verified: saml2-js checks the status, the signature (of the
 * Response or of the Assertion, against the provider's pinned certificates) and the Audience, and reads the
 * NameID and attributes from the signed assertion. Then the facts domain/sso/saml-checks.ts judges (issuer,
 * destination, recipient, audience, times, InResponseTo, the assertion id) are read here, also from what the
 * signature covers (the signed reference), never from the envelope around it.
 *
 * Before saml2-js sees anything: a size cap, no DOCTYPE, a samlp:Response root, no EncryptedAssertion (not
 * supported, spec Authentication 7: refused with its own reason rather than a decryption error), and exactly
 * one Assertion in the whole document (a second one, signed or not, is how signature-wrapping attacks hide
 * the assertion a careless reader would use).
 *
 * Timing is left to saml2-js's caller (`ignore_timing`): domain/sso/saml-checks.ts compares the times with
 * the service clock and a stated skew, where saml2-js would use Date.now() with none on NotOnOrAfter.
 */
export type VerifiedResponse =
  | {
      readonly ok: true
      readonly facts: SamlAssertionFacts
      readonly nameId: string | null
      readonly attributes: Readonly<Record<string, readonly string[]>>
    }
  | { readonly ok: false; readonly reason: SsoFailureReason; readonly detail: string }

export interface ResponseVerification {
  readonly samlResponse: string
  readonly certificates: readonly string[]
  readonly spEntityId: string
  readonly acsUrl: string
  readonly ssoUrl: string
}

const refuse = (reason: SsoFailureReason, detail: string): VerifiedResponse => ({ ok: false, reason, detail })
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer'

export async function verifySamlResponse(input: ResponseVerification): Promise<VerifiedResponse> {
  if (input.samlResponse.length > (SAML_RESPONSE_MAX_BYTES * 4) / 3 + 4)
    return refuse('saml_response_invalid', 'the SAMLResponse is too large')
  const compact = input.samlResponse.replace(/\s+/g, '')
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return refuse('saml_response_invalid', 'the SAMLResponse is not base64')
  const xml = Buffer.from(compact, 'base64').toString('utf8')
  const doc = parseXml(xml)
  if (!doc) return refuse('saml_response_invalid', 'the SAMLResponse is not well-formed XML (or carries a DOCTYPE)')
  const root = doc.documentElement!
  if (root.namespaceURI !== NS.SAMLP || root.localName !== 'Response')
    return refuse('saml_response_invalid', `expected a samlp:Response, got ${root.nodeName}`)
  if (descendants(doc, NS.SAML, 'EncryptedAssertion').length > 0)
    return refuse('assertion_encrypted', 'encrypted assertions are not supported: configure the IdP to sign, not encrypt')
  const assertions = descendants(doc, NS.SAML, 'Assertion')
  if (assertions.length !== 1) return refuse('saml_response_invalid', `expected exactly one Assertion, found ${assertions.length}`)

  const [{ default: saml2js }, { SignedXml: signedXml }] = await Promise.all([import('saml2-js'), import('xml-crypto')])
  const sp = new saml2js.ServiceProvider({
    entity_id: input.spEntityId,
    assert_endpoint: input.acsUrl,
    audience: input.spEntityId,
    allow_unencrypted_assertion: true,
  })
  const idp = new saml2js.IdentityProvider({ sso_login_url: input.ssoUrl, certificates: [...input.certificates] })
  let asserted: saml2.AssertResponse
  try {
    asserted = await new Promise((resolve, reject) =>
      sp.post_assert(
        idp,
        { request_body: { SAMLResponse: compact }, require_session_index: false, ignore_timing: true },
        (error, response) => (error ? reject(error) : resolve(response)),
      ),
    )
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (/signature/i.test(message)) return refuse('signature_invalid', message)
    if (/audience/i.test(message)) return refuse('audience_mismatch', message)
    const extra = error && typeof error === 'object' && 'extra' in error ? JSON.stringify((error as { extra: unknown }).extra) : ''
    return refuse('saml_response_invalid', `${message}${extra ? ` ${extra}` : ''}`.slice(0, 2000))
  }

  const signed = signedAssertion(signedXml, xml, doc, input.certificates)
  if (!signed) return refuse('signature_invalid', 'no signature over the assertion verified')
  return {
    ok: true,
    facts: factsOf(signed.response ?? root, signed.assertion),
    nameId: typeof asserted.user.name_id === 'string' ? asserted.user.name_id : null,
    attributes: asserted.user.attributes ?? {},
  }
}

/**
 * The assertion as the signature covers it: the signature directly inside the assertion (else the one directly
 * inside the Response) is verified again with xml-crypto, as saml2-js's post_assert does, against the pinned
 * certificates only (never a certificate the message carries in KeyInfo), and the assertion is read from the
 * signed reference it hands back. `response` is set when that reference is the whole Response, whose
 * Destination and InResponseTo are then covered too. (saml2-js exports its own helper for this only under
 * NODE_ENV=test, so it is done here with the same library.)
 */
function signedAssertion(
  signedXml: typeof SignedXml,
  xml: string,
  doc: Document,
  certificates: readonly string[],
): { assertion: Element; response: Element | null } | null {
  const root = doc.documentElement!
  const assertion = descendants(doc, NS.SAML, 'Assertion')[0]
  if (!assertion) return null
  const signatures = [...children(assertion, NS.DS, 'Signature'), ...children(root, NS.DS, 'Signature')]
  for (const certificate of certificates) {
    for (const signature of signatures) {
      const verifier = new signedXml({ publicCert: certificate, getCertFromKeyInfo: () => null })
      let references: string[]
      try {
        verifier.loadSignature(signature)
        if (!verifier.checkSignature(xml)) continue
        references = verifier.getSignedReferences()
      } catch {
        continue
      }
      for (const reference of references) {
        const signedDoc = parseXml(reference)
        if (!signedDoc) continue
        const found = descendants(signedDoc, NS.SAML, 'Assertion')
        if (found.length !== 1) continue
        const top = signedDoc.documentElement!
        return { assertion: found[0]!, response: top.namespaceURI === NS.SAMLP && top.localName === 'Response' ? top : null }
      }
    }
  }
  return null
}

function factsOf(response: Element, assertion: Element): SamlAssertionFacts {
  const conditions = child(assertion, NS.SAML, 'Conditions')
  const subject = child(assertion, NS.SAML, 'Subject')
  const confirmations: BearerConfirmation[] = (subject ? children(subject, NS.SAML, 'SubjectConfirmation') : [])
    .filter((c) => attribute(c, 'Method') === BEARER)
    .map((c) => {
      const data = child(c, NS.SAML, 'SubjectConfirmationData')
      return {
        recipient: data ? attribute(data, 'Recipient') : null,
        inResponseTo: data ? attribute(data, 'InResponseTo') : null,
        notBefore: data ? attribute(data, 'NotBefore') : null,
        notOnOrAfter: data ? attribute(data, 'NotOnOrAfter') : null,
      }
    })
  return {
    responseIssuer: textOf(child(response, NS.SAML, 'Issuer')),
    responseDestination: attribute(response, 'Destination'),
    responseInResponseTo: attribute(response, 'InResponseTo'),
    assertionId: attribute(assertion, 'ID') ?? '',
    assertionIssuer: textOf(child(assertion, NS.SAML, 'Issuer')),
    audienceRestrictions: (conditions ? children(conditions, NS.SAML, 'AudienceRestriction') : []).map((r) =>
      children(r, NS.SAML, 'Audience').map((a) => textOf(a) ?? ''),
    ),
    notBefore: conditions ? attribute(conditions, 'NotBefore') : null,
    notOnOrAfter: conditions ? attribute(conditions, 'NotOnOrAfter') : null,
    bearerConfirmations: confirmations,
  }
}
