import { randomBytes } from 'node:crypto'
import type { UserEvent } from '../domain/people/events.js'
import type { MemberManager, Role } from '../domain/people/roles.js'
import { SESSION_TTL_MS } from '../domain/people/policy.js'
import { user } from '../domain/people/user.js'
import { DomainError, NotFoundError } from '../domain/shared/errors.js'
import type { SsoFailureReason, SsoProtocol } from '../domain/sso/events.js'
import { ssoProvider, ssoSignInStream, type ProviderSettings, type SsoProviderState } from '../domain/sso/provider.js'
import { checkAssertedIdentity, provisioningDecision, type AssertedIdentity, type ProviderRules } from '../domain/sso/provisioning.js'
import { appendAudit } from './append.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'
import { createOrganization } from './organizations.js'
import { claimAccountEmail, loadUser, memberIdInOrg, reserveOrgMemberEmail, sha256, userIdByEmail } from './people.js'

/**
 * The write side of single sign-on: identity providers (their streams), and what a verified sign-in does
 * (domain/sso/provisioning.ts decides; this records it). The OIDC protocol itself (discovery, the redirect,
 * the token exchange and id_token checks) is read-api/sso/; by the time `completeSsoSignIn` runs, the
 * id_token has been verified and only its claims are passed in.
 */
export interface SsoProviderOutcome {
  readonly state: SsoProviderState
  readonly position: Position | null
}

function run(
  deps: WriteDeps,
  context: CommandContext,
  providerId: number,
  command: Parameters<typeof ssoProvider.decide>[0],
): Promise<SsoProviderOutcome> {
  return handleCommand(deps, { aggregate: ssoProvider, id: providerId, command, context }).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError('sso_provider', providerId)
    throw error
  })
}

/** The provider as its stream says (the authority; the read model never holds the sealed secret). */
export async function loadSsoProvider(deps: WriteDeps, providerId: number): Promise<SsoProviderState> {
  const state = await loadState(deps.store, ssoProvider, providerId)
  return state.exists ? state : { ...state, providerId }
}

export async function addSsoProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; manager: MemberManager; settings: ProviderSettings },
): Promise<SsoProviderOutcome & { providerId: number }> {
  const providerId = await deps.ids.next('sso_provider')
  const outcome = await run(deps, context, providerId, {
    type: 'AddSsoProvider',
    provider_id: providerId,
    org_id: input.orgId,
    manager: input.manager,
    settings: input.settings,
  })
  return { ...outcome, providerId }
}

export function updateSsoProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { providerId: number; callerOrgId: number | null; manager: MemberManager; settings: ProviderSettings; active: boolean },
): Promise<SsoProviderOutcome> {
  return run(deps, context, input.providerId, {
    type: 'UpdateSsoProvider',
    caller_org_id: input.callerOrgId,
    manager: input.manager,
    settings: input.settings,
    active: input.active,
  })
}

export function deleteSsoProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { providerId: number; callerOrgId: number | null; manager: MemberManager },
): Promise<SsoProviderOutcome> {
  return run(deps, context, input.providerId, { type: 'DeleteSsoProvider', caller_org_id: input.callerOrgId, manager: input.manager })
}

/**
 * The IdP's subject as a refusal records it: an OIDC `sub` is opaque, but a SAML NameID is often the email
 * address itself, and refusals never carry one (the email's domain is recorded instead).
 */
const auditableSubject = (subject: string | null | undefined) =>
  subject === undefined || subject === null || subject.includes('@') ? null : subject.slice(0, 2000)

/** Records a refused SSO sign-in on the provider's audit stream (never an email address, never a token). */
export async function recordSsoSignInFailure(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    providerId: number
    orgId: number
    protocol: SsoProtocol
    reason: SsoFailureReason
    emailDomain?: string | null
    subject?: string | null
    detail?: string | null
  },
): Promise<Position> {
  return appendAudit(
    deps,
    ssoSignInStream(input.providerId),
    [
      {
        type: 'SsoSignInFailed',
        data: {
          provider_id: input.providerId,
          protocol: input.protocol,
          org_id: input.orgId,
          reason: input.reason,
          email_domain: input.emailDomain ?? null,
          subject: auditableSubject(input.subject),
          detail: input.detail === undefined || input.detail === null ? null : input.detail.slice(0, 2000),
          at: deps.clock().toISOString(),
        },
      },
    ],
    context,
    input.orgId,
  )
}

/** The provider a verified identity came from, whatever its protocol. */
export interface SignInProvider {
  readonly protocol: SsoProtocol
  readonly providerId: number
  readonly rules: ProviderRules
}

export const rulesOf = (state: SsoProviderState, publicSignup: boolean): ProviderRules => ({
  orgId: state.orgId!,
  allowedDomains: state.settings!.allowed_domains,
  defaultRole: state.settings!.default_role,
  hostedDomain: state.settings!.hosted_domain,
  allowSignup: state.settings!.allow_signup,
  publicSignup,
})

export type SsoSignInOutcome =
  | {
      readonly ok: true
      readonly userId: number
      readonly orgId: number
      readonly sessionToken: string
      readonly expiresAt: string
      readonly provisioned: 'allowed_domain' | 'signup' | null
      readonly position: Position | null
    }
  | { readonly ok: false; readonly reason: SsoFailureReason; readonly position: Position }

