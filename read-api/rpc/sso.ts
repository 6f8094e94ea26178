import { z } from 'zod'
import { addSsoProvider, deleteSsoProvider, loadSsoProvider, updateSsoProvider } from '../../commands/sso.js'
import { seal } from '../../commands/secrets/service-key.js'
import { RoleSchema, type MemberManager } from '../../domain/people/roles.js'
import { EmailDomainSchema, normalizeDomain } from '../../domain/sso/domains.js'
import { requireProvider, type ProviderSettings } from '../../domain/sso/provider.js'
import { Id, Name } from '../../domain/shared/values.js'
import { requireOrgId } from '../caller.js'
import { ApiError } from '../errors.js'
import { discoverIssuer } from '../sso/oidc-client.js'
import type { SsoSettings } from '../sso/settings.js'
import { oidcUrls } from '../sso/urls.js'
import { rpc } from '../registry.js'
import type { ServiceSettings } from '../settings.js'
import { managerOf } from './people.js'
import { ProviderId } from './ids.js'

const domain = 'org-admin'

/**
 * An organization's OIDC identity providers (spec "Identity providers", Authentication 7). Owner-level, like
 * invite_org_member: a key with the write scope, or a credential acting for an owner. Adding one (or changing
 * its issuer) fetches the issuer's discovery document first: a bad issuer answers sso_issuer_invalid naming
 * what failed, and the fetch only goes where the address policy allows (SSO_ALLOWED_HOSTS). The client secret
 * is write-only: sealed with the service key, never returned (has_client_secret says whether there is one).
 * Another organization's provider answers like a missing one.
 */
/**
 * Asked before anything is fetched or sealed, so a non-owner cannot make the service do either (the aggregate
 * decides again when the event is written).
 */
export function requireProviderManager(manager: MemberManager): void {
  if (manager.kind === 'member' && manager.role !== 'owner') throw new ApiError('forbidden', 'Only an owner may manage identity providers')
}

export function ssoSettingsOf(settings: ServiceSettings): SsoSettings {
  if (!settings.sso) throw new ApiError('service_unavailable', 'single sign-on is not configured on this service (no service key)')
  return settings.sso
}

const Issuer = z.string().trim().min(1).max(2000)
const ClientId = z.string().trim().min(1).max(500)
const Secret = z.string().max(2000)
export const Domains = z.array(EmailDomainSchema).max(100)
const HostedDomain = z
  .string()
  .transform(normalizeDomain)
  .pipe(z.union([z.literal(''), EmailDomainSchema]))

const ProviderView = z.object({
  id: Id,
  kind: z.literal('oidc'),
  label: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  /** The secret itself is write-only. */
  has_client_secret: z.boolean(),
  allowed_domains: z.array(z.string()),
  default_role: RoleSchema,
  hosted_domain: z.string(),
  allow_signup: z.boolean(),
  active: z.boolean(),
  /** Where staff start signing in with this provider. */
  login_url: z.string(),
  /** The redirect URI to register at the identity provider. */
  redirect_uri: z.string(),
})
type View = z.infer<typeof ProviderView>

/** `baseUrl` is the handler context's: the same address the sign-in routes send the identity provider. */
function viewOf(
  baseUrl: string,
  id: number,
  s: Omit<ProviderSettings, 'client_secret_sealed'> & { has_client_secret: boolean },
  active: boolean,
): View {
  const urls = oidcUrls(baseUrl, id)
  return {
    id,
    kind: 'oidc',
    label: s.label,
    issuer: s.issuer,
    client_id: s.client_id,
    has_client_secret: s.has_client_secret,
    allowed_domains: [...s.allowed_domains],
    default_role: s.default_role,
    hosted_domain: s.hosted_domain,
    allow_signup: s.allow_signup,
    active,
    login_url: urls.login,
    redirect_uri: urls.redirectUri,
  }
}
export const dedupe = (domains: readonly string[]) => [...new Set(domains)]

