import { type CatalogEntryInput, type TemplateCatalogState, templateCatalog } from '../../../domain/publishing/templates/library-catalog.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/** A library client's template catalog, folded from its stream. */
export function loadTemplateCatalog(deps: Pick<WriteDeps, 'store'>, libraryClientId: number): Promise<TemplateCatalogState> {
  return loadState(deps.store, templateCatalog, libraryClientId)
}

/**
 * record_template_catalog_entry: the library client's saved template `templateId` as it is now (added, or
 * replaced when it changed; the same values again record nothing). The client must be the caller's and not deleted.
 */
export async function recordTemplateCatalogEntry(
  deps: WriteDeps,
  context: CommandContext,
  input: CatalogEntryInput & { callerOrgId: number | null; libraryClientId: number; templateId: number },
): Promise<{ recorded: boolean; position: Position | null }> {
  const { callerOrgId, libraryClientId, templateId, ...entry } = input
  const client = await writableClient(deps.store, libraryClientId, callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: templateCatalog,
    id: libraryClientId,
    command: { type: 'RecordCatalogEntry', library_client_id: libraryClientId, template_id: templateId, ...entry },
    context,
    orgId: client.orgId,
  })
  return { recorded: outcome.events.length > 0, position: outcome.position }
}

/** remove_template_catalog_entry: the template is gone from the library; removing again changes nothing. */
export async function removeTemplateCatalogEntry(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; libraryClientId: number; templateId: number },
): Promise<{ removed: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, input.libraryClientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: templateCatalog,
    id: input.libraryClientId,
    command: { type: 'RemoveCatalogEntry', library_client_id: input.libraryClientId, template_id: input.templateId },
    context,
    orgId: client.orgId,
  })
  return { removed: outcome.events.length > 0, position: outcome.position }
}
