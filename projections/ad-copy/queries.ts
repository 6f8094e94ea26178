import type { Selectable } from 'kysely'
import { NotFoundError } from '../../domain/shared/errors.js'
import type { ReadDb } from '../tables.js'
import type { AdCopyAdGroupsTable, AdCopySetsTable } from './tables.js'

type SetRow = Selectable<AdCopySetsTable>
type GroupRow = Selectable<AdCopyAdGroupsTable>

/** A set as the API shows it (get_ad_copy_set adds its ad groups; lists show the count). */
export interface AdCopySetView {
  set_id: number
  client_id: number
  status: 'proposed' | 'approved' | 'rejected'
  job_id: number | null
  ad_group_count: number
  approved_by: string | null
  approved_at: string | null
  rejected_by: string | null
  rejected_at: string | null
  rejection_reason: string | null
  created_at: string
  updated_at: string
}

export interface AdGroupView {
  ad_group_id: number
  set_id: number
  position: number
  name: string
  service: string
  area: string
  headlines: string[]
  descriptions: string[]
  keywords: string[]
  final_url: string
  writer: string
}

export interface Page {
  readonly limit: number
  readonly offset: number
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

function setView(row: SetRow): AdCopySetView {
  return {
    set_id: row.id,
    client_id: row.client_id,
    status: row.status,
    job_id: row.job_id,
    ad_group_count: row.ad_group_count,
    approved_by: row.approved_by,
    approved_at: iso(row.approved_at),
    rejected_by: row.rejected_by,
    rejected_at: iso(row.rejected_at),
    rejection_reason: row.rejection_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function groupView(row: GroupRow): AdGroupView {
  return {
    ad_group_id: row.id,
    set_id: row.set_id,
    position: row.position,
    name: row.name,
    service: row.service,
    area: row.area,
    headlines: row.headlines,
    descriptions: row.descriptions,
    keywords: row.keywords,
    final_url: row.final_url,
    writer: row.writer,
  }
}

/**
 * The set named by (set_id, client_id) if the caller may see it; a set of another client or another
 * organization answers exactly like a missing one.
 */
export async function visibleAdCopySet(read: ReadDb, orgId: number | null, setId: number, clientId: number): Promise<AdCopySetView> {
  let query = read.selectFrom('ad_copy_sets').selectAll().where('id', '=', setId).where('client_id', '=', clientId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('ad copy set', setId)
  return setView(row)
}

export async function adGroupsOfSet(read: ReadDb, setId: number, page?: Page): Promise<AdGroupView[]> {
  let query = read.selectFrom('ad_copy_ad_groups').selectAll().where('set_id', '=', setId).orderBy('position')
  if (page) query = query.limit(page.limit).offset(page.offset)
  return (await query.execute()).map(groupView)
}

/** A client's sets, newest first, optionally of one status. */
export async function adCopySetsOfClient(read: ReadDb, clientId: number, status: string | undefined, page: Page): Promise<AdCopySetView[]> {
  let query = read.selectFrom('ad_copy_sets').selectAll().where('client_id', '=', clientId)
  if (status !== undefined) query = query.where('status', '=', status as SetRow['status'])
  return (await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()).map(setView)
}

/** The set an ad_copy job proposed, if the read models show one (a resumed job returns it instead of writing another). */
export async function adCopySetOfJob(read: ReadDb, jobId: number): Promise<AdCopySetView | undefined> {
  const row = await read.selectFrom('ad_copy_sets').selectAll().where('job_id', '=', jobId).orderBy('id').executeTakeFirst()
  return row ? setView(row) : undefined
}