export const ssoRpcs = [
  rpc({
    name: 'add_org_sso_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Add an OIDC identity provider for the organization's staff to sign in with. The issuer's discovery document is fetched to validate it (400 sso_issuer_invalid names what failed). client_secret is write-only (sealed, never returned; empty: a public client using PKCE only). Unknown staff whose email domain is in allowed_domains are provisioned with default_role; allow_signup lets other verified emails create their own organization. hosted_domain requires the id_token's hd claim to equal it. The result carries login_url and the redirect_uri to register at the provider. Owner-level.",
    example: {
      params: {
        label: 'Northwind Google',
        issuer: 'https://accounts.google.com',
        client_id: '123456789012-abc.apps.googleusercontent.com',
        client_secret: 'GOCSPX-example',
        allowed_domains: ['northwind.example'],
        hosted_domain: 'northwind.example',
      },
    },
    params: z.strictObject({
      label: Name.describe('A name for people, shown on the sign-in page, 1 to 200 characters'),
      issuer: Issuer.describe('The OIDC issuer URL (https; its /.well-known/openid-configuration is fetched to validate it)'),
      client_id: ClientId.describe('The client id this service is registered under at the identity provider'),
      allowed_domains: Domains.nullable()
        .default(null)
        .describe('Only emails of these domains may sign in (e.g. ["northwind.example"]); null: any domain (default null)'),
      client_secret: Secret.default('').describe(
        'The client secret, write-only (sealed, never returned); empty: a public client (default empty)',
      ),
      default_role: RoleSchema.default('viewer').describe(
        'The role of members it signs up: owner, seo_editor, web_builder or viewer (default viewer)',
      ),
      hosted_domain: HostedDomain.default('').describe(
        'Google Workspace hd claim the ID token must carry, e.g. northwind.example; empty: none (default empty)',
      ),
      allow_signup: z
        .boolean()
        .default(false)
        .describe('Whether a person the provider vouches for, who is not a member yet, becomes one on first sign-in (default false)'),
    }),
    result: ProviderView,
    async handler(ctx) {
      const sso = ssoSettingsOf(ctx.settings)
      const p = ctx.params
      const orgId = requireOrgId(ctx.orgId)
      const manager = managerOf(ctx.caller)
      const secretSealed = p.client_secret === '' ? null : seal(sso.serviceKey, p.client_secret)
      // Permission first, so a non-owner cannot make the service fetch anything.
      requireProviderManager(manager)
      await discoverIssuer(sso, { issuer: p.issuer, clientId: p.client_id, clientSecretSealed: secretSealed })
      const settings: ProviderSettings = {
        label: p.label,
        issuer: p.issuer,
        client_id: p.client_id,
        client_secret_sealed: secretSealed,
        allowed_domains: dedupe(p.allowed_domains ?? []),
        default_role: p.default_role,
        hosted_domain: p.hosted_domain,
        allow_signup: p.allow_signup,
      }
      const added = await addSsoProvider(ctx.write, ctx.command, { orgId, manager, settings })
      return viewOf(ctx.baseUrl, added.providerId, { ...settings, has_client_secret: secretSealed !== null }, true)
    },
  }),
  rpc({
    name: 'list_org_sso_providers',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The organization's OIDC identity providers, oldest first, with their login URLs. Never returns the client secret.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(ProviderView),
    async handler(ctx) {
      ssoSettingsOf(ctx.settings) // 503 when single sign-on is not configured
      const rows = await ctx.read
        .selectFrom('sso_providers')
        .selectAll()
        .where('org_id', '=', requireOrgId(ctx.orgId))
        .where('deleted_at', 'is', null)
        .where('kind', '=', 'oidc')
        .orderBy('id')
        .execute()
      return rows.map((r) =>
        viewOf(
          ctx.baseUrl,
          Number(r.id),
          {
            label: r.label,
            issuer: r.issuer,
            client_id: r.client_id,
            has_client_secret: r.has_client_secret,
            allowed_domains: r.allowed_domains,
            default_role: RoleSchema.parse(r.default_role),
            hosted_domain: r.hosted_domain,
            allow_signup: r.allow_signup,
          },
          r.active,
        ),
      )
    },
  }),
  rpc({
    name: 'update_org_sso_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change an OIDC identity provider: only the given fields. A new issuer (or client) is validated by fetching its discovery document. client_secret: a new secret; an empty string removes it (public client); omitted keeps it. active false pauses sign-ins. Owner-level; another organization's provider answers like a missing one (404).",
    example: { params: { provider_id: 7, allow_signup: true, default_role: 'viewer' } },
    params: z.strictObject({
      provider_id: ProviderId,
      label: Name.optional().describe('A name for people, shown on the sign-in page, 1 to 200 characters (absent: unchanged)'),
      issuer: Issuer.optional().describe(
        'The OIDC issuer URL (https; its /.well-known/openid-configuration is fetched to validate it) (absent: unchanged)',
      ),
      client_id: ClientId.optional().describe(
        'The client id this service is registered under at the identity provider (absent: unchanged)',
      ),
      client_secret: Secret.optional().describe(
        'The client secret, write-only (sealed, never returned); empty: a public client (absent: unchanged; empty: remove it)',
      ),
      allowed_domains: Domains.nullable()
        .optional()
        .describe('Only emails of these domains may sign in (e.g. ["northwind.example"]); null: any domain (absent: unchanged)'),
      default_role: RoleSchema.optional().describe(
        'The role of members it signs up: owner, seo_editor, web_builder or viewer (absent: unchanged)',
      ),
      hosted_domain: HostedDomain.optional().describe(
        'Google Workspace hd claim the ID token must carry, e.g. northwind.example; empty: none (absent: unchanged)',
      ),
      allow_signup: z
        .boolean()
        .optional()
        .describe('Whether a person the provider vouches for, who is not a member yet, becomes one on first sign-in (absent: unchanged)'),
      active: z.boolean().optional().describe('false: the login URL answers that the provider is switched off (absent: unchanged)'),
    }),
    result: ProviderView,
    async handler(ctx) {
      const sso = ssoSettingsOf(ctx.settings)
      const p = ctx.params
      const current = await loadSsoProvider(ctx.write, p.provider_id)
      requireProvider(current, ctx.orgId)
      const manager = managerOf(ctx.caller)
      requireProviderManager(manager)
      const was = current.settings!
      const secretSealed =
        p.client_secret === undefined ? was.client_secret_sealed : p.client_secret === '' ? null : seal(sso.serviceKey, p.client_secret)
      const settings: ProviderSettings = {
        label: p.label ?? was.label,
        issuer: p.issuer ?? was.issuer,
        client_id: p.client_id ?? was.client_id,
        client_secret_sealed: secretSealed,
        allowed_domains: p.allowed_domains === undefined ? was.allowed_domains : dedupe(p.allowed_domains ?? []),
        default_role: p.default_role ?? was.default_role,
        hosted_domain: p.hosted_domain ?? was.hosted_domain,
        allow_signup: p.allow_signup ?? was.allow_signup,
      }
      if (settings.issuer !== was.issuer || settings.client_id !== was.client_id) {
        await discoverIssuer(sso, {
          issuer: settings.issuer,
          clientId: settings.client_id,
          clientSecretSealed: settings.client_secret_sealed,
        })
      }
      const active = p.active ?? current.active
      await updateSsoProvider(ctx.write, ctx.command, { providerId: p.provider_id, callerOrgId: ctx.orgId, manager, settings, active })
      return viewOf(ctx.baseUrl, p.provider_id, { ...settings, has_client_secret: settings.client_secret_sealed !== null }, active)
    },
  }),
  rpc({
    name: 'delete_org_sso_provider',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Delete an OIDC identity provider: its login URL stops working at once and sign-ins in flight are refused. Members it provisioned stay members (remove_org_member removes them). Owner-level; another organization's provider answers like a missing one (404).",
    example: { params: { provider_id: 7 }, result: { id: 7, deleted: true } },
    params: z.strictObject({ provider_id: ProviderId }),
    result: z.object({ id: Id, deleted: z.literal(true) }),
    async handler(ctx) {
      await deleteSsoProvider(ctx.write, ctx.command, {
        providerId: ctx.params.provider_id,
        callerOrgId: ctx.orgId,
        manager: managerOf(ctx.caller),
      })
      return { id: ctx.params.provider_id, deleted: true as const }
    },
  }),
]
