import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { PUSH_FAILURE_CATEGORIES } from '../push-failures/categories.js'
import { FtpProtocol, SeoPluginKind } from './values.js'

/**
 * Site connections (issue 27): how the service reaches a client's site, in one stream per client,
 * `site_connection-<client_id>` (one connection per client; its sealed secrets belong to it). Secrets are
 * recorded only sealed with the service key, in fields named `*_sealed`, which history, replays and exports
 * leave out.
 */

const Text = (max: number) => z.string().max(max)

/** The WordPress REST connection: the site's address, the user, the application password (sealed). */
export const SiteConnectionWordPressSet = z.object({
  client_id: Id,
  /** The site's address as the service calls it (normalized: no trailing slash, no /wp-json). */
  base_url: Text(2048),
  username: Text(200),
  application_password_sealed: Text(4096),
  /** false: saved with save_unverified although the check failed (or was not run). */
  verified: z.boolean(),
})

/** What the site answered a check: recorded for every check, ok or not. */
export const SiteConnectionCheckRecorded = z.object({
  client_id: Id,
  ok: z.boolean(),
  /** The address checked (the connection's base_url then). */
  base_url: Text(2048),
  site_name: Text(500).nullable(),
  wp_version: Text(50).nullable(),
  theme: z.object({ stylesheet: Text(200), name: Text(500), version: Text(50).nullable() }).nullable(),
  /** Every plugin the site listed; null when the user may not list plugins (or the check failed). */
  plugins: z
    .array(z.object({ plugin: Text(300), name: Text(500), version: Text(50).nullable(), status: Text(30) }))
    .max(1000)
    .nullable(),
  seo_plugin: SeoPluginKind.nullable(),
  redirection: z.boolean(),
  elementor: z.boolean(),
  user: z.object({ id: z.number().int(), name: Text(500), slug: Text(200), roles: z.array(Text(100)).max(50).nullable() }).nullable(),
  error_category: z.enum(PUSH_FAILURE_CATEGORIES).nullable(),
  error: Text(2000).nullable(),
})

/** remove_client_wordpress: the WordPress credentials are forgotten (the sealed password with them). */
export const SiteConnectionWordPressRemoved = z.object({ client_id: Id })

/** FTP or SFTP details for a site without REST; the password sealed (null: none, an SSH key instead). */
export const SiteConnectionFtpSet = z.object({
  client_id: Id,
  protocol: FtpProtocol,
  host: Text(253),
  port: z.number().int().min(1).max(65535),
  username: Text(200),
  password_sealed: Text(4096).nullable(),
  root_path: Text(1024),
})

export const SiteConnectionFtpCleared = z.object({ client_id: Id })

/** A per-client ed25519 key pair: the public key the site owner authorizes, the private key sealed. */
export const SiteConnectionSshKeyCreated = z.object({
  client_id: Id,
  /** One OpenSSH authorized_keys line: `ssh-ed25519 AAAA… rankrelay-client-<id>`. */
  public_key: Text(500),
  /** SHA256:<base64 without padding>, as ssh-keygen -l prints it. */
  fingerprint: Text(100),
  private_key_sealed: Text(4096),
  /** The fingerprint of the key this one replaced (rotate), or null for the first key. */
  replaced_fingerprint: Text(100).nullable(),
})

/** The client's notification URL (null: none), under the webhook URL policy. */
export const SiteConnectionWebhookSet = z.object({ client_id: Id, url: Text(2048).nullable() })

export const siteConnectionsEventSchemas = {
  SiteConnectionWordPressSet,
  SiteConnectionCheckRecorded,
  SiteConnectionWordPressRemoved,
  SiteConnectionFtpSet,
  SiteConnectionFtpCleared,
  SiteConnectionSshKeyCreated,
  SiteConnectionWebhookSet,
} as const

type Schemas = typeof siteConnectionsEventSchemas
export type SiteConnectionEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type SiteCheckData = z.infer<typeof SiteConnectionCheckRecorded>