const mintToken = () => randomBytes(32).toString('base64url')

/**
 * A verified identity (an OIDC id_token's claims, or a SAML assertion's email), turned into a session: the identity check (verified email, hosted domain),
 * the provisioning rule, then the events — provisioning (with the email's reservation, so two first sign-ins
 * of one address cannot both create a user), and the SSO sign-in on the person's stream. A refusal is recorded
 * with its reason and answered `ok: false` (the caller shows one generic message for every reason).
 */
export async function completeSsoSignIn(
  deps: WriteDeps,
  input: { provider: SignInProvider; subject: string; identity: AssertedIdentity; requestId: string | null },
): Promise<SsoSignInOutcome> {
  const provider = input.provider
  const rules = provider.rules
  const correlationId = input.requestId ?? sha256(mintToken()).slice(0, 32)
  const systemContext: CommandContext = {
    actor: { kind: 'system', id: `sso_provider:${provider.providerId}` },
    requestId: input.requestId,
    correlationId,
    causationId: null,
  }
  const refuse = async (reason: SsoFailureReason, domain: string | null) => ({
    ok: false as const,
    reason,
    position: await recordSsoSignInFailure(deps, systemContext, {
      providerId: provider.providerId,
      orgId: rules.orgId,
      protocol: provider.protocol,
      reason,
      emailDomain: domain,
      subject: input.subject,
    }),
  })

  const checked = checkAssertedIdentity(input.identity, rules)
  if (!checked.ok) return refuse(checked.reason, checked.domain)

  // The account the address signs in as; without one, the provider organization's own pending invitee (an
  // invite reserves the address only in its organization; the provider proves the address, so it takes it up).
  const existingId = (await userIdByEmail(deps, checked.email)) ?? (await memberIdInOrg(deps, rules.orgId, checked.email))
  const existingState = existingId === null ? null : await loadUser(deps, existingId)
  const existing =
    existingState === null || !existingState.exists
      ? null
      : { userId: existingState.userId, orgId: existingState.orgId!, member: !existingState.removed }
  const decision = provisioningDecision({ domain: checked.domain, existing, rules })
  if (decision.kind === 'refuse') return refuse(decision.reason, checked.domain)

  let userId: number
  let provisioned: 'allowed_domain' | 'signup' | null = null
  if (decision.kind === 'sign_in') {
    userId = decision.userId
    try {
      await claimAccountEmail(deps, systemContext, { userId, orgId: rules.orgId, email: checked.email })
    } catch (error) {
      // Another organization's invite was accepted for this address meanwhile: it signs in there now.
      if (error instanceof DomainError && error.code === 'email_taken') return refuse('account_unavailable', checked.domain)
      throw error
    }
  } else {
    let orgId: number
    let role: Role
    if (decision.kind === 'provision') {
      orgId = decision.orgId
      role = decision.role
      provisioned = 'allowed_domain'
    } else {
      const created = await createOrganization(deps, systemContext, { name: checked.domain })
      orgId = created.orgId
      role = 'owner'
      provisioned = 'signup'
    }
    userId = await deps.ids.next('user')
    try {
      await claimAccountEmail(deps, systemContext, { userId, orgId, email: checked.email })
    } catch (error) {
      // Another first sign-in (or an accepted invite) of this address won the race: refuse this one; a retry signs in.
      if (error instanceof DomainError && error.code === 'email_taken') return refuse('account_unavailable', checked.domain)
      throw error
    }
    // Theirs in the organization too, so an owner's invite of the same address finds the member.
    await reserveOrgMemberEmail(deps, systemContext, { userId, orgId, email: checked.email })
    await handleCommand(deps, {
      aggregate: user,
      id: userId,
      command: {
        type: 'ProvisionBySso',
        user_id: userId,
        org_id: orgId,
        email: checked.email,
        role,
        provider_id: provider.providerId,
        protocol: provider.protocol,
        via: provisioned,
      },
      context: systemContext,
    })
  }

  const sessionToken = mintToken()
  const expiresAt = new Date(deps.clock().getTime() + SESSION_TTL_MS).toISOString()
  const userContext: CommandContext = { actor: { kind: 'user', id: userId }, requestId: input.requestId, correlationId, causationId: null }
  const providerOrgId = provisioned === 'signup' ? (await loadUser(deps, userId)).orgId! : rules.orgId
  try {
    const outcome = await handleCommand(deps, {
      aggregate: user,
      id: userId,
      command: {
        type: 'SignInWithSso',
        provider_id: provider.providerId,
        protocol: provider.protocol,
        provider_org_id: providerOrgId,
        subject: input.subject,
        session_hash: sha256(sessionToken),
        expires_at: expiresAt,
      },
      context: userContext,
    })
    const event = outcome.events[0] as Extract<UserEvent, { type: 'UserSignedInWithSso' }>
    return { ok: true, userId, orgId: event.data.org_id, sessionToken, expiresAt, provisioned, position: outcome.position }
  } catch (error) {
    if (error instanceof DomainError && error.code === 'sign_in_failed') return refuse('account_unavailable', checked.domain)
    throw error
  }
}
