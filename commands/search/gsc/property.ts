import type { GscCadence } from '../../../domain/search/gsc/events.js'
import { gscProperty, type GscPropertyState } from '../../../domain/search/gsc/gsc-property.js'
import { parseProperty } from '../../../domain/search/gsc/property.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import type { SealedGscCredentials } from './credentials.js'

type Caller = { readonly callerOrgId: number | null }

/** The client's Search Console connection, folded from its stream. */
export function loadGscProperty(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<GscPropertyState> {
  return loadState(deps.store, gscProperty, clientId)
}

/**
 * set_gsc_property: the client's property and sealed credentials, replacing any before (a new key, another
 * property). The property's name is checked and made canonical (domain/search/gsc/property.ts).
 */
export async function setGscProperty(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; property: string; credentials: SealedGscCredentials; cadence: GscCadence },
): Promise<{ position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const parsed = parseProperty(input.property)
  const outcome = await handleCommand(deps, {
    aggregate: gscProperty,
    id: owner.id,
    orgId: owner.orgId,
    context,
    command: {
      type: 'SetProperty',
      client_id: owner.id,
      property: parsed.property,
      property_type: parsed.type,
      ...input.credentials,
      cadence: input.cadence,
    },
  })
  return { position: outcome.position }
}

/** remove_gsc_property: true when this call removed it, false when there was none. */
export async function removeGscProperty(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<{ removed: boolean; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: gscProperty,
    id: owner.id,
    orgId: owner.orgId,
    context,
    command: { type: 'RemoveProperty', client_id: owner.id },
  })
  return { removed: outcome.events.length > 0, position: outcome.position }
}
