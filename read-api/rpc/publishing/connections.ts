import { z } from 'zod'
import {
  clearClientFtp,
  createClientSshKey,
  removeClientWordPress,
  setClientFtp,
  setClientWebhook,
} from '../../../commands/publishing/connections.js'
import { FTP_HOST_PATTERN, FtpProtocol, isRootPath } from '../../../domain/publishing/connections/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  clientWebhookView,
  clientWpPostIds,
  ftpCapableClientIds,
  ftpView,
  pluginStates,
  siteConnectionRow,
  sshPublicKeyView,
  wordPressConnectionView,
} from '../../../projections/publishing/connections/queries.js'
import { requireOrgId } from '../../caller.js'
import { ApiError } from '../../errors.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'
import { connectionRowAfterWrite, serviceKeyOf, webhookPolicyOf } from './connections-settings.js'
import { wordPressConnectionRpcs } from './connections-wordpress.js'
import {
  ClientWebhookSchema,
  exampleConnection,
  FtpSchema,
  PluginStatesSchema,
  SshPublicKeySchema,
  WordPressConnectionSchema,
} from './connections-schemas.js'

const domain = 'publishing'

const exampleFtp = {
  client_id: 34,
  protocol: 'sftp' as const,
  host: 'sftp.rapidrooterplumbing.com',
  port: 22,
  user: 'rapidrooter',
  root_path: '/var/www/rapidrooterplumbing.com',
  has_password: true,
  has_ssh_key: false,
  updated_at: '2026-11-27T09:12:00.000Z',
}

const exampleKey = {
  client_id: 34,
  public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea rankrelay-client-34',
  fingerprint: 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8',
  created_at: '2026-11-27T09:14:00.000Z',
  hint: null,
}

const exampleWebhook = { client_id: 34, url: 'https://hooks.rapidrooterplumbing.com/rankrelay', set_at: '2026-11-27T09:15:00.000Z' }

const Host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(FTP_HOST_PATTERN, 'a host name or IP address, without scheme, port or path')
  .describe('The FTP/SFTP server: a host name or IP address (no scheme, port or path)')

