import { normalizeBaseUrl } from '../../domain/publishing/connections/base-url.js'
import {
  type SiteCheckInput,
  type SiteConnectionCommand,
  type SiteConnectionState,
  notConnectedError,
  siteConnection,
} from '../../domain/publishing/connections/site-connection.js'
import { DEFAULT_FTP_PORT, DEFAULT_ROOT_PATH, type FtpProtocol } from '../../domain/publishing/connections/values.js'
import { DomainError } from '../../domain/shared/errors.js'
import { writableClient } from '../aeo/capture-facts.js'
import { loadClient } from '../clients.js'
import { assertVisible } from '../../domain/clients/client.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { seal, unseal, ServiceKeyError, type ServiceKey } from '../secrets/service-key.js'
import { assertWebhookUrl, type WebhookPolicy } from '../webhooks.js'
import type { WordPressCredentials } from './wordpress/client.js'
import { generateSshKeyPair } from './connections/openssh.js'

/**
 * The site connection commands (set_client_wordpress, check_client_connection, set_client_ftp, …) and what
 * the publisher needs from a connection: the credentials, opened in memory only.
 */

/** Runs the WordPress check against credentials (commands/publishing/connections/site-check.ts makes the real one). */
export type SiteChecker = (credentials: WordPressCredentials) => Promise<SiteCheckInput>

export interface ConnectionOutcome {
  readonly state: SiteConnectionState
  readonly position: Position | null
}

/** The client's connection, folded from its stream (consistent with the last write). */
export function loadSiteConnection(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<SiteConnectionState> {
  return loadState(deps.store, siteConnection, clientId)
}

/** A client the caller may see (a deleted one too: its connection can still be read and removed). */
async function visibleClientState(deps: Pick<WriteDeps, 'store'>, clientId: number, callerOrgId: number | null) {
  const client = await loadClient(deps.store, clientId)
  assertVisible(client, callerOrgId, clientId)
  return client
}

async function run(
  deps: WriteDeps,
  context: CommandContext,
  owner: { id: number; orgId: number | null },
  command: SiteConnectionCommand,
): Promise<ConnectionOutcome> {
  const outcome = await handleCommand(deps, { aggregate: siteConnection, id: owner.id, command, context, orgId: owner.orgId })
  return { state: outcome.state, position: outcome.position }
}

const unreadable = (clientId: number, what: string, error: ServiceKeyError) =>
  new DomainError(
    'site_credentials_unreadable',
    'The stored credentials cannot be opened with this service key',
    `client ${clientId}: ${what}: ${error.message}`,
  )

/**
 * The client's WordPress credentials for a push or a check, unsealed in memory only (never log or return
 * them); null when the client has no WordPress connection. A service key that does not open them throws
 * site_credentials_unreadable (the connection must be set again).
 */
export async function loadWordPressCredentials(
  deps: Pick<WriteDeps, 'store'>,
  clientId: number,
  serviceKey: ServiceKey,
): Promise<WordPressCredentials | null> {
  const state = await loadSiteConnection(deps, clientId)
  return credentialsOf(state, serviceKey)
}

function credentialsOf(state: SiteConnectionState, serviceKey: ServiceKey): WordPressCredentials | null {
  const wp = state.wordpress
  if (!wp) return null
  try {
    return { baseUrl: wp.baseUrl, username: wp.username, applicationPassword: unseal(serviceKey, wp.applicationPasswordSealed) }
  } catch (error) {
    if (error instanceof ServiceKeyError) throw unreadable(state.clientId, 'application password', error)
    throw error
  }
}

/**
 * set_client_wordpress: checks the site with the credentials first; a failed check refuses with its category
 * and error and records nothing, unless `saveUnverified` (then both the connection, unverified, and the failed
 * check are recorded). An address the policy refuses (`blocked`) is refused either way.
 */
export async function setClientWordPress(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    baseUrl: string
    username: string
    applicationPassword: string
    saveUnverified: boolean
    serviceKey: ServiceKey
    check: SiteChecker
  },
): Promise<ConnectionOutcome & { check: SiteCheckInput }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const baseUrl = normalizeBaseUrl(input.baseUrl)
  const username = input.username.trim()
  const check = await input.check({ baseUrl, username, applicationPassword: input.applicationPassword })
  if (check.error_category === 'blocked') throw urlRefused(check)
  const outcome = await run(deps, context, client, {
    type: 'SetWordPress',
    client_id: client.id,
    base_url: baseUrl,
    username,
    application_password_sealed: seal(input.serviceKey, input.applicationPassword),
    check,
    save_unverified: input.saveUnverified,
  })
  return { ...outcome, check }
}

