import { sql, type Selectable } from 'kysely'
import type { SiteChangeAttribution } from '../../../domain/monitoring/changes/events.js'
import { monthOfDate, monthsBefore } from '../../../domain/shared/months.js'
import type { ReadDb } from '../../tables.js'
import type { SiteChangesTable } from './tables.js'

export type SiteChangeRow = Selectable<SiteChangesTable>

/** A site change as the API and the site.change_detected webhook show it. */
export interface SiteChangeView {
  id: number
  client_id: number
  page_id: number
  url: string
  kind: SiteChangeRow['kind']
  severity: SiteChangeRow['severity']
  before: string | null
  after: string | null
  words_changed: number | null
  attribution: SiteChangeAttribution
  edit_id: number | null
  snapshot_id: number
  previous_snapshot_id: number | null
  detected_at: string
}

export function siteChangeView(row: SiteChangeRow): SiteChangeView {
  return {
    id: row.id,
    client_id: row.client_id,
    page_id: row.page_id,
    url: row.url,
    kind: row.kind,
    severity: row.severity,
    before: row.before,
    after: row.after,
    words_changed: row.words_changed,
    attribution: row.attribution,
    edit_id: row.edit_id,
    snapshot_id: row.snapshot_id,
    previous_snapshot_id: row.previous_snapshot_id,
    detected_at: row.detected_at.toISOString(),
  }
}

export interface SiteChangeFilter {
  readonly limit: number
  readonly offset: number
  /** Only changes detected at or after this instant. */
  readonly since?: Date | undefined
  readonly attribution?: SiteChangeAttribution | undefined
}

/** A client's changes, newest first (changes of one snapshot in the order the rule found them). */
export async function siteChangesOfClient(read: ReadDb, clientId: number, filter: SiteChangeFilter): Promise<SiteChangeView[]> {
  let query = read.selectFrom('site_changes').selectAll().where('client_id', '=', clientId)
  if (filter.since) query = query.where('detected_at', '>=', filter.since)
  if (filter.attribution) query = query.where('attribution', '=', filter.attribution)
  const rows = await query.orderBy('detected_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute()
  return rows.map(siteChangeView)
}

/** A page's changes, newest first. */
export async function siteChangesOfPage(read: ReadDb, pageId: number, page: { limit: number; offset: number }): Promise<SiteChangeView[]> {
  const rows = await read
    .selectFrom('site_changes')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('detected_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(siteChangeView)
}

/** One change by id, for the webhook fan-out (null when it is not projected yet). */
export async function siteChangeById(read: ReadDb, changeId: number): Promise<SiteChangeView | null> {
  const row = await read.selectFrom('site_changes').selectAll().where('id', '=', changeId).executeTakeFirst()
  return row ? siteChangeView(row) : null
}

export interface SiteChangeMonth {
  /** YYYY-MM (UTC). */
  month: string
  changes: number
  /** Distinct pages that changed that month. */
  pages: number
}

/**
 * The client's changes counted per UTC month for the `months` calendar months ending with `now`'s, newest
 * first; a month without changes is there with zeros, so a chart of the answer needs no gap filling.
 */
export async function siteChangesByMonth(read: ReadDb, clientId: number, months: number, now: Date): Promise<SiteChangeMonth[]> {
  const wanted = Array.from({ length: months }, (_, i) => monthsBefore(monthOfDate(now), i))
  const from = new Date(`${wanted[wanted.length - 1]}-01T00:00:00Z`)
  const month = sql<string>`to_char(detected_at at time zone 'UTC', 'YYYY-MM')`
  const rows = await read
    .selectFrom('site_changes')
    .select([month.as('month'), sql<string>`count(*)`.as('changes'), sql<string>`count(distinct page_id)`.as('pages')])
    .where('client_id', '=', clientId)
    .where('detected_at', '>=', from)
    .groupBy(month)
    .execute()
  const byMonth = new Map(rows.map((r) => [r.month, r]))
  return wanted.map((m) => ({ month: m, changes: Number(byMonth.get(m)?.changes ?? 0), pages: Number(byMonth.get(m)?.pages ?? 0) }))
}
