import { createPrivateKey } from 'node:crypto'
import {
  secretOf,
  parseSecret,
  type GscCredentialsInput,
  type GscSecret,
  type GscAuthType,
} from '../../../domain/search/gsc/credentials.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { seal, unseal, ServiceKeyError, type ServiceKey } from '../../secrets/service-key.js'

/** What a connection records about its credentials: the kind, the service account's address, the sealed secret. */
export interface SealedGscCredentials {
  readonly auth_type: GscAuthType
  readonly service_account_email: string | null
  readonly sealed_credentials: string | null
}

/**
 * The caller's credentials, checked and sealed with the service key: a service account's private key must be
 * a key node can sign with (a truncated or re-encoded PEM is refused here, as the caller's 400, rather than
 * failing every capture later). The plaintext never leaves this function but as ciphertext.
 */
export function sealGscCredentials(serviceKey: ServiceKey, input: GscCredentialsInput): SealedGscCredentials {
  const secret = secretOf(input)
  if (secret.type === 'service_account') {
    try {
      const key = createPrivateKey(secret.private_key)
      if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA')
    } catch {
      throw new DomainError(
        'validation_failed',
        'The service account key has no usable private key',
        'credentials.private_key is not an RSA private key in PEM form',
        'Pass the JSON key file as downloaded from the Google Cloud console (IAM → Service accounts → Keys), unedited',
      )
    }
  }
  return {
    auth_type: secret.type,
    service_account_email: secret.type === 'service_account' ? secret.client_email : null,
    sealed_credentials: seal(serviceKey, JSON.stringify(secret)),
  }
}

/** Why sealed credentials could not be opened (the capture fails with this code). */
export class GscCredentialsError extends Error {
  constructor(
    readonly code: 'gsc_not_connected' | 'gsc_credentials_unreadable',
    message: string,
  ) {
    super(message)
    this.name = 'GscCredentialsError'
  }
}

/** The credentials back, for a token request: none recorded, or a key that does not open them, throws GscCredentialsError. */
export function openGscCredentials(serviceKey: ServiceKey, sealed: string | null): GscSecret {
  if (sealed === null) throw new GscCredentialsError('gsc_not_connected', 'The property has no credentials recorded')
  let json: string
  try {
    json = unseal(serviceKey, sealed)
  } catch (error) {
    if (error instanceof ServiceKeyError) throw new GscCredentialsError('gsc_credentials_unreadable', error.message)
    throw error
  }
  const secret = parseSecret(json)
  if (!secret) throw new GscCredentialsError('gsc_credentials_unreadable', 'The sealed value is not Search Console credentials')
  return secret
}
