import { z } from 'zod'
import { addSamlProvider, deleteSamlProvider, loadSamlProvider, updateSamlProvider } from '../../commands/saml.js'
import { RoleSchema } from '../../domain/people/roles.js'
import { DomainError } from '../../domain/shared/errors.js'
import { requireProvider } from '../../domain/sso/provider.js'
import type { SamlProviderSettings } from '../../domain/sso/saml-events.js'
import { Id, Name } from '../../domain/shared/values.js'
import { requireOrgId } from '../caller.js'
import { pinCertificate } from '../saml/certificates.js'
import { parseIdpMetadata } from '../saml/idp-metadata.js'
import { samlUrls } from '../saml/urls.js'
import { rpc } from '../registry.js'
import { managerOf } from './people.js'
import { Domains, dedupe, requireProviderManager, ssoSettingsOf } from './sso.js'
import { ProviderId } from './ids.js'

const domain = 'org-admin'

/**
 * An organization's SAML 2.0 identity providers (spec "Identity providers", Authentication 7;
 * add_org_saml_provider as the catalogue lists it, plus allow_signup as OIDC has it). Owner-level, like the
 * OIDC ones. The IdP's entity id, SSO URL and signing certificate come from metadata_xml, or one by one; a
 * value given one by one wins over the metadata's (so an owner can pin one certificate of several). Nothing
 * is fetched: the service never contacts a SAML IdP, only sends browsers to it. The result carries what to
 * register at the IdP: the SP entity id and metadata URL, the ACS URL, and the login URL staff start from.
 */
const Url = z
  .string()
  .trim()
  .max(2000)
  .refine((text) => text === '' || /^https?:\/\/[^\s]+$/i.test(text), 'expected an http(s) URL')
const Certificate = z.string().max(20_000)
const MetadataXml = z.string().max(256 * 1024)
const EntityId = z.string().trim().max(1024)
const EmailAttribute = z.string().trim().max(1024)

const CertificateView = z.object({ fingerprint_sha256: z.string(), expires_at: z.string() })
const ProviderView = z.object({
  id: Id,
  kind: z.literal('saml'),
  label: z.string(),
  idp_entity_id: z.string(),
  sso_url: z.string(),
  /** The (first) pinned IdP signing certificate, PEM. */
  certificate: z.string(),
  /** Every pinned certificate's fingerprint and expiry (a Response signed by any of them is accepted). */
  certificates: z.array(CertificateView),
  metadata_xml: z.string(),
  email_attribute: z.string(),
  allow_unsolicited: z.boolean(),
  allowed_domains: z.array(z.string()),
  default_role: RoleSchema,
  allow_signup: z.boolean(),
  active: z.boolean(),
  /** The SP entity id to register at the IdP (the metadata URL itself). */
  sp_entity_id: z.string(),
  sp_metadata_url: z.string(),
  acs_url: z.string(),
  /** Where staff start signing in with this provider. */
  login_url: z.string(),
})
type View = z.infer<typeof ProviderView>

/** `baseUrl` is the handler context's: the same address the metadata document and the ACS are built from. */
function viewOf(baseUrl: string, id: number, providerKey: string, s: SamlProviderSettings, active: boolean): View {
  const urls = samlUrls(baseUrl, providerKey)
  return {
    id,
    kind: 'saml',
    label: s.label,
    idp_entity_id: s.idp_entity_id,
    sso_url: s.sso_url,
    certificate: s.certificates[0]!,
    certificates: s.certificates.map((pem) => {
      const pinned = pinCertificate(pem)
      return { fingerprint_sha256: pinned.fingerprintSha256, expires_at: pinned.expiresAt }
    }),
    metadata_xml: s.metadata_xml,
    email_attribute: s.email_attribute,
    allow_unsolicited: s.allow_unsolicited,
    allowed_domains: [...s.allowed_domains],
    default_role: s.default_role,
    allow_signup: s.allow_signup,
    active,
    sp_entity_id: urls.entityId,
    sp_metadata_url: urls.metadata,
    acs_url: urls.acs,
    login_url: urls.login,
  }
}

/** The IdP's three values: one by one where given, else from the metadata; all three required. */
function idpValues(input: {
  metadataXml: string
  idpEntityId: string
  ssoUrl: string
  certificate: string
}): Pick<SamlProviderSettings, 'idp_entity_id' | 'sso_url' | 'certificates'> {
  const metadata = input.metadataXml.trim() === '' ? null : parseIdpMetadata(input.metadataXml)
  const entityId = input.idpEntityId !== '' ? input.idpEntityId : (metadata?.entityId ?? '')
  const ssoUrl = input.ssoUrl !== '' ? input.ssoUrl : (metadata?.ssoUrl ?? '')
  const certificates = input.certificate.trim() !== '' ? [input.certificate] : [...(metadata?.certificates ?? [])]
  const missing = [entityId === '' && 'idp_entity_id', ssoUrl === '' && 'sso_url', certificates.length === 0 && 'certificate'].filter(
    Boolean,
  )
  if (missing.length > 0)
    throw new DomainError(
      'saml_provider_incomplete',
      'The SAML provider needs an entity id, an SSO URL and a certificate',
      `missing: ${missing.join(', ')}`,
    )
  if (!/^https?:\/\/[^\s]+$/i.test(ssoUrl))
    throw new DomainError('saml_metadata_invalid', 'The SAML metadata could not be used', `the SSO URL ${ssoUrl} is not an http(s) URL`)
  return { idp_entity_id: entityId, sso_url: ssoUrl, certificates: certificates.slice(0, 4).map((c) => pinCertificate(c).pem) }
}

