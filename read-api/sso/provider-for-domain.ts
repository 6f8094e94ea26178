import { sql } from 'kysely'
import type { ReadDb } from '../../projections/tables.js'

/**
 * Which identity provider a work email's domain signs in with (/login/sso): an active provider, OIDC or SAML,
 * that lists the domain in allowed_domains (or, for OIDC, names it as hosted_domain). Several: the oldest,
 * so adding a second provider never silently moves staff off the first.
 */
export type DomainProvider =
  | { readonly protocol: 'oidc'; readonly id: number }
  | { readonly protocol: 'saml'; readonly id: number; readonly key: string }

export async function providerForDomain(read: ReadDb, domain: string): Promise<DomainProvider | null> {
  const listed = sql<string[]>`array[${domain}]::text[]`
  const [oidc, saml] = await Promise.all([
    read
      .selectFrom('sso_providers')
      .select(['id'])
      .where('active', '=', true)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('allowed_domains', '@>', listed), eb('hosted_domain', '=', domain)]))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
    read
      .selectFrom('saml_providers')
      .select(['id', 'provider_key'])
      .where('active', '=', true)
      .where('deleted_at', 'is', null)
      .where('allowed_domains', '@>', listed)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
  ])
  if (oidc && (!saml || Number(oidc.id) < Number(saml.id))) return { protocol: 'oidc', id: Number(oidc.id) }
  if (saml) return { protocol: 'saml', id: Number(saml.id), key: saml.provider_key }
  return null
}
