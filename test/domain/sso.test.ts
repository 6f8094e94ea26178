/**
 * Single sign-on in the domain, given/when/then: the provider stream (owner-level, another organization's
 * provider answers as missing, no-op updates), the identity check (verified email, hosted domain), the
 * provisioning rule (existing member, allowed domain, signup, refusal, another organization's member), and the
 * SSO events of the user stream.
 */
import t from 'tap'
import type { UserEvent } from '../../domain/people/events.js'
import { user } from '../../domain/people/user.js'
import type { SsoProviderEvent } from '../../domain/sso/events.js'
import { ssoProvider, type ProviderSettings } from '../../domain/sso/provider.js'
import { checkAssertedIdentity, provisioningDecision, type ProviderRules } from '../../domain/sso/provisioning.js'
import { spec } from './given-when-then.js'

const settings: ProviderSettings = {
  label: 'Acme IdP',
  issuer: 'https://idp.acme.test',
  client_id: 'client',
  client_secret_sealed: 'v1.k.iv.tag.ct',
  allowed_domains: ['acme.test'],
  default_role: 'viewer',
  hosted_domain: '',
  allow_signup: false,
}
const owner = { kind: 'member', role: 'owner', user_id: 1 } as const
const added: SsoProviderEvent = {
  type: 'SsoProviderAdded',
  data: { provider_id: 7, org_id: 2, ...settings, allowed_domains: ['acme.test'] },
}
const provider = spec(ssoProvider)

t.test('provider stream', async (t) => {
  provider().when({ type: 'AddSsoProvider', provider_id: 7, org_id: 2, manager: owner, settings }).then(t, [added])
  provider()
    .when({ type: 'AddSsoProvider', provider_id: 7, org_id: 2, manager: { kind: 'member', role: 'seo_editor', user_id: 3 }, settings })
    .thenThrows(t, 'forbidden')
  provider(added).when({ type: 'AddSsoProvider', provider_id: 7, org_id: 2, manager: owner, settings }).thenThrows(t, 'already_exists')
  provider(added).when({ type: 'UpdateSsoProvider', caller_org_id: 2, manager: owner, settings, active: true }).thenNothingHappens(t)
  provider(added)
    .when({ type: 'UpdateSsoProvider', caller_org_id: 2, manager: { kind: 'key' }, settings: { ...settings, label: 'New' }, active: false })
    .then(t, [
      {
        type: 'SsoProviderUpdated',
        data: { provider_id: 7, org_id: 2, ...settings, allowed_domains: ['acme.test'], label: 'New', active: false },
      },
    ])
  provider(added)
    .when({ type: 'UpdateSsoProvider', caller_org_id: 3, manager: owner, settings, active: true })
    .thenThrows(t, 'not_found', { detail: 'sso_provider 7 not found' })
  provider(added).when({ type: 'DeleteSsoProvider', caller_org_id: 3, manager: owner }).thenThrows(t, 'not_found')
  provider(added)
    .when({ type: 'DeleteSsoProvider', caller_org_id: null, manager: owner })
    .then(t, [{ type: 'SsoProviderDeleted', data: { provider_id: 7, org_id: 2 } }])
  provider(added, { type: 'SsoProviderDeleted', data: { provider_id: 7, org_id: 2 } })
    .when({ type: 'DeleteSsoProvider', caller_org_id: 2, manager: owner })
    .thenThrows(t, 'not_found')
})

const rules: ProviderRules = {
  orgId: 2,
  allowedDomains: ['acme.test'],
  defaultRole: 'seo_editor',
  hostedDomain: '',
  allowSignup: false,
  publicSignup: false,
}

t.test('the identity check', async (t) => {
  t.same(checkAssertedIdentity({ email: ' Ann@ACME.test ', emailVerified: true, hostedDomain: undefined }, rules), {
    ok: true,
    email: 'ann@acme.test',
    domain: 'acme.test',
  })
  t.same(
    checkAssertedIdentity({ email: 'ann@acme.test', emailVerified: 'true', hostedDomain: undefined }, rules),
    { ok: false, reason: 'email_unverified', domain: 'acme.test' },
    'only the boolean true',
  )
  t.same(checkAssertedIdentity({ email: 'ann@acme.test', emailVerified: undefined, hostedDomain: undefined }, rules).ok, false)
  t.same(checkAssertedIdentity({ email: null, emailVerified: true, hostedDomain: undefined }, rules), {
    ok: false,
    reason: 'email_missing',
    domain: null,
  })
  const hd = { ...rules, hostedDomain: 'acme.test' }
  t.same(checkAssertedIdentity({ email: 'ann@acme.test', emailVerified: true, hostedDomain: 'ACME.test' }, hd).ok, true)
  t.same(checkAssertedIdentity({ email: 'ann@acme.test', emailVerified: true, hostedDomain: undefined }, hd), {
    ok: false,
    reason: 'hosted_domain_mismatch',
    domain: 'acme.test',
  })
  t.same(checkAssertedIdentity({ email: 'ann@acme.test', emailVerified: true, hostedDomain: 'evil.test' }, hd).ok, false)
})

