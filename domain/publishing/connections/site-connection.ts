import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { SiteCheckData, SiteConnectionEvent } from './events.js'
import type { FtpProtocol } from './values.js'

/**
 * A client's site connection: stream `site_connection-<client_id>`, one per client. It holds every way the
 * service reaches the site (the WordPress REST credentials, FTP/SFTP details, the SSH key pair) and the
 * client's notification URL, so the sealed secrets live and die with the one record they belong to.
 */
export const siteConnectionStream = (clientId: number) => `site_connection-${clientId}`

export interface WordPressConnection {
  readonly baseUrl: string
  readonly username: string
  readonly applicationPasswordSealed: string
  readonly verified: boolean
}

export interface FtpConnection {
  readonly protocol: FtpProtocol
  readonly host: string
  readonly port: number
  readonly username: string
  readonly passwordSealed: string | null
  readonly rootPath: string
}

export interface SshKey {
  readonly publicKey: string
  readonly fingerprint: string
  readonly privateKeySealed: string
}

export interface SiteConnectionState {
  readonly clientId: number
  readonly orgId: number | null
  readonly wordpress: WordPressConnection | null
  /** The last check of the current WordPress connection (null: none since it was set). */
  readonly lastCheck: SiteCheckData | null
  readonly ftp: FtpConnection | null
  readonly sshKey: SshKey | null
  readonly webhookUrl: string | null
}

/** A check as the command handler hands it in: everything the event records but the client id. */
export type SiteCheckInput = Omit<SiteCheckData, 'client_id'>

export type SiteConnectionCommand =
  /** Connect (or reconnect) WordPress; `check` is the check that ran first (null: none ran). */
  | {
      type: 'SetWordPress'
      client_id: number
      base_url: string
      username: string
      application_password_sealed: string
      check: SiteCheckInput | null
      save_unverified: boolean
    }
  /** Record a check of the connected site. */
  | { type: 'RecordCheck'; client_id: number; check: SiteCheckInput }
  | { type: 'RemoveWordPress'; client_id: number }
  /** `password_sealed` undefined: keep the current password when host and user are the same (else none). */
  | {
      type: 'SetFtp'
      client_id: number
      protocol: FtpProtocol
      host: string
      port: number
      username: string
      password_sealed: string | null | undefined
      root_path: string
    }
  | { type: 'ClearFtp'; client_id: number }
  /** A key pair made by the caller; kept only when there is none yet, or `rotate`. */
  | { type: 'CreateSshKey'; client_id: number; public_key: string; fingerprint: string; private_key_sealed: string; rotate: boolean }
  | { type: 'SetWebhook'; client_id: number; url: string | null }

const initialState = (): SiteConnectionState => ({
  clientId: 0,
  orgId: null,
  wordpress: null,
  lastCheck: null,
  ftp: null,
  sshKey: null,
  webhookUrl: null,
})

/** Whether the connection holds anything at all (a client never connected answers null to reads). */
export const isEmpty = (state: SiteConnectionState) =>
  state.wordpress === null && state.ftp === null && state.sshKey === null && state.webhookUrl === null

/**
 * Refusal of a WordPress connection whose check failed: the check's own category and error, so the caller
 * sees what to fix (auth: the password; blocked: the address policy; not_found: the REST API is off).
 */
export function checkFailedError(check: SiteCheckInput): DomainError {
  return new DomainError(
    'site_check_failed',
    'The WordPress site did not pass the connection check',
    `${check.error_category ?? 'unknown'}: ${check.error ?? 'the check failed'}`,
  )
}

export const notConnectedError = (clientId: number) =>
  new DomainError('site_not_connected', 'The client has no WordPress connection', `client ${clientId}`)

