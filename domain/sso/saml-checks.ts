import type { SsoFailureReason } from './events.js'
import { SAML_CLOCK_SKEW_MS } from './policy.js'

/**
 * The checks a SAML service provider must make itself once the signature holds (spec Authentication 7; SAML
 * 2.0 Web Browser SSO profile, section 4.1.4.3), pure. The facts come from the SIGNED assertion (the Response
 * envelope's own attributes, unsigned when only the assertion is signed, must agree when present):
 *
 * - Issuer: the assertion's (and the Response's, when present) equals the provider's entity id.
 * - Destination: the Response's, when present, equals our ACS URL (it names where the IdP meant to send it).
 * - Audience: at least one AudienceRestriction, and every one of them names our SP entity id (each restriction
 *   is a condition the assertion is valid under only if it holds).
 * - Recipient: a bearer SubjectConfirmation whose Recipient is our ACS URL; its NotOnOrAfter/NotBefore hold.
 * - Time: Conditions' NotBefore/NotOnOrAfter, within SAML_CLOCK_SKEW_MS. An assertion with no end at all
 *   (neither Conditions nor the confirmation carry NotOnOrAfter) is refused: it could never leave the replay
 *   cache.
 * - InResponseTo: the confirmation's and the Response's agree; absent means unsolicited, allowed only when the
 *   provider allows it. Whether a present one is a request this service issued (single use, 10 minutes) is
 *   the caller's lookup, done after these checks pass.
 */
export interface BearerConfirmation {
  readonly recipient: string | null
  readonly inResponseTo: string | null
  readonly notBefore: string | null
  readonly notOnOrAfter: string | null
}

export interface SamlAssertionFacts {
  readonly responseIssuer: string | null
  readonly responseDestination: string | null
  readonly responseInResponseTo: string | null
  readonly assertionId: string
  readonly assertionIssuer: string | null
  /** One array per AudienceRestriction. */
  readonly audienceRestrictions: readonly (readonly string[])[]
  readonly notBefore: string | null
  readonly notOnOrAfter: string | null
  readonly bearerConfirmations: readonly BearerConfirmation[]
}

export interface SamlExpectations {
  readonly idpEntityId: string
  readonly spEntityId: string
  readonly acsUrl: string
  readonly allowUnsolicited: boolean
  readonly now: Date
}

export type SamlCheck =
  | {
      readonly ok: true
      /** The request id this answers; null: unsolicited (and allowed). */
      readonly inResponseTo: string | null
      /** The assertion id stays in the replay cache until then. */
      readonly replayUntil: Date
    }
  | { readonly ok: false; readonly reason: SsoFailureReason; readonly detail: string }

const refuse = (reason: SsoFailureReason, detail: string): SamlCheck => ({ ok: false, reason, detail })
const instant = (text: string | null): number | null => {
  if (text === null) return null
  const at = Date.parse(text)
  return Number.isNaN(at) ? Number.NaN : at
}

export function checkSamlAssertion(facts: SamlAssertionFacts, expected: SamlExpectations): SamlCheck {
  const now = expected.now.getTime()
  if (facts.assertionIssuer !== expected.idpEntityId)
    return refuse('issuer_mismatch', `assertion issuer ${facts.assertionIssuer ?? '(none)'}`)
  if (facts.responseIssuer !== null && facts.responseIssuer !== expected.idpEntityId)
    return refuse('issuer_mismatch', `response issuer ${facts.responseIssuer}`)
  if (facts.responseDestination !== null && facts.responseDestination !== expected.acsUrl)
    return refuse('destination_mismatch', `destination ${facts.responseDestination}`)

  if (facts.audienceRestrictions.length === 0) return refuse('audience_mismatch', 'no AudienceRestriction')
  const foreign = facts.audienceRestrictions.find((audiences) => !audiences.includes(expected.spEntityId))
  if (foreign) return refuse('audience_mismatch', `audience ${foreign.join(', ') || '(empty)'}`)

  const notBefore = instant(facts.notBefore)
  const notOnOrAfter = instant(facts.notOnOrAfter)
  if (Number.isNaN(notBefore) || Number.isNaN(notOnOrAfter)) return refuse('saml_response_invalid', 'a Conditions time is not a date')
  if (notBefore !== null && notBefore > now + SAML_CLOCK_SKEW_MS) return refuse('assertion_not_yet_valid', `NotBefore ${facts.notBefore}`)
  if (notOnOrAfter !== null && notOnOrAfter <= now - SAML_CLOCK_SKEW_MS)
    return refuse('assertion_expired', `NotOnOrAfter ${facts.notOnOrAfter}`)

  const ours = facts.bearerConfirmations.filter((c) => c.recipient === expected.acsUrl)
  if (ours.length === 0) {
    const seen = facts.bearerConfirmations.map((c) => c.recipient ?? '(none)').join(', ')
    return refuse('recipient_mismatch', `recipient ${seen || '(no bearer confirmation)'}`)
  }
  // Any one confirmation that holds confirms the subject (SAML core 2.4.1.1).
  let lastProblem: SamlCheck | null = null
  for (const confirmation of ours) {
    const from = instant(confirmation.notBefore)
    const until = instant(confirmation.notOnOrAfter)
    if (Number.isNaN(from) || Number.isNaN(until)) {
      lastProblem = refuse('saml_response_invalid', 'a SubjectConfirmationData time is not a date')
      continue
    }
    if (from !== null && from > now + SAML_CLOCK_SKEW_MS) {
      lastProblem = refuse('assertion_not_yet_valid', `SubjectConfirmationData NotBefore ${confirmation.notBefore}`)
      continue
    }
    if (until !== null && until <= now - SAML_CLOCK_SKEW_MS) {
      lastProblem = refuse('assertion_expired', `SubjectConfirmationData NotOnOrAfter ${confirmation.notOnOrAfter}`)
      continue
    }
    const ends = [notOnOrAfter, until].filter((t): t is number => t !== null)
    if (ends.length === 0) {
      lastProblem = refuse('saml_response_invalid', 'the assertion has no NotOnOrAfter, so its replay could never be ruled out')
      continue
    }
    const inResponseTo = confirmation.inResponseTo ?? facts.responseInResponseTo
    if (
      confirmation.inResponseTo !== null &&
      facts.responseInResponseTo !== null &&
      confirmation.inResponseTo !== facts.responseInResponseTo
    ) {
      return refuse('in_response_to_unknown', 'the Response and its assertion answer different requests')
    }
    if (inResponseTo === null && !expected.allowUnsolicited)
      return refuse('unsolicited_response', 'no InResponseTo and the provider does not allow unsolicited responses')
    return { ok: true, inResponseTo, replayUntil: new Date(Math.max(...ends) + SAML_CLOCK_SKEW_MS) }
  }
  return lastProblem!
}
