import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import { canManageMembers, type MemberManager, type Role } from '../people/roles.js'
import type { SsoProviderEvent } from './events.js'

/** One identity provider of one organization: `sso_provider-<id>`. */
export const ssoProviderStream = (providerId: number) => `sso_provider-${providerId}`
/** The audit trail of a provider's refused sign-ins (appended to, never folded). */
export const ssoSignInStream = (providerId: number) => `sso_sign_ins-${providerId}`

export interface ProviderSettings {
  readonly label: string
  readonly issuer: string
  readonly client_id: string
  readonly client_secret_sealed: string | null
  readonly allowed_domains: readonly string[]
  readonly default_role: Role
  readonly hosted_domain: string
  readonly allow_signup: boolean
}

export interface SsoProviderState {
  readonly exists: boolean
  readonly deleted: boolean
  readonly providerId: number
  readonly orgId: number | null
  readonly settings: ProviderSettings | null
  readonly active: boolean
}

export type SsoProviderCommand =
  | { type: 'AddSsoProvider'; provider_id: number; org_id: number; manager: MemberManager; settings: ProviderSettings }
  /** `settings`: the whole new settings (the caller merged the change into the current ones). */
  | { type: 'UpdateSsoProvider'; caller_org_id: number | null; manager: MemberManager; settings: ProviderSettings; active: boolean }
  | { type: 'DeleteSsoProvider'; caller_org_id: number | null; manager: MemberManager }

export const initialSsoProviderState = (): SsoProviderState => ({
  exists: false,
  deleted: false,
  providerId: 0,
  orgId: null,
  settings: null,
  active: false,
})

const settingsOf = (d: ProviderSettings) => ({
  label: d.label,
  issuer: d.issuer,
  client_id: d.client_id,
  client_secret_sealed: d.client_secret_sealed,
  allowed_domains: [...d.allowed_domains],
  default_role: d.default_role,
  hosted_domain: d.hosted_domain,
  allow_signup: d.allow_signup,
})

function evolve(state: SsoProviderState, event: SsoProviderEvent): SsoProviderState {
  switch (event.type) {
    case 'SsoProviderAdded':
      return {
        exists: true,
        deleted: false,
        providerId: event.data.provider_id,
        orgId: event.data.org_id,
        settings: settingsOf(event.data),
        active: true,
      }
    case 'SsoProviderUpdated':
      return { ...state, settings: settingsOf(event.data), active: event.data.active }
    case 'SsoProviderDeleted':
      return { ...state, deleted: true, active: false }
    default:
      return assertNever(event)
  }
}

/** Only an owner (or a key acting at owner level) manages identity providers, of either protocol. */
export function requireManager(manager: MemberManager): void {
  if (!canManageMembers(manager))
    throw new DomainError(
      'forbidden',
      'Only an owner may manage identity providers',
      `role ${manager.kind === 'member' ? manager.role : 'key'}`,
    )
}

/** Another organization's provider, a deleted one and a missing one answer alike. */
export function requireProvider(
  state: Pick<SsoProviderState, 'exists' | 'deleted' | 'orgId' | 'providerId'>,
  callerOrgId: number | null,
  entity: 'sso_provider' | 'saml_provider' = 'sso_provider',
): void {
  if (!state.exists || state.deleted || (callerOrgId !== null && state.orgId !== callerOrgId))
    throw new NotFoundError(entity, state.providerId)
}

const same = (a: ProviderSettings, b: ProviderSettings) => JSON.stringify(settingsOf(a)) === JSON.stringify(settingsOf(b))

function decide(command: SsoProviderCommand, state: SsoProviderState): SsoProviderEvent[] {
  switch (command.type) {
    case 'AddSsoProvider':
      requireManager(command.manager)
      if (state.exists)
        throw new DomainError('already_exists', 'The identity provider already exists', `sso_provider ${command.provider_id}`)
      return [
        { type: 'SsoProviderAdded', data: { provider_id: command.provider_id, org_id: command.org_id, ...settingsOf(command.settings) } },
      ]
    case 'UpdateSsoProvider':
      requireProvider(state, command.caller_org_id)
      requireManager(command.manager)
      if (same(state.settings!, command.settings) && state.active === command.active) return []
      return [
        {
          type: 'SsoProviderUpdated',
          data: { provider_id: state.providerId, org_id: state.orgId!, ...settingsOf(command.settings), active: command.active },
        },
      ]
    case 'DeleteSsoProvider':
      requireProvider(state, command.caller_org_id)
      requireManager(command.manager)
      return [{ type: 'SsoProviderDeleted', data: { provider_id: state.providerId, org_id: state.orgId! } }]
    default:
      return assertNever(command)
  }
}

export const ssoProvider: Aggregate<SsoProviderState, SsoProviderCommand, SsoProviderEvent> = {
  streamOf: ssoProviderStream,
  orgOf: (state) => state.orgId,
  initialState: initialSsoProviderState,
  evolve,
  decide,
}