export const siteConnectionsRpcs: readonly AnyRpc[] = [
  ...wordPressConnectionRpcs,
  rpc({
    name: 'get_client_wordpress',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's WordPress connection (address, user, whether it was verified, its last check), never the application password; null when the client has none.",
    params: z.strictObject({ client_id: ClientId }),
    result: WordPressConnectionSchema.nullable(),
    example: { params: { client_id: 34 }, result: exampleConnection },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return wordPressConnectionView(await siteConnectionRow(ctx.read, client.id))
    },
  }),
  rpc({
    name: 'remove_client_wordpress',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Forget the client's WordPress connection (its sealed application password with it); site edits then publish through the built-in " +
      'publisher again. Revoke the application password in WordPress too. None: nothing changes (removed false).',
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .object({ client_id: ClientId, removed: z.boolean().describe('Whether a connection was removed (false: there was none)') })
      .describe('What the call removed'),
    example: { params: { client_id: 34 }, result: { client_id: 34, removed: true } },
    async handler(ctx) {
      const { removed } = await removeClientWordPress(ctx.write, ctx.command, { callerOrgId: ctx.orgId, clientId: ctx.params.client_id })
      await ctx.settle()
      return { client_id: ctx.params.client_id, removed }
    },
  }),
  rpc({
    name: 'set_client_ftp',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Set the client's FTP/SFTP details, for a site without a REST API. protocol sftp (default) or ftp; port defaults to 22 for sftp, " +
      '21 for ftp. The password is sealed with the service key and never returned; omitted, the current one is kept when host and user ' +
      'are unchanged; null: no password (authorize the client SSH key, create_client_ssh_key, instead). Returns the details.',
    params: z.strictObject({
      client_id: ClientId,
      host: Host,
      username: z.string().trim().min(1).max(200).describe('The account name on the server'),
      port: z.number().int().min(1).max(65535).optional().describe('The port (default 22 for sftp, 21 for ftp)'),
      protocol: FtpProtocol.default('sftp').describe('sftp (default: encrypted, over SSH) or ftp'),
      password: z
        .string()
        .min(1)
        .max(500)
        .nullable()
        .optional()
        .describe('The account password; never returned. Omitted: keep the current one (same host and user); null: none'),
      root_path: z
        .string()
        .max(1024)
        .refine(isRootPath, 'an absolute path (starting with /) without ..')
        .optional()
        .describe("The site's folder on the server, an absolute path (default /)"),
    }),
    result: FtpSchema,
    example: {
      params: {
        client_id: 34,
        host: 'sftp.rapidrooterplumbing.com',
        username: 'rapidrooter',
        password: 'correct-horse-battery-staple',
        root_path: '/var/www/rapidrooterplumbing.com',
      },
      result: exampleFtp,
    },
    async handler(ctx) {
      const p = ctx.params
      await setClientFtp(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        serviceKey: serviceKeyOf(ctx.settings),
        host: p.host,
        username: p.username,
        port: p.port,
        protocol: p.protocol,
        password: p.password,
        rootPath: p.root_path,
      })
      await ctx.settle()
      const view = ftpView(await connectionRowAfterWrite(ctx, p.client_id))
      if (!view) throw new ApiError('internal_error', 'the FTP details were recorded but are not readable yet')
      return view
    },
  }),
  rpc({
    name: 'clear_client_ftp',
    domain,
    access: 'write',
    orgScoped: true,
    summary: "Forget the client's FTP/SFTP details (the sealed password with them). None: nothing changes (cleared false).",
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .object({ client_id: ClientId, cleared: z.boolean().describe('Whether details were cleared (false: there were none)') })
      .describe('What the call cleared'),
    example: { params: { client_id: 34 }, result: { client_id: 34, cleared: true } },
    async handler(ctx) {
      const { cleared } = await clearClientFtp(ctx.write, ctx.command, { callerOrgId: ctx.orgId, clientId: ctx.params.client_id })
      await ctx.settle()
      return { client_id: ctx.params.client_id, cleared }
    },
  }),
  rpc({
    name: 'get_client_ftp',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's FTP/SFTP details: host, port, user, protocol, root path and whether a password is set (never the password); null when none are set.",
    params: z.strictObject({ client_id: ClientId }),
    result: FtpSchema.nullable(),
    example: { params: { client_id: 34 }, result: exampleFtp },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return ftpView(await siteConnectionRow(ctx.read, client.id))
    },
  }),
  rpc({
    name: 'get_ftp_capable_client_ids',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's clients (not deleted) with FTP/SFTP details and a way to sign in: a stored password or the client's SSH key. Ascending ids.",
    params: z.strictObject({}),
    result: z.array(ClientId).describe('The client ids, ascending'),
    example: { params: {}, result: [34, 41] },
    async handler(ctx) {
      return ftpCapableClientIds(ctx.read, requireOrgId(ctx.orgId))
    },
  }),
  rpc({
    name: 'create_client_ssh_key',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Make the client's ed25519 SSH key pair for its SFTP server: add the public key to the server account's ~/.ssh/authorized_keys. " +
      'The private key is sealed with the service key and never returned. Asked again, the existing key is returned (created false); ' +
      'rotate: true replaces it (the server must then authorize the new public key). Returns the public key.',
    params: z.strictObject({
      client_id: ClientId,
      rotate: z.boolean().default(false).describe('true: replace an existing key with a new one (default false: keep it)'),
    }),
    result: SshPublicKeySchema.extend({
      created: z.boolean().describe('Whether this call made the key (false: the existing one is returned)'),
    }),
    example: { params: { client_id: 34 }, result: { ...exampleKey, created: true } },
    async handler(ctx) {
      const p = ctx.params
      const { created } = await createClientSshKey(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        rotate: p.rotate,
        serviceKey: serviceKeyOf(ctx.settings),
      })
      await ctx.settle()
      return { ...sshPublicKeyView(p.client_id, await connectionRowAfterWrite(ctx, p.client_id)), created }
    },
  }),
  rpc({
    name: 'get_client_ssh_pubkey',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's SSH public key (one authorized_keys line) and its SHA256 fingerprint; nulls and a hint when it has none (create_client_ssh_key makes one).",
    params: z.strictObject({ client_id: ClientId }),
    result: SshPublicKeySchema,
    example: { params: { client_id: 34 }, result: exampleKey },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return sshPublicKeyView(client.id, await siteConnectionRow(ctx.read, client.id))
    },
  }),
  rpc({
    name: 'set_client_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Set the client's notification URL, under the same policy as register_webhook: https (http only for hosts the operator allows), " +
      'never a private, loopback or link-local address (webhook_url_refused names the rule). null clears it. Returns it.',
    params: z.strictObject({
      client_id: ClientId,
      url: z.string().min(1).max(2048).nullable().describe('The notification URL, or null to clear it'),
    }),
    result: ClientWebhookSchema,
    example: { params: { client_id: 34, url: 'https://hooks.rapidrooterplumbing.com/rankrelay' }, result: exampleWebhook },
    async handler(ctx) {
      const p = ctx.params
      await setClientWebhook(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        url: p.url,
        policy: webhookPolicyOf(ctx.settings),
      })
      await ctx.settle()
      return clientWebhookView(p.client_id, await connectionRowAfterWrite(ctx, p.client_id))
    },
  }),
  rpc({
    name: 'get_client_webhook',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's notification URL (url null: none set).",
    params: z.strictObject({ client_id: ClientId }),
    result: ClientWebhookSchema,
    example: { params: { client_id: 34 }, result: exampleWebhook },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return clientWebhookView(client.id, await siteConnectionRow(ctx.read, client.id))
    },
  }),
  rpc({
    name: 'get_client_wp_post_ids',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every WordPress post id the service knows for the client (its pages' wp_post_id and its content pages'), ascending and distinct.",
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(z.number().int().describe('A WordPress post or page id')).describe('The ids, ascending'),
    example: { params: { client_id: 34 }, result: [2, 14, 16] },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return clientWpPostIds(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_plugin_states',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Per connected WordPress site of the organization's clients (a platform key without org_id: every organization's), the plugins " +
      'the service relies on (an SEO plugin, Yoast or Rank Math; Redirection; Elementor): installed, active, version, and when they were ' +
      'last read (check_client_connection reads them again). By client id.',
    params: z.strictObject({}),
    result: z.array(PluginStatesSchema).describe('One entry per client with a WordPress connection'),
    example: {
      params: {},
      result: [
        {
          client_id: 34,
          org_id: 12,
          base_url: 'https://rapidrooterplumbing.com',
          checked_at: '2026-11-27T09:10:00.000Z',
          check_ok: true,
          wp_version: '6.7.1',
          plugins: {
            seo: { kind: 'yoast' as const, installed: true, active: true, version: '23.9' },
            redirection: { installed: true, active: true, version: '5.5.1' },
            elementor: { installed: true, active: true, version: '3.25.10' },
          },
        },
      ],
    },
    async handler(ctx) {
      return pluginStates(ctx.read, ctx.orgId)
    },
  }),
]