t.test('the provisioning rule', async (t) => {
  t.same(provisioningDecision({ domain: 'acme.test', existing: { userId: 5, orgId: 2, member: true }, rules }), {
    kind: 'sign_in',
    userId: 5,
  })
  t.same(
    provisioningDecision({ domain: 'other.test', existing: { userId: 5, orgId: 2, member: true }, rules }),
    { kind: 'sign_in', userId: 5 },
    'a member signs in whatever the domain',
  )
  t.same(
    provisioningDecision({ domain: 'acme.test', existing: { userId: 5, orgId: 9, member: true }, rules }),
    { kind: 'refuse', reason: 'account_unavailable' },
    "another organization's member",
  )
  t.same(provisioningDecision({ domain: 'acme.test', existing: null, rules }), { kind: 'provision', orgId: 2, role: 'seo_editor' })
  t.same(
    provisioningDecision({ domain: 'eu.acme.test', existing: null, rules }),
    { kind: 'refuse', reason: 'domain_not_allowed' },
    'sub-domains are listed on their own',
  )
  t.same(provisioningDecision({ domain: 'else.test', existing: null, rules: { ...rules, allowSignup: true } }), { kind: 'signup' })
  t.same(
    provisioningDecision({ domain: 'else.test', existing: null, rules: { ...rules, publicSignup: true } }),
    { kind: 'signup' },
    'the service’s public signup',
  )
  t.same(provisioningDecision({ domain: 'else.test', existing: null, rules }), { kind: 'refuse', reason: 'domain_not_allowed' })
})

t.test('SSO on the user stream', async (t) => {
  const u = spec(user)
  const provisioned: UserEvent = {
    type: 'OrgMemberProvisionedBySso',
    data: { user_id: 5, org_id: 2, email: 'new@acme.test', role: 'viewer', provider_id: 7, protocol: 'oidc', via: 'allowed_domain' },
  }
  u()
    .when({
      type: 'ProvisionBySso',
      user_id: 5,
      org_id: 2,
      email: 'new@acme.test',
      role: 'viewer',
      provider_id: 7,
      protocol: 'oidc',
      via: 'allowed_domain',
    })
    .then(t, [provisioned])
  u(provisioned)
    .when({
      type: 'ProvisionBySso',
      user_id: 5,
      org_id: 2,
      email: 'new@acme.test',
      role: 'viewer',
      provider_id: 7,
      protocol: 'oidc',
      via: 'allowed_domain',
    })
    .thenThrows(t, 'already_exists')
  const signIn = {
    type: 'SignInWithSso',
    provider_id: 7,
    protocol: 'oidc',
    provider_org_id: 2,
    subject: 'sub-1',
    session_hash: 'a'.repeat(64),
    expires_at: '2026-11-26T00:00:00.000Z',
  } as const
  u(provisioned)
    .when(signIn)
    .then(t, [
      {
        type: 'UserSignedInWithSso',
        data: {
          user_id: 5,
          org_id: 2,
          provider_id: 7,
          protocol: 'oidc',
          session_hash: 'a'.repeat(64),
          expires_at: '2026-11-26T00:00:00.000Z',
          subject: 'sub-1',
        },
      },
    ])
  u(provisioned)
    .when({ ...signIn, provider_org_id: 3 })
    .thenThrows(t, 'sign_in_failed', { detail: 'not a member of the provider organization' })
  u(provisioned, { type: 'OrgMemberRemoved', data: { user_id: 5, org_id: 2 } })
    .when(signIn)
    .thenThrows(t, 'sign_in_failed')
  u().when(signIn).thenThrows(t, 'sign_in_failed')
})
