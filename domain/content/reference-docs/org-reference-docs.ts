import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { ReferenceDocsEvent } from './events.js'
import { normalizeBody, normalizeTitle, REFERENCE_DOCS_PER_ORG_MAX, type ReferenceDocKind, titleKey } from './rules.js'

/**
 * An organization's reference documents: one stream, `reference_docs-<org_id>`, so a title is unique among
 * the live documents of its scope and the count stays within its limit, each decided with one append (two
 * adds racing for a title cannot both win).
 */
export const referenceDocsStream = (orgId: number) => `reference_docs-${orgId}`

export interface ReferenceDocRecord {
  readonly id: number
  readonly clientId: number | null
  readonly kind: ReferenceDocKind
  readonly title: string
  readonly body: string
  readonly version: number
  readonly deleted: boolean
}

export interface OrgReferenceDocsState {
  readonly docs: readonly ReferenceDocRecord[]
}

export type ReferenceDocsCommand =
  | { type: 'AddReferenceDoc'; doc_id: number; client_id: number | null; kind: ReferenceDocKind; title: string; body: string }
  | {
      type: 'UpdateReferenceDoc'
      doc_id: number
      /** undefined: unchanged; null: the whole organization. */
      client_id?: number | null | undefined
      kind?: ReferenceDocKind | undefined
      title?: string | undefined
      body?: string | undefined
    }
  | { type: 'DeleteReferenceDoc'; doc_id: number }

const initialState = (): OrgReferenceDocsState => ({ docs: [] })

export function findReferenceDoc(state: OrgReferenceDocsState, docId: number): ReferenceDocRecord | undefined {
  return state.docs.find((d) => d.id === docId)
}

/** The live document of this scope with this title (ignoring case and whitespace runs), other than `exceptId`. */
function titleHolder(state: OrgReferenceDocsState, clientId: number | null, title: string, exceptId: number) {
  const key = titleKey(title)
  return state.docs.find((d) => !d.deleted && d.id !== exceptId && d.clientId === clientId && titleKey(d.title) === key)
}

function assertTitleFree(state: OrgReferenceDocsState, clientId: number | null, title: string, docId: number): void {
  const holder = titleHolder(state, clientId, title, docId)
  if (holder) {
    const scope = clientId === null ? 'the organization' : `client ${clientId}`
    throw new DomainError(
      'reference_doc_title_taken',
      'Another reference document of the same scope has this title',
      `reference document ${holder.id} of ${scope} is titled "${holder.title}"`,
    )
  }
}

function evolve(state: OrgReferenceDocsState, event: ReferenceDocsEvent): OrgReferenceDocsState {
  switch (event.type) {
    case 'ReferenceDocAdded': {
      const d = event.data
      const doc: ReferenceDocRecord = {
        id: d.doc_id,
        clientId: d.client_id,
        kind: d.kind,
        title: d.title,
        body: d.body,
        version: d.version,
        deleted: false,
      }
      return { docs: [...state.docs, doc] }
    }
    case 'ReferenceDocUpdated': {
      const d = event.data
      return {
        docs: state.docs.map((doc) =>
          doc.id === d.doc_id ? { ...doc, clientId: d.client_id, kind: d.kind, title: d.title, body: d.body, version: d.version } : doc,
        ),
      }
    }
    case 'ReferenceDocDeleted':
      return { docs: state.docs.map((doc) => (doc.id === event.data.doc_id ? { ...doc, deleted: true } : doc)) }
    default:
      return assertNever(event)
  }
}

function decide(command: ReferenceDocsCommand, state: OrgReferenceDocsState): ReferenceDocsEvent[] {
  switch (command.type) {
    case 'AddReferenceDoc': {
      // The id was allocated for this request: finding it means a retried request already added it.
      if (findReferenceDoc(state, command.doc_id)) return []
      const title = normalizeTitle(command.title)
      const body = normalizeBody(command.body)
      assertTitleFree(state, command.client_id, title, command.doc_id)
      const live = state.docs.filter((d) => !d.deleted).length
      if (live >= REFERENCE_DOCS_PER_ORG_MAX) {
        throw new DomainError(
          'reference_doc_limit',
          'The organization has as many reference documents as it may',
          `${live} live documents; at most ${REFERENCE_DOCS_PER_ORG_MAX}`,
        )
      }
      return [
        {
          type: 'ReferenceDocAdded',
          data: { doc_id: command.doc_id, client_id: command.client_id, kind: command.kind, title, body, version: 1 },
        },
      ]
    }
    case 'UpdateReferenceDoc': {
      const doc = findReferenceDoc(state, command.doc_id)
      if (!doc || doc.deleted) throw new NotFoundError('reference document', command.doc_id)
      const next = {
        client_id: command.client_id === undefined ? doc.clientId : command.client_id,
        kind: command.kind ?? doc.kind,
        title: command.title === undefined ? doc.title : normalizeTitle(command.title),
        body: command.body === undefined ? doc.body : normalizeBody(command.body),
      }
      const unchanged = next.client_id === doc.clientId && next.kind === doc.kind && next.title === doc.title && next.body === doc.body
      if (unchanged) return [] // the same values again (a retried request) change nothing
      assertTitleFree(state, next.client_id, next.title, doc.id)
      return [{ type: 'ReferenceDocUpdated', data: { doc_id: doc.id, ...next, version: doc.version + 1 } }]
    }
    case 'DeleteReferenceDoc': {
      const doc = findReferenceDoc(state, command.doc_id)
      if (!doc) throw new NotFoundError('reference document', command.doc_id)
      if (doc.deleted) return [] // deleting again changes nothing (a retried request)
      return [{ type: 'ReferenceDocDeleted', data: { doc_id: doc.id, client_id: doc.clientId, title: doc.title, version: doc.version } }]
    }
    default:
      return assertNever(command)
  }
}

export const orgReferenceDocs: Aggregate<OrgReferenceDocsState, ReferenceDocsCommand, ReferenceDocsEvent> = {
  streamOf: referenceDocsStream,
  initialState,
  evolve,
  decide,
  entity: 'reference document',
}
