import type { Selectable } from 'kysely'
import type { SiteEditStatus } from '../../../domain/site-edits/site-edit.js'
import type { ReadDb } from '../../tables.js'
import type { RedirectsTable } from './tables.js'

/** A redirect as list_redirects shows it. */
export interface RedirectView {
  id: number
  client_id: number
  edit_id: number
  from_url: string
  to_url: string
  status_code: number
  action_item_id: number | null
  to_page_id: number | null
  status: SiteEditStatus
  publisher: string | null
  remote_id: string | null
  applied_at: string | null
  rolled_back_at: string | null
  created_at: string
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

export function redirectView(row: Selectable<RedirectsTable>): RedirectView {
  return {
    id: row.id,
    client_id: row.client_id,
    edit_id: row.edit_id,
    from_url: row.from_url,
    to_url: row.to_url,
    status_code: row.status_code,
    action_item_id: row.action_item_id,
    to_page_id: row.to_page_id,
    status: row.status,
    publisher: row.publisher,
    remote_id: row.remote_id,
    applied_at: iso(row.applied_at),
    rolled_back_at: iso(row.rolled_back_at),
    created_at: row.created_at.toISOString(),
  }
}

/** list_redirects: the client's redirects, newest first; only the applied ones (live on the site) when asked. */
export async function redirectsForClient(
  read: ReadDb,
  clientId: number,
  appliedOnly: boolean,
  page: { limit: number; offset: number },
): Promise<RedirectView[]> {
  let query = read.selectFrom('redirects').selectAll().where('client_id', '=', clientId)
  if (appliedOnly) query = query.where('status', '=', 'applied')
  const rows = await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(redirectView)
}
