import type { Selectable } from 'kysely'
import { NotFoundError } from '../../domain/shared/errors.js'
import type { SiteEditStatus } from '../../domain/site-edits/site-edit.js'
import type { Paging } from '../pages/queries.js'
import type { ReadDb } from '../tables.js'
import type { SiteEditsTable } from './tables.js'

export type SiteEditRow = Selectable<SiteEditsTable>

/** A site edit as the API shows it (get_site_edit, get_site_edits, list_all_site_edits). */
export interface SiteEditView {
  edit_id: number
  client_id: number
  operation: string
  page_url: string
  page_id: number | null
  payload: string
  status: SiteEditStatus
  approved_by: string
  job_id: number | null
  staged_by: string
  applied_by: string | null
  applied_at: string | null
  rolled_back_by: string | null
  rolled_back_at: string | null
  before_snapshot_id: number | null
  after_snapshot_id: number | null
  restored_snapshot_id: number | null
  apply_attempts: number
  last_error: string | null
  created_at: string
  updated_at: string
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

export const siteEditView = (r: SiteEditRow): SiteEditView => ({
  edit_id: r.id,
  client_id: r.client_id,
  operation: r.operation,
  page_url: r.page_url,
  page_id: r.page_id,
  payload: r.payload,
  status: r.status as SiteEditStatus,
  approved_by: r.approved_by,
  job_id: r.job_id,
  staged_by: r.staged_by,
  applied_by: r.applied_by,
  applied_at: iso(r.applied_at),
  rolled_back_by: r.rolled_back_by,
  rolled_back_at: iso(r.rolled_back_at),
  before_snapshot_id: r.before_snapshot_id,
  after_snapshot_id: r.after_snapshot_id,
  restored_snapshot_id: r.restored_snapshot_id,
  apply_attempts: r.apply_attempts,
  last_error: r.last_error,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/** A site edit visible in `orgId` (null: any organization); another organization's edit answers like a missing one. */
export async function visibleSiteEdit(db: ReadDb, orgId: number | null, editId: number): Promise<SiteEditRow> {
  let query = db.selectFrom('site_edits').selectAll().where('id', '=', editId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('site edit', editId)
  return row
}

/** A client's site edits, newest first, optionally of one status. */
export function siteEditsForClient(db: ReadDb, clientId: number, status: string | undefined, page: Paging): Promise<SiteEditRow[]> {
  let query = db.selectFrom('site_edits').selectAll().where('client_id', '=', clientId)
  if (status !== undefined) query = query.where('status', '=', status)
  return query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
}

/** Every site edit of the organization (null: of every organization), newest first, optionally of one status. */
export function allSiteEdits(db: ReadDb, orgId: number | null, status: string | undefined, page: Paging): Promise<SiteEditRow[]> {
  let query = db.selectFrom('site_edits').selectAll()
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  if (status !== undefined) query = query.where('status', '=', status)
  return query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
}

/** Proposed (staged, not yet applied) edits of the client. */
export async function countPendingSiteEdits(db: ReadDb, clientId: number): Promise<number> {
  const row = await db
    .selectFrom('site_edits')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('client_id', '=', clientId)
    .where('status', '=', 'proposed')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Apply attempts (published or failed) since `since`, in the organization (null: every organization). */
export async function countApplyAttemptsSince(db: ReadDb, orgId: number | null, since: Date): Promise<number> {
  let query = db
    .selectFrom('site_edit_attempts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('attempted_at', '>=', since)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

/** The edit a prompted_edit job already staged for a page (a resumed job reuses it instead of staging twice). */
export function editOfJobForPage(db: ReadDb, jobId: number, pageId: number): Promise<SiteEditRow | undefined> {
  return db
    .selectFrom('site_edits')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('page_id', '=', pageId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}
