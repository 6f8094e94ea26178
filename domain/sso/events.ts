import { z } from 'zod'
import { RoleSchema } from '../people/roles.js'
import { Id } from '../shared/values.js'

/**
 * Single sign-on. An organization's OIDC identity provider is one stream, `sso_provider-<id>` (added,
 * updated, deleted: decided against its current state). Sign-in failures at a provider are appended to
 * `sso_sign_ins-<provider id>` without loading it (an audit trail, not a decision point, so a burst of
 * failures never slows a provider change). A successful SSO sign-in and an SSO provisioning are events of the
 * person's own stream, `user-<id>` (domain/people), where sessions already live.
 *
 * A SAML provider is `saml_provider-<id>` (domain/sso/saml-events.ts). Both protocols take their ids from one
 * sequence, so a provider id names one provider whatever its protocol, and the sign-in events above serve
 * both (`protocol` says which).
 *
 * The client secret never enters the log in plaintext: `client_secret_sealed` is AES-256-GCM under the
 * service key (commands/secrets/service-key.ts), null for a public client (PKCE only). Failure events carry no
 * email address and never say whether an account exists: only the reason, the email's domain and the IdP's
 * subject.
 */
const Sealed = z.string().min(1).max(2000)
const Time = z.iso.datetime({ offset: true })
const Text = z.string().max(2000)
const Domain = z.string().min(1).max(253)

/** The provider's settings, whole (an update carries them all, so a projector sets rather than merges). */
const ProviderSettings = {
  label: z.string().min(1).max(200),
  issuer: z.string().min(1).max(2000),
  client_id: z.string().min(1).max(500),
  client_secret_sealed: Sealed.nullable(),
  allowed_domains: z.array(Domain).max(100),
  default_role: RoleSchema,
  hosted_domain: z.string().max(253),
  allow_signup: z.boolean(),
}

export const SsoProviderAdded = z.object({ provider_id: Id, org_id: Id, ...ProviderSettings })
export const SsoProviderUpdated = z.object({ provider_id: Id, org_id: Id, ...ProviderSettings, active: z.boolean() })
export const SsoProviderDeleted = z.object({ provider_id: Id, org_id: Id })

/** Why an SSO sign-in was refused (auditable; the person sees one generic message for all of them). */
export const SSO_FAILURE_REASONS = [
  'state_unknown',
  'state_expired',
  'state_reused',
  'browser_mismatch',
  'provider_unavailable',
  'provider_error',
  'id_token_invalid',
  'nonce_mismatch',
  'email_missing',
  'email_unverified',
  'hosted_domain_mismatch',
  'domain_not_allowed',
  'account_unavailable',
  // SAML (read-api/saml/): the Response and its assertion, checked in domain/sso/saml-checks.ts.
  'saml_response_invalid',
  'signature_invalid',
  'assertion_encrypted',
  'destination_mismatch',
  'recipient_mismatch',
  'issuer_mismatch',
  'audience_mismatch',
  'assertion_not_yet_valid',
  'assertion_expired',
  'assertion_replayed',
  'in_response_to_unknown',
  'unsolicited_response',
] as const
export type SsoFailureReason = (typeof SSO_FAILURE_REASONS)[number]

/** Which protocol a provider speaks; absent on events written before SAML existed (all OIDC). */
export const SsoProtocol = z.enum(['oidc', 'saml'])
export type SsoProtocol = z.infer<typeof SsoProtocol>

export const SsoSignInFailed = z.object({
  provider_id: Id,
  protocol: SsoProtocol.optional(),
  org_id: Id,
  reason: z.enum(SSO_FAILURE_REASONS),
  /** The domain of the email the IdP asserted, when it got that far. */
  email_domain: Domain.nullable(),
  /** The IdP's subject, when an id_token was verified. */
  subject: Text.nullable(),
  /** What the IdP or the token check said (never a token). */
  detail: Text.nullable(),
  at: Time,
})

/** A person the provider vouched for joins its organization (`via: signup`: as owner of a new one). */
export const OrgMemberProvisionedBySso = z.object({
  user_id: Id,
  org_id: Id,
  email: z.string().min(3).max(254),
  role: RoleSchema,
  provider_id: Id,
  protocol: SsoProtocol.optional(),
  via: z.enum(['allowed_domain', 'signup']),
})

/** An SSO sign-in: a session like UserSignedIn's; the provider's verified email stands in for password and TOTP. */
export const UserSignedInWithSso = z.object({
  user_id: Id,
  org_id: Id,
  provider_id: Id,
  protocol: SsoProtocol.optional(),
  /** sha256 of the session cookie's token. */
  session_hash: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: Time,
  subject: Text,
})

export const ssoProviderEventSchemas = { SsoProviderAdded, SsoProviderUpdated, SsoProviderDeleted } as const
export const ssoSignInEventSchemas = { SsoSignInFailed } as const
/** User-stream events (folded by domain/people/user.ts). */
export const ssoUserEventSchemas = { OrgMemberProvisionedBySso, UserSignedInWithSso } as const

type Data<T extends z.ZodType> = z.infer<T>
export type SsoProviderEvent =
  | { type: 'SsoProviderAdded'; data: Data<typeof SsoProviderAdded> }
  | { type: 'SsoProviderUpdated'; data: Data<typeof SsoProviderUpdated> }
  | { type: 'SsoProviderDeleted'; data: Data<typeof SsoProviderDeleted> }
export type SsoSignInEvent = { type: 'SsoSignInFailed'; data: Data<typeof SsoSignInFailed> }
export type SsoUserEvent =
  | { type: 'OrgMemberProvisionedBySso'; data: Data<typeof OrgMemberProvisionedBySso> }
  | { type: 'UserSignedInWithSso'; data: Data<typeof UserSignedInWithSso> }
