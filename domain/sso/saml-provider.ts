import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { MemberManager } from '../people/roles.js'
import { requireManager, requireProvider } from './provider.js'
import type { SamlProviderEvent, SamlProviderSettings } from './saml-events.js'

/** One SAML identity provider of one organization: `saml_provider-<id>`. */
export const samlProviderStream = (providerId: number) => `saml_provider-${providerId}`

export interface SamlProviderState {
  readonly exists: boolean
  readonly deleted: boolean
  readonly providerId: number
  readonly orgId: number | null
  readonly providerKey: string | null
  readonly settings: SamlProviderSettings | null
  readonly active: boolean
}

export type SamlProviderCommand =
  | {
      type: 'AddSamlProvider'
      provider_id: number
      org_id: number
      provider_key: string
      manager: MemberManager
      settings: SamlProviderSettings
    }
  /** `settings`: the whole new settings (the caller merged the change into the current ones). */
  | { type: 'UpdateSamlProvider'; caller_org_id: number | null; manager: MemberManager; settings: SamlProviderSettings; active: boolean }
  | { type: 'DeleteSamlProvider'; caller_org_id: number | null; manager: MemberManager }

export const initialSamlProviderState = (): SamlProviderState => ({
  exists: false,
  deleted: false,
  providerId: 0,
  orgId: null,
  providerKey: null,
  settings: null,
  active: false,
})

const settingsOf = (d: SamlProviderSettings): SamlProviderSettings => ({
  label: d.label,
  idp_entity_id: d.idp_entity_id,
  sso_url: d.sso_url,
  certificates: [...d.certificates],
  metadata_xml: d.metadata_xml,
  email_attribute: d.email_attribute,
  allow_unsolicited: d.allow_unsolicited,
  allowed_domains: [...d.allowed_domains],
  default_role: d.default_role,
  allow_signup: d.allow_signup,
})
const same = (a: SamlProviderSettings, b: SamlProviderSettings) => JSON.stringify(settingsOf(a)) === JSON.stringify(settingsOf(b))

function evolve(state: SamlProviderState, event: SamlProviderEvent): SamlProviderState {
  switch (event.type) {
    case 'SamlProviderAdded':
      return {
        exists: true,
        deleted: false,
        providerId: event.data.provider_id,
        orgId: event.data.org_id,
        providerKey: event.data.provider_key,
        settings: settingsOf(event.data),
        active: true,
      }
    case 'SamlProviderUpdated':
      return { ...state, settings: settingsOf(event.data), active: event.data.active }
    case 'SamlProviderDeleted':
      return { ...state, deleted: true, active: false }
    default:
      return assertNever(event)
  }
}

function decide(command: SamlProviderCommand, state: SamlProviderState): SamlProviderEvent[] {
  switch (command.type) {
    case 'AddSamlProvider':
      requireManager(command.manager)
      if (state.exists)
        throw new DomainError('already_exists', 'The identity provider already exists', `saml_provider ${command.provider_id}`)
      return [
        {
          type: 'SamlProviderAdded',
          data: {
            provider_id: command.provider_id,
            org_id: command.org_id,
            provider_key: command.provider_key,
            ...settingsOf(command.settings),
          },
        },
      ]
    case 'UpdateSamlProvider':
      requireProvider(state, command.caller_org_id, 'saml_provider')
      requireManager(command.manager)
      if (same(state.settings!, command.settings) && state.active === command.active) return []
      return [
        {
          type: 'SamlProviderUpdated',
          data: { provider_id: state.providerId, org_id: state.orgId!, ...settingsOf(command.settings), active: command.active },
        },
      ]
    case 'DeleteSamlProvider':
      requireProvider(state, command.caller_org_id, 'saml_provider')
      requireManager(command.manager)
      return [{ type: 'SamlProviderDeleted', data: { provider_id: state.providerId, org_id: state.orgId! } }]
    default:
      return assertNever(command)
  }
}

export const samlProvider: Aggregate<SamlProviderState, SamlProviderCommand, SamlProviderEvent> = {
  streamOf: samlProviderStream,
  orgOf: (state) => state.orgId,
  initialState: initialSamlProviderState,
  evolve,
  decide,
}
