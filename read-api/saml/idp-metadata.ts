import { DomainError } from '../../domain/shared/errors.js'
import { NS, attribute, child, children, descendants, parseXml, textOf } from './xml.js'

/**
 * What add_org_saml_provider reads from an IdP's metadata_xml: its entity id, the HTTP-Redirect
 * SingleSignOnService location and its signing certificates (KeyDescriptor use="signing" or without a use).
 * One EntityDescriptor with an IDPSSODescriptor, directly or as the only one inside an EntitiesDescriptor;
 * anything else answers `saml_metadata_invalid` naming what is missing. Never fetched: owners paste it.
 */
export interface IdpMetadata {
  readonly entityId: string
  readonly ssoUrl: string
  readonly certificates: readonly string[]
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const invalid = (detail: string) => new DomainError('saml_metadata_invalid', 'The SAML metadata could not be used', detail)

export function parseIdpMetadata(xml: string): IdpMetadata {
  const doc = parseXml(xml)
  if (!doc) throw invalid('not well-formed XML (or it carries a DOCTYPE)')
  const entities = descendants(doc, NS.MD, 'EntityDescriptor').filter((e) => child(e, NS.MD, 'IDPSSODescriptor') !== null)
  if (entities.length !== 1) throw invalid(`expected one EntityDescriptor with an IDPSSODescriptor, found ${entities.length}`)
  const entity = entities[0]!
  const entityId = attribute(entity, 'entityID')
  if (!entityId) throw invalid('the EntityDescriptor has no entityID')
  const idp = child(entity, NS.MD, 'IDPSSODescriptor')!
  const sso = children(idp, NS.MD, 'SingleSignOnService').find((s) => attribute(s, 'Binding') === REDIRECT_BINDING)
  const ssoUrl = sso ? attribute(sso, 'Location') : null
  if (!ssoUrl) throw invalid('no SingleSignOnService with the HTTP-Redirect binding')
  const certificates = children(idp, NS.MD, 'KeyDescriptor')
    .filter((k) => (attribute(k, 'use') ?? 'signing') === 'signing')
    .flatMap((k) => descendants(k, NS.DS, 'X509Certificate').map((c) => textOf(c) ?? ''))
    .filter((c) => c !== '')
  if (certificates.length === 0) throw invalid('no signing certificate (KeyDescriptor with an X509Certificate)')
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] }
}