export const samlRpcs = [
  rpc({
    name: 'add_org_saml_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Add a SAML 2.0 identity provider for the organization's staff (SP-initiated, HTTP-Redirect AuthnRequest, HTTP-POST Response; encrypted assertions are not supported). The IdP's entity id, SSO URL and signing certificate are read from metadata_xml, or given as idp_entity_id, sso_url and certificate (a value given wins over the metadata's); 400 saml_metadata_invalid / saml_certificate_invalid / saml_provider_incomplete name what failed. The email is the email_attribute's value, or the NameID when empty. Unknown staff whose email domain is in allowed_domains are provisioned with default_role; allow_signup lets other emails create their own organization; allow_unsolicited accepts IdP-initiated responses. The result carries sp_entity_id, sp_metadata_url and acs_url to register at the IdP, and login_url. Owner-level.",
    example: {
      params: {
        label: 'Northwind Okta',
        metadata_xml:
          '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1">…</EntityDescriptor>',
        allowed_domains: ['northwind.example'],
      },
    },
    params: z.strictObject({
      label: Name.describe('A name for people, shown on the sign-in page, 1 to 200 characters'),
      allow_unsolicited: z
        .boolean()
        .default(false)
        .describe('Accept IdP-initiated responses (no AuthnRequest of ours to answer); weaker against replay (default false)'),
      allowed_domains: Domains.nullable()
        .default(null)
        .describe('Only emails of these domains may sign in (e.g. ["northwind.example"]); null: any domain (default null)'),
      certificate: Certificate.default('').describe("The IdP's signing certificate, PEM or base64 DER; empty: taken from metadata_xml"),
      default_role: RoleSchema.default('viewer').describe(
        'The role of members it signs up: owner, seo_editor, web_builder or viewer (default viewer)',
      ),
      email_attribute: EmailAttribute.default('').describe('The assertion attribute that carries the email; empty: the NameID'),
      idp_entity_id: EntityId.default('').describe("The IdP's entity id (Issuer); empty: taken from metadata_xml"),
      metadata_xml: MetadataXml.default('').describe(
        "The IdP's metadata XML, at most 256 KiB: entity id, SSO URL and certificate are read from it unless given",
      ),
      sso_url: Url.default('').describe("The IdP's SSO URL (HTTP-Redirect binding); empty: taken from metadata_xml"),
      allow_signup: z
        .boolean()
        .default(false)
        .describe('Whether a person the provider vouches for, who is not a member yet, becomes one on first sign-in (default false)'),
    }),
    result: ProviderView,
    async handler(ctx) {
      ssoSettingsOf(ctx.settings) // 503 when single sign-on is not configured
      const p = ctx.params
      const orgId = requireOrgId(ctx.orgId)
      const manager = managerOf(ctx.caller)
      requireProviderManager(manager)
      const settings: SamlProviderSettings = {
        label: p.label,
        ...idpValues({ metadataXml: p.metadata_xml, idpEntityId: p.idp_entity_id, ssoUrl: p.sso_url, certificate: p.certificate }),
        metadata_xml: p.metadata_xml,
        email_attribute: p.email_attribute,
        allow_unsolicited: p.allow_unsolicited,
        allowed_domains: dedupe(p.allowed_domains ?? []),
        default_role: p.default_role,
        allow_signup: p.allow_signup,
      }
      const added = await addSamlProvider(ctx.write, ctx.command, { orgId, manager, settings })
      return viewOf(ctx.baseUrl, added.providerId, added.providerKey, settings, true)
    },
  }),
  rpc({
    name: 'list_org_saml_providers',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's SAML identity providers, oldest first, with the SP entity id, metadata URL, ACS URL and login URL of each.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(ProviderView),
    async handler(ctx) {
      ssoSettingsOf(ctx.settings) // 503 when single sign-on is not configured
      const rows = await ctx.read
        .selectFrom('saml_providers')
        .selectAll()
        .where('org_id', '=', requireOrgId(ctx.orgId))
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute()
      return rows.map((r) =>
        viewOf(
          ctx.baseUrl,
          Number(r.id),
          r.provider_key,
          {
            label: r.label,
            idp_entity_id: r.idp_entity_id,
            sso_url: r.sso_url,
            certificates: r.certificates,
            metadata_xml: r.metadata_xml,
            email_attribute: r.email_attribute,
            allow_unsolicited: r.allow_unsolicited,
            allowed_domains: r.allowed_domains,
            default_role: RoleSchema.parse(r.default_role),
            allow_signup: r.allow_signup,
          },
          r.active,
        ),
      )
    },
  }),
  rpc({
    name: 'update_org_saml_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a SAML identity provider: only the given fields. A new metadata_xml re-reads the entity id, SSO URL and certificate from it (unless those are given too). active false pauses sign-ins. The provider's URLs never change. Owner-level; another organization's provider answers like a missing one (404).",
    example: { params: { provider_id: 9, allow_signup: true } },
    params: z.strictObject({
      provider_id: ProviderId,
      label: Name.optional().describe('A name for people, shown on the sign-in page, 1 to 200 characters (absent: unchanged)'),
      allow_unsolicited: z
        .boolean()
        .optional()
        .describe('Accept IdP-initiated responses (no AuthnRequest of ours to answer); weaker against replay (absent: unchanged)'),
      allowed_domains: Domains.nullable()
        .optional()
        .describe('Only emails of these domains may sign in (e.g. ["northwind.example"]); null: any domain (absent: unchanged)'),
      certificate: Certificate.optional().describe(
        "The IdP's signing certificate, PEM or base64 DER; empty: taken from metadata_xml (absent: unchanged)",
      ),
      default_role: RoleSchema.optional().describe(
        'The role of members it signs up: owner, seo_editor, web_builder or viewer (absent: unchanged)',
      ),
      email_attribute: EmailAttribute.optional().describe(
        'The assertion attribute that carries the email; empty: the NameID (absent: unchanged)',
      ),
      idp_entity_id: EntityId.optional().describe("The IdP's entity id (Issuer); empty: taken from metadata_xml (absent: unchanged)"),
      metadata_xml: MetadataXml.optional().describe(
        "The IdP's metadata XML, at most 256 KiB: entity id, SSO URL and certificate are read from it unless given (absent: unchanged)",
      ),
      sso_url: Url.optional().describe("The IdP's SSO URL (HTTP-Redirect binding); empty: taken from metadata_xml (absent: unchanged)"),
      allow_signup: z
        .boolean()
        .optional()
        .describe('Whether a person the provider vouches for, who is not a member yet, becomes one on first sign-in (absent: unchanged)'),
      active: z.boolean().optional().describe('false: the login URL answers that the provider is switched off (absent: unchanged)'),
    }),
    result: ProviderView,
    async handler(ctx) {
      ssoSettingsOf(ctx.settings) // 503 when single sign-on is not configured
      const p = ctx.params
      const current = await loadSamlProvider(ctx.write, p.provider_id)
      requireProvider(current, ctx.orgId, 'saml_provider')
      const manager = managerOf(ctx.caller)
      requireProviderManager(manager)
      const was = current.settings!
      const fromMetadata = p.metadata_xml !== undefined && p.metadata_xml.trim() !== ''
      const idp = idpValues({
        metadataXml: p.metadata_xml ?? '',
        // With new metadata, what is not given comes from it; without, what is not given stays.
        idpEntityId: p.idp_entity_id || (fromMetadata ? '' : was.idp_entity_id),
        ssoUrl: p.sso_url || (fromMetadata ? '' : was.sso_url),
        certificate: p.certificate || (fromMetadata ? '' : was.certificates[0]!),
      })
      const keepCertificates = !fromMetadata && !p.certificate
      const settings: SamlProviderSettings = {
        label: p.label ?? was.label,
        idp_entity_id: idp.idp_entity_id,
        sso_url: idp.sso_url,
        certificates: keepCertificates ? was.certificates : idp.certificates,
        metadata_xml: p.metadata_xml ?? was.metadata_xml,
        email_attribute: p.email_attribute ?? was.email_attribute,
        allow_unsolicited: p.allow_unsolicited ?? was.allow_unsolicited,
        allowed_domains: p.allowed_domains === undefined ? was.allowed_domains : dedupe(p.allowed_domains ?? []),
        default_role: p.default_role ?? was.default_role,
        allow_signup: p.allow_signup ?? was.allow_signup,
      }
      const active = p.active ?? current.active
      await updateSamlProvider(ctx.write, ctx.command, { providerId: p.provider_id, callerOrgId: ctx.orgId, manager, settings, active })
      return viewOf(ctx.baseUrl, p.provider_id, current.providerKey!, settings, active)
    },
  }),
  rpc({
    name: 'delete_org_saml_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Delete a SAML identity provider: its URLs stop working at once and responses in flight are refused. Members it provisioned stay members. Owner-level; another organization's provider answers like a missing one (404).",
    example: { params: { provider_id: 9 } },
    params: z.strictObject({ provider_id: ProviderId }),
    result: z.object({ id: Id, deleted: z.literal(true) }),
    async handler(ctx) {
      await deleteSamlProvider(ctx.write, ctx.command, {
        providerId: ctx.params.provider_id,
        callerOrgId: ctx.orgId,
        manager: managerOf(ctx.caller),
      })
      return { id: ctx.params.provider_id, deleted: true as const }
    },
  }),
]
