import type { ColumnType } from 'kysely'
import type { SiteCheckData } from '../../../domain/publishing/connections/events.js'
import type { FtpProtocol, SeoPluginKind } from '../../../domain/publishing/connections/values.js'
import type { PushFailureCategory } from '../../../domain/publishing/push-failures/categories.js'

/** The site connections read models as kysely sees them (DDL in migrations/read-models/publishing-connections.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

/**
 * One row per client with any part of a connection; each part's columns are null while it is not set
 * (wp_* and the check's columns: no WordPress connection; ftp_*: no FTP; ssh_*: no key; webhook_url: none).
 */
export interface SiteConnectionsTable {
  client_id: number
  org_id: number
  wp_base_url: string | null
  wp_username: string | null
  /** false: saved with save_unverified after a failed check. */
  wp_verified: boolean | null
  wp_set_at: Timestamp | null
  /** The last check of the current WordPress connection; null: none since it was set. */
  check_ok: boolean | null
  checked_at: Timestamp | null
  check_base_url: string | null
  site_name: string | null
  wp_version: string | null
  theme: Json<SiteCheckData['theme']> | null
  plugins: Json<SiteCheckData['plugins']> | null
  seo_plugin: SeoPluginKind | null
  redirection: boolean | null
  elementor: boolean | null
  wp_user: Json<SiteCheckData['user']> | null
  check_error_category: PushFailureCategory | null
  check_error: string | null
  ftp_protocol: FtpProtocol | null
  ftp_host: string | null
  ftp_port: number | null
  ftp_username: string | null
  ftp_has_password: boolean | null
  ftp_root_path: string | null
  ftp_set_at: Timestamp | null
  ssh_public_key: string | null
  ssh_fingerprint: string | null
  ssh_created_at: Timestamp | null
  webhook_url: string | null
  webhook_set_at: Timestamp | null
  updated_at: Timestamp
}

export type SiteConnectionsReadModels = {
  site_connections: SiteConnectionsTable
}
