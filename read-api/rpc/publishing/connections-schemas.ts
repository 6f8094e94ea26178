import { z } from 'zod'
import { FtpProtocol, SeoPluginKind } from '../../../domain/publishing/connections/values.js'
import { PUSH_FAILURE_CATEGORIES } from '../../../domain/publishing/push-failures/categories.js'
import { ClientId } from '../ids.js'

/** The answers of the site connection methods (read-api/rpc/publishing/connections.ts), each described once. */

const When = (what: string) => z.string().describe(`${what} (ISO 8601)`)

export const SiteCheckSchema = z
  .object({
    ok: z.boolean().describe('Whether the site answered with the credentials: REST API reached, application password accepted'),
    checked_at: When('When the check ran'),
    site_name: z.string().nullable().describe("The site's name (Settings → General); null when the check failed"),
    wp_version: z.string().nullable().describe('The WordPress version the site announces; null when it hides it or the check failed'),
    theme: z
      .object({
        stylesheet: z.string().describe("The theme's folder, e.g. hello-elementor"),
        name: z.string().describe("The theme's name"),
        version: z.string().nullable().describe("The theme's version"),
      })
      .nullable()
      .describe('The active theme; null when the user may not see themes or the check failed'),
    plugins: z
      .array(
        z.object({
          plugin: z.string().describe('The plugin file without .php, e.g. wordpress-seo/wp-seo'),
          name: z.string().describe("The plugin's name"),
          version: z.string().nullable().describe("The plugin's version"),
          status: z.string().describe('active, inactive or network-active'),
        }),
      )
      .nullable()
      .describe('Every plugin installed; null when the user may not list plugins (only administrators may) or the check failed'),
    seo_plugin: SeoPluginKind.nullable().describe('The active SEO plugin whose fields the publisher writes: yoast, rank_math, or null'),
    redirection: z.boolean().describe('Whether the Redirection plugin is active (redirects are published through it)'),
    elementor: z.boolean().describe('Whether Elementor is active (elementor_rewrite edits need it)'),
    user: z
      .object({
        id: z.number().int().describe("The WordPress user's id"),
        name: z.string().describe("The user's display name"),
        slug: z.string().describe("The user's slug"),
        roles: z.array(z.string()).nullable().describe("The user's roles, e.g. administrator, editor"),
      })
      .nullable()
      .describe('The user the application password belongs to; null when the check failed'),
    error_category: z
      .enum(PUSH_FAILURE_CATEGORIES)
      .nullable()
      .describe(
        'Why the check failed: auth (wrong password), not_found (no REST API), blocked (address policy), timeout, network, …; null when ok',
      ),
    error: z.string().nullable().describe('What the site answered, for a person; never holds the password; null when ok'),
  })
  .describe("A connection check: what the client's WordPress site answered")

export const WordPressConnectionSchema = z
  .object({
    client_id: ClientId,
    base_url: z.string().describe("The site's address the service calls (its REST API is under <base_url>/wp-json/)"),
    username: z.string().describe('The WordPress user the application password belongs to'),
    has_application_password: z
      .boolean()
      .describe('Always true: a connection is never recorded without one. The password is never returned'),
    verified: z.boolean().describe('false: saved with save_unverified although its check failed'),
    connected_at: When('When these credentials were set'),
    last_check: SiteCheckSchema.nullable().describe('The last check of these credentials; null when none ran'),
  })
  .describe("A client's WordPress connection, without its password")

export const FtpSchema = z
  .object({
    client_id: ClientId,
    protocol: FtpProtocol.describe('sftp (over SSH) or ftp'),
    host: z.string().describe('The server host name or address'),
    port: z.number().int().describe('The server port'),
    user: z.string().describe('The account name'),
    root_path: z.string().describe("The site's folder on the server"),
    has_password: z.boolean().describe('Whether a password is stored (it is never returned)'),
    has_ssh_key: z.boolean().describe('Whether the client has an SSH key (get_client_ssh_pubkey) the server may authorize instead'),
    updated_at: When('When the details were last set'),
  })
  .describe("A client's FTP/SFTP details, without the password")

export const SshPublicKeySchema = z
  .object({
    client_id: ClientId,
    public_key: z
      .string()
      .nullable()
      .describe('The ed25519 public key as one authorized_keys line (ssh-ed25519 AAAA… rankrelay-client-<id>); null: none yet'),
    fingerprint: z.string().nullable().describe('SHA256:… as ssh-keygen -l prints it; null: none yet'),
    created_at: z.string().nullable().describe('When the key was made (ISO 8601); null: none yet'),
    hint: z.string().nullable().describe('What to do when there is no key; null when there is one'),
  })
  .describe("The client's SSH public key for its SFTP server (the private key is sealed and never returned)")

export const ClientWebhookSchema = z
  .object({
    client_id: ClientId,
    url: z.string().nullable().describe("The client's notification URL; null: none"),
    set_at: z.string().nullable().describe('When it was set (ISO 8601); null: none'),
  })
  .describe("The client's notification URL")

const PluginState = (what: string) =>
  z
    .object({
      installed: z.boolean().nullable().describe('Whether it is installed; null when the user may not list plugins'),
      active: z.boolean().describe('Whether it is active'),
      version: z.string().nullable().describe('Its version; null when not installed or not listed'),
    })
    .describe(what)

export const PluginStatesSchema = z
  .object({
    client_id: ClientId,
    org_id: z.number().int().describe("The client's organization"),
    base_url: z.string().describe("The site's address"),
    checked_at: z.string().nullable().describe('When the plugins were read (the last check, ISO 8601); null: never checked'),
    check_ok: z.boolean().nullable().describe('Whether the last check passed; null: never checked'),
    wp_version: z.string().nullable().describe('The WordPress version the last check found'),
    plugins: z
      .object({
        seo: PluginState('The SEO plugin (titles and meta descriptions)').extend({
          kind: SeoPluginKind.nullable().describe('yoast or rank_math; null when neither is found'),
        }),
        redirection: PluginState('Redirection (redirects)'),
        elementor: PluginState('Elementor (pages built with it)'),
      })
      .nullable()
      .describe('The plugins the service relies on; null when the last check failed or none ran (check_client_connection reads them)'),
  })
  .describe("A connected site's plugins the service relies on")

export const exampleCheck = {
  ok: true,
  checked_at: '2026-11-27T09:10:00.000Z',
  site_name: 'Rapid Rooter Plumbing',
  wp_version: '6.7.1',
  theme: { stylesheet: 'hello-elementor', name: 'Hello Elementor', version: '3.1.1' },
  plugins: [
    { plugin: 'elementor/elementor', name: 'Elementor', version: '3.25.10', status: 'active' },
    { plugin: 'wordpress-seo/wp-seo', name: 'Yoast SEO', version: '23.9', status: 'active' },
    { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.1', status: 'active' },
  ],
  seo_plugin: 'yoast' as const,
  redirection: true,
  elementor: true,
  user: { id: 3, name: 'RankRelay', slug: 'rankrelay', roles: ['administrator'] },
  error_category: null,
  error: null,
}

export const exampleConnection = {
  client_id: 34,
  base_url: 'https://rapidrooterplumbing.com',
  username: 'rankrelay',
  has_application_password: true,
  verified: true,
  connected_at: '2026-11-27T09:10:00.000Z',
  last_check: exampleCheck,
}
