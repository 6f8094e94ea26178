import { sql, type Selectable } from 'kysely'
import { REFERENCE_DOC_KINDS, type ReferenceDocKind } from '../../../domain/content/reference-docs/rules.js'
import { docsForClient, type VoiceGuideDoc, voiceGuide } from '../../../domain/content/reference-docs/voice-guide.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { ReferenceDocsTable } from './tables.js'

export type ReferenceDocRow = Selectable<ReferenceDocsTable>

/** A reference document as the API shows it (get_org_reference_doc, get_org_reference_docs). */
export interface ReferenceDocView {
  id: number
  org_id: number
  client_id: number | null
  kind: ReferenceDocKind
  title: string
  body: string
  body_bytes: number
  version: number
  created_at: string
  updated_at: string
}

export function referenceDocView(row: ReferenceDocRow): ReferenceDocView {
  return {
    id: row.id,
    org_id: row.org_id,
    client_id: row.client_id,
    kind: row.kind as ReferenceDocKind,
    title: row.title,
    body: row.body,
    body_bytes: Buffer.byteLength(row.body, 'utf8'),
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The live document if the caller may see it (null: any organization); otherwise the same not-found whether missing, deleted or foreign. */
export async function visibleReferenceDoc(db: ReadDb, orgId: number | null, docId: number): Promise<ReferenceDocRow> {
  let query = db.selectFrom('reference_docs').selectAll().where('id', '=', docId).where('deleted_at', 'is', null)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('reference document', docId)
  return row
}

/**
 * The organization's live documents. Without a client: every one, oldest first. With a client: those that
 * apply to it (its own, then the organization-wide ones; within each brand voice, style guide, service facts,
 * other, oldest first), the order voiceGuide weighs them in.
 */
export async function referenceDocsForOrg(
  db: ReadDb,
  orgId: number,
  filter: { kind?: ReferenceDocKind | undefined; clientId?: number | undefined; limit: number; offset: number },
): Promise<ReferenceDocRow[]> {
  let query = db.selectFrom('reference_docs').selectAll().where('org_id', '=', orgId).where('deleted_at', 'is', null)
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind)
  if (filter.clientId !== undefined) {
    const clientId = filter.clientId
    query = query
      .where((eb) => eb.or([eb('client_id', 'is', null), eb('client_id', '=', clientId)]))
      .orderBy(sql`client_id is null`)
      .orderBy(sql`array_position(${sql.val([...REFERENCE_DOC_KINDS])}::text[], kind)`)
  }
  return query.orderBy('id').limit(filter.limit).offset(filter.offset).execute()
}

/** The document if the caller may see it, deleted or not (its history outlives it); not-found alike when missing or foreign. */
export async function visibleReferenceDocAnyState(db: ReadDb, orgId: number | null, docId: number): Promise<ReferenceDocRow> {
  let query = db.selectFrom('reference_docs').selectAll().where('id', '=', docId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('reference document', docId)
  return row
}

/**
 * What a writer (the blog pipeline, content_edit, prompted_edit) includes as its voice guide for a client:
 * voiceGuide over the organization's live documents that apply to it (at most REFERENCE_DOCS_PER_ORG_MAX, so
 * one read); '' when none apply.
 */
export async function voiceGuideForClient(db: ReadDb, orgId: number, clientId: number | null, maxChars?: number): Promise<string> {
  const rows = await db
    .selectFrom('reference_docs')
    .select(['id', 'client_id', 'kind', 'title', 'body'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where((eb) => (clientId === null ? eb('client_id', 'is', null) : eb.or([eb('client_id', 'is', null), eb('client_id', '=', clientId)])))
    .execute()
  const docs: VoiceGuideDoc[] = rows.map((r) => ({ ...r, kind: r.kind as ReferenceDocKind }))
  return voiceGuide(docsForClient(docs, clientId), clientId, maxChars)
}
