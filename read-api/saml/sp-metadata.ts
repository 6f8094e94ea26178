import { escapeXml } from './xml.js'

/**
 * The service provider's metadata for one SAML provider (GET /saml/<key>/metadata): its entity id (the
 * metadata URL itself, a common convention that makes it unique per provider) and the HTTP-POST Assertion
 * Consumer Service. No KeyDescriptor: the service signs no requests and takes no encrypted assertions.
 */
export function spMetadataXml(input: { entityId: string; acsUrl: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(input.entityId)}">
  <md:SPSSODescriptor AuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeXml(input.acsUrl)}" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`
}
