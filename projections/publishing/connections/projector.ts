import type { Insertable } from 'kysely'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type EventOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'
import type { SiteConnectionsTable } from './tables.js'
import type { siteConnectionsEventSchemas } from '../../../domain/publishing/connections/events.js'

type SiteConnectionEventType = keyof typeof siteConnectionsEventSchemas
type Columns = Partial<Omit<Insertable<SiteConnectionsTable>, 'client_id' | 'org_id' | 'updated_at'>>

const NO_CHECK = {
  check_ok: null,
  checked_at: null,
  check_base_url: null,
  site_name: null,
  wp_version: null,
  theme: null,
  plugins: null,
  seo_plugin: null,
  redirection: null,
  elementor: null,
  wp_user: null,
  check_error_category: null,
  check_error: null,
} as const satisfies Columns

const NO_WORDPRESS = { wp_base_url: null, wp_username: null, wp_verified: null, wp_set_at: null, ...NO_CHECK } as const satisfies Columns

/**
 * site_connections: one row per client, each event setting its part's columns to absolute values (so a
 * redelivered event writes the same row), the row made by whichever event comes first.
 */
async function upsert(db: ReadDb, event: EventOf<SiteConnectionEventType>, columns: Columns) {
  const at = occurredAt(event)
  const set = { ...columns, updated_at: at }
  await db
    .insertInto('site_connections')
    .values({ client_id: event.data.client_id, org_id: orgIdOf(event), ...set })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(set))
    .execute()
}

const siteConnectionsProjector: Projector = eachEvent({
  name: 'publishing_connections',
  handlers: {
    async SiteConnectionWordPressSet(db, event) {
      const d = event.data
      // A new connection has not been checked yet: the check recorded with it (same command) follows.
      await upsert(db, event, {
        ...NO_CHECK,
        wp_base_url: d.base_url,
        wp_username: d.username,
        wp_verified: d.verified,
        wp_set_at: occurredAt(event),
      })
    },
    async SiteConnectionCheckRecorded(db, event) {
      const d = event.data
      await upsert(db, event, {
        check_ok: d.ok,
        checked_at: occurredAt(event),
        check_base_url: d.base_url,
        site_name: d.site_name,
        wp_version: d.wp_version,
        theme: d.theme === null ? null : JSON.stringify(d.theme),
        plugins: d.plugins === null ? null : JSON.stringify(d.plugins),
        seo_plugin: d.seo_plugin,
        redirection: d.redirection,
        elementor: d.elementor,
        wp_user: d.user === null ? null : JSON.stringify(d.user),
        check_error_category: d.error_category,
        check_error: d.error,
      })
    },
    async SiteConnectionWordPressRemoved(db, event) {
      await upsert(db, event, NO_WORDPRESS)
    },
    async SiteConnectionFtpSet(db, event) {
      const d = event.data
      await upsert(db, event, {
        ftp_protocol: d.protocol,
        ftp_host: d.host,
        ftp_port: d.port,
        ftp_username: d.username,
        ftp_has_password: d.password_sealed !== null,
        ftp_root_path: d.root_path,
        ftp_set_at: occurredAt(event),
      })
    },
    async SiteConnectionFtpCleared(db, event) {
      await upsert(db, event, {
        ftp_protocol: null,
        ftp_host: null,
        ftp_port: null,
        ftp_username: null,
        ftp_has_password: null,
        ftp_root_path: null,
        ftp_set_at: null,
      })
    },
    async SiteConnectionSshKeyCreated(db, event) {
      const d = event.data
      await upsert(db, event, { ssh_public_key: d.public_key, ssh_fingerprint: d.fingerprint, ssh_created_at: occurredAt(event) })
    },
    async SiteConnectionWebhookSet(db, event) {
      const url = event.data.url
      await upsert(db, event, { webhook_url: url, webhook_set_at: url === null ? null : occurredAt(event) })
    },
  },
})

/** The site connections sub-area's projectors. */
export const siteConnectionsProjectors: readonly Projector[] = [siteConnectionsProjector]
