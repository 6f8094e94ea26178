import type { Selectable } from 'kysely'
import type { SiteCheckData } from '../../../domain/publishing/connections/events.js'
import { pluginStatesOf, type PluginStates } from '../../../domain/publishing/connections/plugin-states.js'
import type { FtpProtocol, SeoPluginKind } from '../../../domain/publishing/connections/values.js'
import type { PushFailureCategory } from '../../../domain/publishing/push-failures/categories.js'
import type { ReadDb } from '../../tables.js'
import { contentPagesForClient } from '../content-pages/queries.js'
import type { SiteConnectionsTable } from './tables.js'

type Row = Selectable<SiteConnectionsTable>

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export function siteConnectionRow(read: ReadDb, clientId: number): Promise<Row | undefined> {
  return read.selectFrom('site_connections').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

/** The last check of a WordPress connection, as get_client_wordpress and check_client_connection show it. */
export interface SiteCheckView {
  ok: boolean
  checked_at: string
  site_name: string | null
  wp_version: string | null
  theme: SiteCheckData['theme']
  plugins: SiteCheckData['plugins']
  seo_plugin: SeoPluginKind | null
  redirection: boolean
  elementor: boolean
  user: SiteCheckData['user']
  error_category: PushFailureCategory | null
  error: string | null
}

export interface WordPressConnectionView {
  client_id: number
  base_url: string
  username: string
  has_application_password: boolean
  verified: boolean
  connected_at: string
  last_check: SiteCheckView | null
}

function checkView(row: Row): SiteCheckView | null {
  if (row.check_ok === null || row.checked_at === null) return null
  return {
    ok: row.check_ok,
    checked_at: row.checked_at.toISOString(),
    site_name: row.site_name,
    wp_version: row.wp_version,
    theme: row.theme,
    plugins: row.plugins,
    seo_plugin: row.seo_plugin,
    redirection: row.redirection ?? false,
    elementor: row.elementor ?? false,
    user: row.wp_user,
    error_category: row.check_error_category,
    error: row.check_error,
  }
}

/** get_client_wordpress: the connection without its password; null when the client has none. */
export function wordPressConnectionView(row: Row | undefined): WordPressConnectionView | null {
  if (!row || row.wp_base_url === null || row.wp_username === null || row.wp_set_at === null) return null
  return {
    client_id: row.client_id,
    base_url: row.wp_base_url,
    username: row.wp_username,
    // A WordPress connection is never recorded without its application password.
    has_application_password: true,
    verified: row.wp_verified ?? false,
    connected_at: row.wp_set_at.toISOString(),
    last_check: checkView(row),
  }
}

export interface FtpView {
  client_id: number
  protocol: FtpProtocol
  host: string
  port: number
  user: string
  root_path: string
  has_password: boolean
  has_ssh_key: boolean
  updated_at: string
}

/** get_client_ftp: the FTP/SFTP details without the password; null when none are set. */
export function ftpView(row: Row | undefined): FtpView | null {
  if (!row || row.ftp_host === null || row.ftp_protocol === null || row.ftp_port === null || row.ftp_username === null) return null
  return {
    client_id: row.client_id,
    protocol: row.ftp_protocol,
    host: row.ftp_host,
    port: row.ftp_port,
    user: row.ftp_username,
    root_path: row.ftp_root_path ?? '/',
    has_password: row.ftp_has_password ?? false,
    has_ssh_key: row.ssh_public_key !== null,
    updated_at: (row.ftp_set_at ?? row.updated_at).toISOString(),
  }
}

export interface SshPublicKeyView {
  client_id: number
  public_key: string | null
  fingerprint: string | null
  created_at: string | null
  hint: string | null
}

/** get_client_ssh_pubkey: the public key and its fingerprint; nulls and a hint when the client has none yet. */
export function sshPublicKeyView(clientId: number, row: Row | undefined): SshPublicKeyView {
  if (!row || row.ssh_public_key === null || row.ssh_fingerprint === null) {
    return {
      client_id: clientId,
      public_key: null,
      fingerprint: null,
      created_at: null,
      hint: 'The client has no SSH key yet: create_client_ssh_key(client_id) makes one',
    }
  }
  return {
    client_id: clientId,
    public_key: row.ssh_public_key,
    fingerprint: row.ssh_fingerprint,
    created_at: iso(row.ssh_created_at),
    hint: null,
  }
}

export interface ClientWebhookView {
  client_id: number
  url: string | null
  set_at: string | null
}

/** get_client_webhook: the client's notification URL (null: none). */
export function clientWebhookView(clientId: number, row: Row | undefined): ClientWebhookView {
  return { client_id: clientId, url: row?.webhook_url ?? null, set_at: iso(row?.webhook_set_at ?? null) }
}

/**
 * get_ftp_capable_client_ids: the organization's clients (not deleted) with FTP/SFTP details and a way to
 * sign in: a password, or the client's SSH key.
 */
export async function ftpCapableClientIds(read: ReadDb, orgId: number): Promise<number[]> {
  const rows = await read
    .selectFrom('site_connections as s')
    .innerJoin('clients as c', 'c.id', 's.client_id')
    .select('s.client_id')
    .where('s.org_id', '=', orgId)
    .where('c.status', '!=', 'deleted')
    .where('s.ftp_host', 'is not', null)
    .where((eb) => eb.or([eb('s.ftp_has_password', '=', true), eb('s.ssh_public_key', 'is not', null)]))
    .orderBy('s.client_id')
    .execute()
  return rows.map((r) => Number(r.client_id))
}

/**
 * get_client_wp_post_ids: every WordPress post id the service knows for the client: its pages' and the content
 * pages it created on the site (content-pages' query), distinct, ascending.
 */
export async function clientWpPostIds(read: ReadDb, clientId: number): Promise<number[]> {
  const pages = await read
    .selectFrom('pages')
    .select('wp_post_id')
    .where('client_id', '=', clientId)
    .where('wp_post_id', 'is not', null)
    .execute()
  const ids = new Set<number>()
  for (const p of pages) if (p.wp_post_id !== null) ids.add(Number(p.wp_post_id))
  for (const c of await contentPagesForClient(read, clientId)) ids.add(Number(c.wp_post_id))
  return [...ids].sort((a, b) => a - b)
}

export interface PluginStatesView {
  client_id: number
  org_id: number
  base_url: string
  /** When the plugins were last read (the last check); null: never checked. */
  checked_at: string | null
  check_ok: boolean | null
  wp_version: string | null
  plugins: PluginStates | null
}

/**
 * get_plugin_states: per client with a WordPress connection, the relied-on plugins (SEO, Redirection,
 * Elementor) from its last check; the organization's clients (null: every organization's), by client id.
 */
export async function pluginStates(read: ReadDb, orgId: number | null): Promise<PluginStatesView[]> {
  let query = read
    .selectFrom('site_connections as s')
    .innerJoin('clients as c', 'c.id', 's.client_id')
    .selectAll('s')
    .where('s.wp_base_url', 'is not', null)
    .where('c.status', '!=', 'deleted')
  if (orgId !== null) query = query.where('s.org_id', '=', orgId)
  const rows = await query.orderBy('s.client_id').execute()
  return rows.map((row) => {
    const check = checkView(row)
    // A failed check read no plugins: the states are the last successful check's only when this one passed.
    const states = check?.ok ? pluginStatesOf(check) : null
    return {
      client_id: Number(row.client_id),
      org_id: Number(row.org_id),
      base_url: row.wp_base_url!,
      checked_at: check?.checked_at ?? null,
      check_ok: check?.ok ?? null,
      wp_version: row.wp_version,
      plugins: states,
    }
  })
}
