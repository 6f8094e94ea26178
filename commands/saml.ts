import { randomBytes } from 'node:crypto'
import type { MemberManager } from '../domain/people/roles.js'
import { NotFoundError } from '../domain/shared/errors.js'
import type { SamlProviderSettings } from '../domain/sso/saml-events.js'
import { samlProvider, type SamlProviderCommand, type SamlProviderState } from '../domain/sso/saml-provider.js'
import type { ProviderRules } from '../domain/sso/provisioning.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

/**
 * The write side of SAML identity providers (their streams). The protocol (AuthnRequests, verifying a
 * Response) is read-api/saml/; what a verified sign-in does is commands/sso.ts `completeSsoSignIn`, shared with
 * OIDC. Ids come from the one `sso_provider` sequence (domain/sso/events.ts says why).
 */
export interface SamlProviderOutcome {
  readonly state: SamlProviderState
  readonly position: Position | null
}

function run(deps: WriteDeps, context: CommandContext, providerId: number, command: SamlProviderCommand): Promise<SamlProviderOutcome> {
  return handleCommand(deps, { aggregate: samlProvider, id: providerId, command, context }).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError('saml_provider', providerId)
    throw error
  })
}

/** The provider as its stream says (the sign-in routes decide on this, not on the read model). */
export async function loadSamlProvider(deps: WriteDeps, providerId: number): Promise<SamlProviderState> {
  const state = await loadState(deps.store, samlProvider, providerId)
  return state.exists ? state : { ...state, providerId }
}

/** 24 characters of [a-z0-9] (about 124 bits): unguessable, and safe in a URL path as is. */
const newProviderKey = () => Array.from(randomBytes(24), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')

export async function addSamlProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; manager: MemberManager; settings: SamlProviderSettings },
): Promise<SamlProviderOutcome & { providerId: number; providerKey: string }> {
  const providerId = await deps.ids.next('sso_provider')
  const providerKey = newProviderKey()
  const outcome = await run(deps, context, providerId, {
    type: 'AddSamlProvider',
    provider_id: providerId,
    org_id: input.orgId,
    provider_key: providerKey,
    manager: input.manager,
    settings: input.settings,
  })
  return { ...outcome, providerId, providerKey }
}

export function updateSamlProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { providerId: number; callerOrgId: number | null; manager: MemberManager; settings: SamlProviderSettings; active: boolean },
): Promise<SamlProviderOutcome> {
  return run(deps, context, input.providerId, {
    type: 'UpdateSamlProvider',
    caller_org_id: input.callerOrgId,
    manager: input.manager,
    settings: input.settings,
    active: input.active,
  })
}

export function deleteSamlProvider(
  deps: WriteDeps,
  context: CommandContext,
  input: { providerId: number; callerOrgId: number | null; manager: MemberManager },
): Promise<SamlProviderOutcome> {
  return run(deps, context, input.providerId, { type: 'DeleteSamlProvider', caller_org_id: input.callerOrgId, manager: input.manager })
}

/** A SAML provider's provisioning rules (no hosted-domain rule: that is an OIDC claim). */
export const samlRulesOf = (state: SamlProviderState, publicSignup: boolean): ProviderRules => ({
  orgId: state.orgId!,
  allowedDomains: state.settings!.allowed_domains,
  defaultRole: state.settings!.default_role,
  hostedDomain: '',
  allowSignup: state.settings!.allow_signup,
  publicSignup,
})
