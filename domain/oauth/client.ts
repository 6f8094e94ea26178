import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import type { OAuthClientEvent } from './events.js'
import { checkRedirectUri } from './redirect-uri.js'

/** One registered client, one stream: `oauth_client-<id>`. Registration is its only event today. */
export const oauthClientStream = (clientId: number) => `oauth_client-${clientId}`

export interface OAuthClientState {
  readonly exists: boolean
  readonly name: string
  readonly redirectUris: readonly string[]
}

export interface ClientMetadata {
  readonly client_name: string
  readonly redirect_uris: readonly string[]
  readonly client_uri: string | null
  readonly logo_uri: string | null
  readonly software_id: string | null
  readonly software_version: string | null
}

/**
 * Characters a client_name must not contain. Bidirectional formatting (the embeddings and overrides
 * U+202A-202E, the isolates U+2066-2069, the marks U+200E, U+200F and U+061C) reorders what the consent
 * page shows, so "Good App\u202Egnp.exe" reads as "Good Appexe.png" and an app can pose as another; C0, DEL
 * and C1 controls have no place in a name shown to a person either.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a shown name must not carry.
const UNSHOWABLE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

export type OAuthClientCommand = { type: 'RegisterOAuthClient'; client_id: number; metadata: ClientMetadata }

/**
 * The RFC 7591 rules of a registration, as domain errors with the RFC's codes: invalid_redirect_uri for a
 * redirect URI we refuse, invalid_client_metadata for anything else.
 */
export function checkClientMetadata(metadata: ClientMetadata): void {
  if (metadata.redirect_uris.length === 0) throw new DomainError('invalid_redirect_uri', 'At least one redirect URI is required')
  if (metadata.redirect_uris.length > 20) throw new DomainError('invalid_client_metadata', 'At most 20 redirect URIs')
  for (const uri of metadata.redirect_uris) {
    const verdict = checkRedirectUri(uri)
    // JSON-quoted, so that whitespace and control characters show in the description.
    if (!verdict.ok) throw new DomainError('invalid_redirect_uri', 'Redirect URI refused', `${JSON.stringify(uri)}: ${verdict.reason}`)
  }
  const name = metadata.client_name.trim()
  if (name.length === 0 || name.length > 200)
    throw new DomainError('invalid_client_metadata', 'client_name is required (1 to 200 characters)')
  const unshowable = UNSHOWABLE_IN_NAME.exec(name)
  if (unshowable) {
    const codePoint = `U+${unshowable[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
    throw new DomainError(
      'invalid_client_metadata',
      'client_name refused',
      `client_name must not contain control or bidirectional formatting characters (found ${codePoint})`,
    )
  }
  for (const [field, value] of [
    ['client_uri', metadata.client_uri],
    ['logo_uri', metadata.logo_uri],
  ] as const) {
    // Informational only (never shown as a link or image): any http(s) URL, as MCP hosts on loopback send.
    if (value !== null && !/^https?:\/\/[^\s]+$/.test(value))
      throw new DomainError('invalid_client_metadata', `${field} must be an http(s) URL`)
  }
}

export const oauthClient: Aggregate<OAuthClientState, OAuthClientCommand, OAuthClientEvent> = {
  streamOf: oauthClientStream,
  initialState: () => ({ exists: false, name: '', redirectUris: [] }),

  evolve(_state, event) {
    switch (event.type) {
      case 'OAuthClientRegistered':
        return { exists: true, name: event.data.client_name, redirectUris: event.data.redirect_uris }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterOAuthClient': {
        if (state.exists) throw new DomainError('already_exists', 'OAuth client already exists', `oauth_client ${command.client_id}`)
        checkClientMetadata(command.metadata)
        const m = command.metadata
        return [
          {
            type: 'OAuthClientRegistered',
            data: {
              client_id: command.client_id,
              client_name: m.client_name.trim(),
              redirect_uris: [...m.redirect_uris],
              token_endpoint_auth_method: 'none',
              client_uri: m.client_uri,
              logo_uri: m.logo_uri,
              software_id: m.software_id,
              software_version: m.software_version,
            },
          },
        ]
      }
    }
  },
}
