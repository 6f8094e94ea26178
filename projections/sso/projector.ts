import type { SamlProviderSettings } from '../../domain/sso/saml-events.js'
import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

const samlColumns = (d: SamlProviderSettings) => ({
  label: d.label,
  idp_entity_id: d.idp_entity_id,
  sso_url: d.sso_url,
  certificates: d.certificates,
  metadata_xml: d.metadata_xml,
  email_attribute: d.email_attribute,
  allow_unsolicited: d.allow_unsolicited,
  allowed_domains: d.allowed_domains,
  default_role: d.default_role,
  allow_signup: d.allow_signup,
})

/**
 * sso_providers (OIDC) and saml_providers from the provider streams. Idempotent per event: an insert if absent, and every update sets
 * the whole settings from the event. The sealed client secret is never projected (has_client_secret only).
 */
export const ssoProjector: Projector = eachEvent({
  name: 'sso',
  handlers: {
    async SsoProviderAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('sso_providers')
        .values({
          id: d.provider_id,
          org_id: d.org_id,
          kind: 'oidc',
          label: d.label,
          issuer: d.issuer,
          client_id: d.client_id,
          has_client_secret: d.client_secret_sealed !== null,
          allowed_domains: d.allowed_domains,
          default_role: d.default_role,
          hosted_domain: d.hosted_domain,
          allow_signup: d.allow_signup,
          active: true,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SsoProviderUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('sso_providers')
        .set({
          label: d.label,
          issuer: d.issuer,
          client_id: d.client_id,
          has_client_secret: d.client_secret_sealed !== null,
          allowed_domains: d.allowed_domains,
          default_role: d.default_role,
          hosted_domain: d.hosted_domain,
          allow_signup: d.allow_signup,
          active: d.active,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.provider_id)
        .execute()
    },
    async SsoProviderDeleted(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('sso_providers')
        .set({ active: false, deleted_at: at, updated_at: at })
        .where('id', '=', event.data.provider_id)
        .where('deleted_at', 'is', null)
        .execute()
    },
    async SamlProviderAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('saml_providers')
        .values({
          id: d.provider_id,
          org_id: d.org_id,
          provider_key: d.provider_key,
          ...samlColumns(d),
          active: true,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SamlProviderUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('saml_providers')
        .set({ ...samlColumns(d), active: d.active, updated_at: occurredAt(event) })
        .where('id', '=', d.provider_id)
        .execute()
    },
    async SamlProviderDeleted(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('saml_providers')
        .set({ active: false, deleted_at: at, updated_at: at })
        .where('id', '=', event.data.provider_id)
        .where('deleted_at', 'is', null)
        .execute()
    },
  },
})
