import { assertVisible } from '../../domain/clients/client.js'
import { cadence, type CadenceState } from '../../domain/aeo/runs/cadence.js'
import type { Engine } from '../../domain/aeo/engines.js'
import { DomainError } from '../../domain/shared/errors.js'
import { loadClient } from '../clients.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** The cadence as the API shows it (get_aeo_cadence, set_aeo_cadence). */
export interface CadenceView {
  enabled: boolean
  samples_per_month: number
  engines: Engine[]
  geo_state: string | null
}

export const cadenceView = (state: CadenceState): CadenceView => ({
  enabled: state.enabled,
  samples_per_month: state.samplesPerMonth,
  engines: [...state.engines],
  geo_state: state.geoState,
})

export interface SetCadenceInput {
  readonly callerOrgId: number | null
  readonly clientId: number
  readonly samplesPerMonth: number
  readonly engines: readonly Engine[]
  readonly geoState: string | null
  readonly enabled: boolean
}

/**
 * Enrols a client in AI Visibility (or changes or disables its cadence). A deleted client cannot be
 * enrolled (client_deleted); another organization's client answers not_found.
 */
export async function setCadence(
  deps: WriteDeps,
  context: CommandContext,
  input: SetCadenceInput,
): Promise<{ cadence: CadenceView; position: Position | null; orgId: number }> {
  const owner = await loadClient(deps.store, input.clientId)
  assertVisible(owner, input.callerOrgId, input.clientId)
  if (owner.status === 'deleted' && input.enabled) {
    throw new DomainError('client_deleted', 'The client is deleted', `client ${input.clientId}`)
  }
  const outcome = await handleCommand(deps, {
    aggregate: cadence,
    id: input.clientId,
    command: {
      type: 'SetCadence',
      client_id: input.clientId,
      enabled: input.enabled,
      samples_per_month: input.samplesPerMonth,
      engines: input.engines,
      geo_state: input.geoState,
    },
    context,
    orgId: owner.orgId,
  })
  // The client's organization: whose agents may answer its runs (the caller may be a platform key).
  return { cadence: cadenceView(outcome.state), position: outcome.position, orgId: owner.orgId }
}
