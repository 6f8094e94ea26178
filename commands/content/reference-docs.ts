import {
  findReferenceDoc,
  type OrgReferenceDocsState,
  orgReferenceDocs,
  type ReferenceDocRecord,
} from '../../domain/content/reference-docs/org-reference-docs.js'
import type { ReferenceDocKind } from '../../domain/content/reference-docs/rules.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { assertOrganizationExists } from '../organizations.js'

/** The organization's reference documents, folded from its stream (consistent with the last write). */
export function loadOrgReferenceDocs(deps: Pick<WriteDeps, 'store'>, orgId: number): Promise<OrgReferenceDocsState> {
  return loadState(deps.store, orgReferenceDocs, orgId)
}

/** The organization's live documents as the writers read them (voiceGuide takes these). */
export async function liveReferenceDocs(deps: Pick<WriteDeps, 'store'>, orgId: number): Promise<ReferenceDocRecord[]> {
  return (await loadOrgReferenceDocs(deps, orgId)).docs.filter((d) => !d.deleted)
}

/** A document's client, when it names one: the organization's and not deleted (a new scope on a deleted client is refused). */
async function assertClientScope(deps: WriteDeps, orgId: number, clientId: number | null | undefined): Promise<void> {
  if (clientId === null || clientId === undefined) return
  await writableClient(deps.store, clientId, orgId)
}

/**
 * add_org_reference_doc: a new document of the organization, for all its clients or for one. Its title must
 * be free among the live documents of that scope (reference_doc_title_taken names the holder).
 */
export async function addReferenceDoc(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; clientId: number | null; kind: ReferenceDocKind; title: string; body: string },
): Promise<{ docId: number; position: Position | null }> {
  await assertOrganizationExists(deps, input.orgId)
  await assertClientScope(deps, input.orgId, input.clientId)
  const docId = await deps.ids.next('reference_doc')
  const outcome = await handleCommand(deps, {
    aggregate: orgReferenceDocs,
    id: input.orgId,
    command: { type: 'AddReferenceDoc', doc_id: docId, client_id: input.clientId, kind: input.kind, title: input.title, body: input.body },
    context,
    orgId: input.orgId,
  })
  return { docId, position: outcome.position }
}

/**
 * update_org_reference_doc: a new version with what is given (undefined: unchanged; client_id null: the
 * whole organization). The same values again change nothing and keep the version.
 */
export async function updateReferenceDoc(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    orgId: number
    docId: number
    clientId?: number | null | undefined
    kind?: ReferenceDocKind | undefined
    title?: string | undefined
    body?: string | undefined
  },
): Promise<{ updated: boolean; position: Position | null }> {
  await assertClientScope(deps, input.orgId, input.clientId)
  const outcome = await handleCommand(deps, {
    aggregate: orgReferenceDocs,
    id: input.orgId,
    command: {
      type: 'UpdateReferenceDoc',
      doc_id: input.docId,
      client_id: input.clientId,
      kind: input.kind,
      title: input.title,
      body: input.body,
    },
    context,
    orgId: input.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}

/** delete_org_reference_doc: the document leaves every read; deleting again changes nothing. */
export async function deleteReferenceDoc(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; docId: number },
): Promise<{ deleted: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: orgReferenceDocs,
    id: input.orgId,
    command: { type: 'DeleteReferenceDoc', doc_id: input.docId },
    context,
    orgId: input.orgId,
  })
  return { deleted: outcome.events.length > 0, position: outcome.position }
}

/** The organization's document by id, live or deleted; not_found when it has none with it. */
export async function referenceDocOfOrg(deps: Pick<WriteDeps, 'store'>, orgId: number, docId: number): Promise<ReferenceDocRecord> {
  const doc = findReferenceDoc(await loadOrgReferenceDocs(deps, orgId), docId)
  if (!doc) throw new NotFoundError('reference document', docId)
  return doc
}