function evolve(state: SiteConnectionState, event: Evolving<SiteConnectionEvent>): SiteConnectionState {
  const base = { ...state, clientId: event.data.client_id, orgId: event.metadata?.org_id ?? state.orgId }
  switch (event.type) {
    case 'SiteConnectionWordPressSet': {
      const d = event.data
      const wordpress = {
        baseUrl: d.base_url,
        username: d.username,
        applicationPasswordSealed: d.application_password_sealed,
        verified: d.verified,
      }
      return { ...base, wordpress, lastCheck: null }
    }
    case 'SiteConnectionCheckRecorded':
      return { ...base, lastCheck: event.data }
    case 'SiteConnectionWordPressRemoved':
      return { ...base, wordpress: null, lastCheck: null }
    case 'SiteConnectionFtpSet': {
      const d = event.data
      const ftp = {
        protocol: d.protocol,
        host: d.host,
        port: d.port,
        username: d.username,
        passwordSealed: d.password_sealed,
        rootPath: d.root_path,
      }
      return { ...base, ftp }
    }
    case 'SiteConnectionFtpCleared':
      return { ...base, ftp: null }
    case 'SiteConnectionSshKeyCreated': {
      const d = event.data
      return { ...base, sshKey: { publicKey: d.public_key, fingerprint: d.fingerprint, privateKeySealed: d.private_key_sealed } }
    }
    case 'SiteConnectionWebhookSet':
      return { ...base, webhookUrl: event.data.url }
    default:
      return assertNever(event)
  }
}

function decide(command: SiteConnectionCommand, state: SiteConnectionState): SiteConnectionEvent[] {
  const client_id = command.client_id
  switch (command.type) {
    case 'SetWordPress': {
      const passed = command.check?.ok === true
      // A failed check refuses and records nothing, unless the caller asked to save it unverified.
      if (!passed && !command.save_unverified) {
        if (command.check) throw checkFailedError(command.check)
        throw new DomainError('site_check_failed', 'The WordPress site was not checked', 'no check ran')
      }
      const set: SiteConnectionEvent = {
        type: 'SiteConnectionWordPressSet',
        data: {
          client_id,
          base_url: command.base_url,
          username: command.username,
          application_password_sealed: command.application_password_sealed,
          verified: passed,
        },
      }
      return command.check ? [set, { type: 'SiteConnectionCheckRecorded', data: { client_id, ...command.check } }] : [set]
    }
    case 'RecordCheck':
      if (!state.wordpress) throw notConnectedError(client_id)
      return [{ type: 'SiteConnectionCheckRecorded', data: { client_id, ...command.check } }]
    case 'RemoveWordPress':
      return state.wordpress ? [{ type: 'SiteConnectionWordPressRemoved', data: { client_id } }] : []
    case 'SetFtp': {
      const current = state.ftp
      const sameAccount = current !== null && current.host === command.host && current.username === command.username
      const password_sealed =
        command.password_sealed === undefined ? (sameAccount ? current.passwordSealed : null) : command.password_sealed
      // The same details again (a retried request, the password unchanged) record nothing.
      if (
        current !== null &&
        command.password_sealed === undefined &&
        sameAccount &&
        current.protocol === command.protocol &&
        current.port === command.port &&
        current.rootPath === command.root_path
      )
        return []
      return [
        {
          type: 'SiteConnectionFtpSet',
          data: {
            client_id,
            protocol: command.protocol,
            host: command.host,
            port: command.port,
            username: command.username,
            password_sealed,
            root_path: command.root_path,
          },
        },
      ]
    }
    case 'ClearFtp':
      return state.ftp ? [{ type: 'SiteConnectionFtpCleared', data: { client_id } }] : []
    case 'CreateSshKey': {
      // One key per client: asking again returns the one the site owner may already have authorized.
      if (state.sshKey && !command.rotate) return []
      return [
        {
          type: 'SiteConnectionSshKeyCreated',
          data: {
            client_id,
            public_key: command.public_key,
            fingerprint: command.fingerprint,
            private_key_sealed: command.private_key_sealed,
            replaced_fingerprint: state.sshKey?.fingerprint ?? null,
          },
        },
      ]
    }
    case 'SetWebhook':
      if (state.webhookUrl === command.url) return []
      // Clearing what was never set records nothing.
      return [{ type: 'SiteConnectionWebhookSet', data: { client_id, url: command.url } }]
    default:
      return assertNever(command)
  }
}

export const siteConnection: Aggregate<SiteConnectionState, SiteConnectionCommand, SiteConnectionEvent> = {
  streamOf: siteConnectionStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'site connection',
}
