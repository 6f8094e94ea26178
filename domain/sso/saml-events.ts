import { z } from 'zod'
import { RoleSchema } from '../people/roles.js'
import { Id } from '../shared/values.js'

/**
 * An organization's SAML 2.0 identity provider: the stream `saml_provider-<id>` (added, updated, deleted).
 * Nothing here is secret: the IdP's certificate is public, and the service holds no SAML key of its own (it
 * signs no requests and decrypts nothing: encrypted assertions are refused, spec Authentication 7). Sign-ins
 * and refusals use the shared SSO events of domain/sso/events.ts with `protocol: 'saml'`.
 */
const Domain = z.string().min(1).max(253)

/** The provider's settings, whole (an update carries them all, so a projector sets rather than merges). */
export const SamlProviderSettingsSchema = z.object({
  label: z.string().min(1).max(200),
  /** The IdP's entity id: every Issuer it sends must equal it. */
  idp_entity_id: z.string().min(1).max(1024),
  /** Where the HTTP-Redirect AuthnRequest goes. */
  sso_url: z.string().min(1).max(2000),
  /** The IdP's signing certificate(s), PEM; a Response or Assertion must be signed by one of them. */
  certificates: z.array(z.string().min(1).max(20_000)).min(1).max(4),
  /** The IdP metadata the three values above were read from ('' when they were given one by one). */
  metadata_xml: z.string().max(256 * 1024),
  /** The attribute carrying the email ('' : the NameID is the email). */
  email_attribute: z.string().max(1024),
  allow_unsolicited: z.boolean(),
  allowed_domains: z.array(Domain).max(100),
  default_role: RoleSchema,
  allow_signup: z.boolean(),
})
export type SamlProviderSettings = z.infer<typeof SamlProviderSettingsSchema>

/** `provider_key`: the unguessable name in the provider's URLs (/saml/<key>/...), fixed for its life. */
export const SamlProviderAdded = SamlProviderSettingsSchema.extend({
  provider_id: Id,
  org_id: Id,
  provider_key: z.string().regex(/^[a-z0-9]{20,40}$/),
})
export const SamlProviderUpdated = SamlProviderSettingsSchema.extend({ provider_id: Id, org_id: Id, active: z.boolean() })
export const SamlProviderDeleted = z.object({ provider_id: Id, org_id: Id })

export const samlProviderEventSchemas = { SamlProviderAdded, SamlProviderUpdated, SamlProviderDeleted } as const

type Data<T extends z.ZodType> = z.infer<T>
export type SamlProviderEvent =
  | { type: 'SamlProviderAdded'; data: Data<typeof SamlProviderAdded> }
  | { type: 'SamlProviderUpdated'; data: Data<typeof SamlProviderUpdated> }
  | { type: 'SamlProviderDeleted'; data: Data<typeof SamlProviderDeleted> }
