import type { Role } from '../people/roles.js'
import { domainOfEmail, normalizeDomain } from './domains.js'
import type { SsoFailureReason } from './events.js'

/**
 * What an SSO sign-in does with the identity a provider vouched for, in two pure steps.
 *
 * 1. `checkAssertedIdentity`: only a verified email counts (`email_verified` exactly true), and when the
 *    provider names a hosted domain, the `hd` claim must equal it (Google Workspace's rule: the account
 *    belongs to that workspace, not just an address at that domain).
 * 2. `provisioningDecision`: the email of an existing member of the provider's organization signs that member
 *    in (the provider stands in for password and TOTP). An unknown email whose domain is in the provider's
 *    allowed_domains joins its organization with default_role; otherwise, when the provider allows signup,
 *    (or the service's public signup is open) it becomes the owner of a new organization; otherwise it is refused ("ask an owner for an invite").
 *
 * An email that belongs to a member of another organization is refused, on purpose: an organization owner can
 * add any issuer, and an issuer they control can assert any address, so trusting it for other organizations'
 * members would let one owner sign in as anyone. Refusals all look the same to the person (no account
 * enumeration); the reason is recorded for the organization's auditors.
 */
export interface AssertedIdentity {
  readonly email: string | null
  readonly emailVerified: unknown
  readonly hostedDomain: unknown
}

export interface ProviderRules {
  readonly orgId: number
  readonly allowedDomains: readonly string[]
  readonly defaultRole: Role
  readonly hostedDomain: string
  readonly allowSignup: boolean
  /** The service's own setting (SSO_PUBLIC_SIGNUP): any provider's unknown verified email may sign up. */
  readonly publicSignup: boolean
}

export type IdentityCheck =
  | { readonly ok: true; readonly email: string; readonly domain: string }
  | { readonly ok: false; readonly reason: SsoFailureReason; readonly domain: string | null }

export function checkAssertedIdentity(identity: AssertedIdentity, rules: ProviderRules): IdentityCheck {
  const email = typeof identity.email === 'string' ? identity.email.trim().toLowerCase() : ''
  const domain = email === '' ? null : domainOfEmail(email)
  if (domain === null) return { ok: false, reason: 'email_missing', domain: null }
  if (identity.emailVerified !== true) return { ok: false, reason: 'email_unverified', domain }
  if (rules.hostedDomain !== '') {
    const hd = typeof identity.hostedDomain === 'string' ? normalizeDomain(identity.hostedDomain) : null
    if (hd !== normalizeDomain(rules.hostedDomain)) return { ok: false, reason: 'hosted_domain_mismatch', domain }
  }
  return { ok: true, email, domain }
}

/** The person the email belongs to today, from its reservation and their stream; null: nobody. */
export interface ExistingPerson {
  readonly userId: number
  readonly orgId: number
  /** Not removed (an invited member who never enrolled counts: the provider proves the address). */
  readonly member: boolean
}

export type ProvisioningDecision =
  | { readonly kind: 'sign_in'; readonly userId: number }
  | { readonly kind: 'provision'; readonly orgId: number; readonly role: Role }
  | { readonly kind: 'signup' }
  | { readonly kind: 'refuse'; readonly reason: SsoFailureReason }

export function provisioningDecision(input: {
  readonly domain: string
  readonly existing: ExistingPerson | null
  readonly rules: ProviderRules
}): ProvisioningDecision {
  const { existing, rules } = input
  if (existing !== null) {
    if (existing.member && existing.orgId === rules.orgId) return { kind: 'sign_in', userId: existing.userId }
    return { kind: 'refuse', reason: 'account_unavailable' }
  }
  if (rules.allowedDomains.map(normalizeDomain).includes(normalizeDomain(input.domain)))
    return { kind: 'provision', orgId: rules.orgId, role: rules.defaultRole }
  if (rules.allowSignup || rules.publicSignup) return { kind: 'signup' }
  return { kind: 'refuse', reason: 'domain_not_allowed' }
}
