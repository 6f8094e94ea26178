import type { ColumnType } from 'kysely'
import type { SiteEditStatus } from '../../../domain/site-edits/site-edit.js'

/** The redirects read models as kysely sees them (DDL in migrations/read-models/publishing-redirects.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per redirect site edit (its id is the edit's id), as the edit's events say. */
export interface RedirectsTable {
  id: number
  org_id: number
  client_id: number
  edit_id: number
  from_url: string
  to_url: string
  status_code: number
  action_item_id: number | null
  to_page_id: number | null
  /** The edit's status: proposed, applied, rolled_back. */
  status: SiteEditStatus
  /** Who published it (the apply's publisher); null until applied. */
  publisher: string | null
  /** The id the site gave the redirect (the Redirection plugin's); fed by the WordPress publisher's event, null until then. */
  remote_id: string | null
  applied_at: Timestamp | null
  rolled_back_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** The redirects sub-area's read models as kysely sees them. */
export type RedirectsReadModels = {
  redirects: RedirectsTable
}