const urlRefused = (check: SiteCheckInput) =>
  new DomainError('site_url_refused', 'The site address is not allowed', check.error ?? 'refused by the address policy')

/** check_client_connection: checks the connected site now and records what it answered (ok or not). */
export async function checkClientConnection(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; serviceKey: ServiceKey; check: SiteChecker },
): Promise<ConnectionOutcome & { check: SiteCheckInput }> {
  const client = await visibleClientState(deps, input.clientId, input.callerOrgId)
  const credentials = credentialsOf(await loadSiteConnection(deps, client.id), input.serviceKey)
  if (!credentials) throw notConnectedError(client.id)
  const check = await input.check(credentials)
  const outcome = await run(deps, context, client, { type: 'RecordCheck', client_id: client.id, check })
  return { ...outcome, check }
}

/** remove_client_wordpress: forgets the WordPress credentials (none: nothing happens). */
export async function removeClientWordPress(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number },
): Promise<ConnectionOutcome & { removed: boolean }> {
  const client = await visibleClientState(deps, input.clientId, input.callerOrgId)
  const outcome = await run(deps, context, client, { type: 'RemoveWordPress', client_id: client.id })
  return { ...outcome, removed: outcome.position !== null }
}

export interface FtpInput {
  readonly host: string
  readonly username: string
  readonly port?: number | undefined
  readonly protocol?: FtpProtocol | undefined
  /** undefined: keep the current password (same host and user); null: none (an SSH key instead). */
  readonly password?: string | null | undefined
  readonly rootPath?: string | undefined
}

/** set_client_ftp: the FTP/SFTP details, the password sealed. */
export async function setClientFtp(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; serviceKey: ServiceKey } & FtpInput,
): Promise<ConnectionOutcome> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const protocol = input.protocol ?? 'sftp'
  return run(deps, context, client, {
    type: 'SetFtp',
    client_id: client.id,
    protocol,
    host: input.host.trim().toLowerCase(),
    port: input.port ?? DEFAULT_FTP_PORT[protocol],
    username: input.username,
    password_sealed: input.password === undefined ? undefined : input.password === null ? null : seal(input.serviceKey, input.password),
    root_path: input.rootPath ?? DEFAULT_ROOT_PATH,
  })
}

/** clear_client_ftp: forgets the FTP/SFTP details (none: nothing happens). */
export async function clearClientFtp(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number },
): Promise<ConnectionOutcome & { cleared: boolean }> {
  const client = await visibleClientState(deps, input.clientId, input.callerOrgId)
  const outcome = await run(deps, context, client, { type: 'ClearFtp', client_id: client.id })
  return { ...outcome, cleared: outcome.position !== null }
}

/** The comment at the end of a client's public key line: says whose key it is in an authorized_keys file. */
export const sshKeyComment = (clientId: number) => `rankrelay-client-${clientId}`

/**
 * create_client_ssh_key: the client's ed25519 key pair, made once. Asked again, the existing key stands
 * (`created` false) unless `rotate`, which replaces it (the site owner must authorize the new public key).
 */
export async function createClientSshKey(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; rotate: boolean; serviceKey: ServiceKey },
): Promise<ConnectionOutcome & { created: boolean }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  // A pair is cheap to make; decide drops it when the existing key is kept (the new one is never stored).
  const pair = generateSshKeyPair(sshKeyComment(client.id))
  const outcome = await run(deps, context, client, {
    type: 'CreateSshKey',
    client_id: client.id,
    public_key: pair.publicKey,
    fingerprint: pair.fingerprint,
    private_key_sealed: seal(input.serviceKey, pair.privateKey),
    rotate: input.rotate,
  })
  return { ...outcome, created: outcome.position !== null }
}

/** set_client_webhook: the client's notification URL under the webhook URL policy; null clears it. */
export async function setClientWebhook(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; url: string | null; policy: WebhookPolicy },
): Promise<ConnectionOutcome> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const url = input.url === null ? null : await assertWebhookUrl(input.policy, input.url)
  return run(deps, context, client, { type: 'SetWebhook', client_id: client.id, url })
}
