import { exportDownloadUrl } from '../../domain/exports/org-export.js'
import type { ReadDb } from '../tables.js'
import type { OrgExportsTable } from './tables.js'

type Row = { [K in keyof OrgExportsTable]: any }

/** An export as list_org_exports shows it (spec "Organization export"). */
export function exportView(row: Pick<Row, 'org_id' | 'filename' | 'size' | 'created_at' | 'expires_at'>) {
  return {
    filename: row.filename as string,
    size: Number(row.size),
    created_at: (row.created_at as Date).toISOString(),
    expires_at: (row.expires_at as Date).toISOString(),
    download_url: exportDownloadUrl(Number(row.org_id), row.filename),
  }
}

/**
 * The organization's exports that are still kept at `now`, newest first. An export past its expiry is
 * not shown even before the expiry sweep has recorded it (the sweep only catches up with the rule).
 */
export async function listOrgExports(read: ReadDb, orgId: number, now: Date) {
  const rows = await read
    .selectFrom('org_exports')
    .select(['org_id', 'filename', 'size', 'created_at', 'expires_at'])
    .where('org_id', '=', orgId)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('job_id', 'desc')
    .execute()
  return rows.map(exportView)
}

/** One kept export of the organization by file name; null when missing, expired or another organization's. */
export async function findKeptExport(read: ReadDb, orgId: number, filename: string, now: Date) {
  return (
    (await read
      .selectFrom('org_exports')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('filename', '=', filename)
      .where('expired_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()) ?? null
  )
}

/** Exports past their expiry that the sweep has not expired yet, in (expires_at, job_id) order after `after`. */
export async function exportsDueForExpiry(
  read: ReadDb,
  now: Date,
  limit: number,
  after: { expires_at: Date; job_id: number } | null = null,
) {
  let query = read
    .selectFrom('org_exports')
    .select(['job_id', 'org_id', 'path', 'filename', 'expires_at'])
    .where('expired_at', 'is', null)
    .where('expires_at', '<=', now)
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('expires_at', '>', after.expires_at), eb.and([eb('expires_at', '=', after.expires_at), eb('job_id', '>', after.job_id)])]),
    )
  }
  return query.orderBy('expires_at').orderBy('job_id').limit(limit).execute()
}
