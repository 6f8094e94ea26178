import { X509Certificate } from 'node:crypto'
import { DomainError } from '../../domain/shared/errors.js'

/**
 * An IdP signing certificate as an owner pastes it (PEM, or the bare base64 of metadata's X509Certificate),
 * checked by parsing it and returned as PEM; `saml_certificate_invalid` otherwise. An expired certificate is
 * accepted on purpose: many IdPs sign with long-expired self-signed certificates, and what counts in SAML is
 * the key the owner pinned, not the certificate's dates (the list shows `expires_at` so owners can see it).
 */
export interface PinnedCertificate {
  readonly pem: string
  readonly fingerprintSha256: string
  readonly expiresAt: string
}

export function pinCertificate(text: string): PinnedCertificate {
  const body = text
    .replace(/-----BEGIN CERTIFICATE-----/g, '')
    .replace(/-----END CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body))
    throw new DomainError('saml_certificate_invalid', 'The certificate is not a PEM or base64 X.509 certificate')
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
  try {
    const certificate = new X509Certificate(pem)
    return { pem, fingerprintSha256: certificate.fingerprint256, expiresAt: new Date(certificate.validTo).toISOString() }
  } catch (error) {
    throw new DomainError(
      'saml_certificate_invalid',
      'The certificate could not be read',
      error instanceof Error ? error.message : String(error),
    )
  }
}
