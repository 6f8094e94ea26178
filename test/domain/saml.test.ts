/**
 * SAML in the domain, given/when/then: the provider stream (owner-level, another organization's provider
 * answers as missing, no-op updates, the key fixed at add), and the checks a service provider makes once the
 * signature holds (domain/sso/saml-checks.ts), one fact changed at a time from an assertion that passes.
 */
import t from 'tap'
import type { SamlProviderEvent, SamlProviderSettings } from '../../domain/sso/saml-events.js'
import { checkSamlAssertion, type SamlAssertionFacts, type SamlExpectations } from '../../domain/sso/saml-checks.js'
import { samlProvider } from '../../domain/sso/saml-provider.js'
import { spec } from './given-when-then.js'

const settings: SamlProviderSettings = {
  label: 'Acme Okta',
  idp_entity_id: 'https://idp.acme.test/metadata',
  sso_url: 'https://idp.acme.test/sso',
  certificates: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'],
  metadata_xml: '',
  email_attribute: '',
  allow_unsolicited: false,
  allowed_domains: ['acme.test'],
  default_role: 'viewer',
  allow_signup: false,
}
const owner = { kind: 'member', role: 'owner', user_id: 1 } as const
const key = 'abcdefghijklmnopqrstuvwx'
const added: SamlProviderEvent = { type: 'SamlProviderAdded', data: { provider_id: 7, org_id: 2, provider_key: key, ...settings } }
const provider = spec(samlProvider)

t.test('provider stream', async (t) => {
  provider().when({ type: 'AddSamlProvider', provider_id: 7, org_id: 2, provider_key: key, manager: owner, settings }).then(t, [added])
  provider()
    .when({
      type: 'AddSamlProvider',
      provider_id: 7,
      org_id: 2,
      provider_key: key,
      manager: { kind: 'member', role: 'web_builder', user_id: 3 },
      settings,
    })
    .thenThrows(t, 'forbidden')
  provider(added)
    .when({ type: 'AddSamlProvider', provider_id: 7, org_id: 2, provider_key: key, manager: owner, settings })
    .thenThrows(t, 'already_exists')
  provider(added).when({ type: 'UpdateSamlProvider', caller_org_id: 2, manager: owner, settings, active: true }).thenNothingHappens(t)
  provider(added)
    .when({
      type: 'UpdateSamlProvider',
      caller_org_id: 2,
      manager: { kind: 'key' },
      settings: { ...settings, allow_unsolicited: true },
      active: false,
    })
    .then(t, [{ type: 'SamlProviderUpdated', data: { provider_id: 7, org_id: 2, ...settings, allow_unsolicited: true, active: false } }])
  provider(added).when({ type: 'UpdateSamlProvider', caller_org_id: 3, manager: owner, settings, active: true }).thenThrows(t, 'not_found')
  provider(added)
    .when({ type: 'UpdateSamlProvider', caller_org_id: 2, manager: { kind: 'member', role: 'viewer', user_id: 4 }, settings, active: true })
    .thenThrows(t, 'forbidden')
  provider(added).when({ type: 'DeleteSamlProvider', caller_org_id: 3, manager: owner }).thenThrows(t, 'not_found')
  provider(added)
    .when({ type: 'DeleteSamlProvider', caller_org_id: null, manager: owner })
    .then(t, [{ type: 'SamlProviderDeleted', data: { provider_id: 7, org_id: 2 } }])
  provider(added, { type: 'SamlProviderDeleted', data: { provider_id: 7, org_id: 2 } })
    .when({ type: 'DeleteSamlProvider', caller_org_id: 2, manager: owner })
    .thenThrows(t, 'not_found')
})

const now = new Date('2026-11-25T12:00:00.000Z')
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString()
const expected: SamlExpectations = {
  idpEntityId: 'https://idp.acme.test/metadata',
  spEntityId: 'https://rr.test/saml/k/metadata',
  acsUrl: 'https://rr.test/saml/k/acs',
  allowUnsolicited: false,
  now,
}
const good: SamlAssertionFacts = {
  responseIssuer: expected.idpEntityId,
  responseDestination: expected.acsUrl,
  responseInResponseTo: '_req1',
  assertionId: '_a1',
  assertionIssuer: expected.idpEntityId,
  audienceRestrictions: [[expected.spEntityId]],
  notBefore: at(-60_000),
  notOnOrAfter: at(5 * 60_000),
  bearerConfirmations: [{ recipient: expected.acsUrl, inResponseTo: '_req1', notBefore: null, notOnOrAfter: at(5 * 60_000) }],
}
const bearer = good.bearerConfirmations[0]!

t.test('an assertion that passes: its request and how long it stays in the replay cache', async (t) => {
  t.same(checkSamlAssertion(good, expected), { ok: true, inResponseTo: '_req1', replayUntil: new Date(now.getTime() + 6 * 60_000) })
  t.match(
    checkSamlAssertion({ ...good, responseIssuer: null, responseDestination: null, responseInResponseTo: null }, expected),
    { ok: true, inResponseTo: '_req1' },
    'the envelope may leave them out',
  )
  t.match(
    checkSamlAssertion({ ...good, audienceRestrictions: [['https://other.test', expected.spEntityId]] }, expected),
    { ok: true },
    'one audience of several',
  )
})

t.test('each check, one fact off', async (t) => {
  const cases: [string, Partial<SamlAssertionFacts>, string, Partial<SamlExpectations>?][] = [
    ['assertion issuer', { assertionIssuer: 'https://evil.test' }, 'issuer_mismatch'],
    ['no assertion issuer', { assertionIssuer: null }, 'issuer_mismatch'],
    ['response issuer', { responseIssuer: 'https://evil.test' }, 'issuer_mismatch'],
    ['destination', { responseDestination: 'https://evil.test/acs' }, 'destination_mismatch'],
    ['no audience restriction', { audienceRestrictions: [] }, 'audience_mismatch'],
    ['another audience', { audienceRestrictions: [['https://other.test']] }, 'audience_mismatch'],
    ['a second restriction without us', { audienceRestrictions: [[expected.spEntityId], ['https://other.test']] }, 'audience_mismatch'],
    ['NotBefore ahead beyond the skew', { notBefore: at(2 * 60_000) }, 'assertion_not_yet_valid'],
    ['NotOnOrAfter passed beyond the skew', { notOnOrAfter: at(-2 * 60_000) }, 'assertion_expired'],
    ['a Conditions time that is not a date', { notOnOrAfter: 'soon' }, 'saml_response_invalid'],
    ['recipient', { bearerConfirmations: [{ ...bearer, recipient: 'https://evil.test/acs' }] }, 'recipient_mismatch'],
    ['no bearer confirmation', { bearerConfirmations: [] }, 'recipient_mismatch'],
    ['confirmation expired', { bearerConfirmations: [{ ...bearer, notOnOrAfter: at(-2 * 60_000) }] }, 'assertion_expired'],
    ['confirmation not yet valid', { bearerConfirmations: [{ ...bearer, notBefore: at(2 * 60_000) }] }, 'assertion_not_yet_valid'],
    [
      'no end anywhere (replay could never be ruled out)',
      { notOnOrAfter: null, bearerConfirmations: [{ ...bearer, notOnOrAfter: null }] },
      'saml_response_invalid',
    ],
    ['the envelope and the assertion answer different requests', { responseInResponseTo: '_req2' }, 'in_response_to_unknown'],
    [
      'unsolicited, not allowed',
      { responseInResponseTo: null, bearerConfirmations: [{ ...bearer, inResponseTo: null }] },
      'unsolicited_response',
    ],
  ]
  for (const [name, change, reason, expect] of cases) {
    t.match(checkSamlAssertion({ ...good, ...change }, { ...expected, ...expect }), { ok: false, reason }, name)
  }
})

t.test('the clock skew both ways, and unsolicited when allowed', async (t) => {
  t.match(
    checkSamlAssertion({ ...good, notBefore: at(30_000) }, expected),
    { ok: true },
    'NotBefore 30 s ahead: the IdP clock a little fast',
  )
  t.match(
    checkSamlAssertion({ ...good, notOnOrAfter: at(-30_000), bearerConfirmations: [{ ...bearer, notOnOrAfter: at(-30_000) }] }, expected),
    { ok: true },
    '30 s past: a little slow',
  )
  const unsolicited = { ...good, responseInResponseTo: null, bearerConfirmations: [{ ...bearer, inResponseTo: null }] }
  t.match(checkSamlAssertion(unsolicited, { ...expected, allowUnsolicited: true }), { ok: true, inResponseTo: null })
  t.match(
    checkSamlAssertion({ ...good, bearerConfirmations: [{ ...bearer, recipient: 'https://evil.test' }, bearer] }, expected),
    { ok: true },
    'any one confirmation for us confirms the subject',
  )
})
