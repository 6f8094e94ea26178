import type { Kysely } from 'kysely'
import type { WriteDeps } from '../../commands/command-handler.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import type { PeopleSettings } from '../people/settings.js'
import { IssuerCache } from './oidc-client.js'
import type { SsoSettings } from './settings.js'

/** What the app hands the single sign-on routes (OIDC and SAML). */
export interface SsoRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly db: Kysely<WorkTables>
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly settings: { readonly people?: PeopleSettings; readonly sso?: SsoSettings }
}

/** What the sign-on pages run on: sign-in and single sign-on configured, and the app's cache of OIDC issuers. */
export interface SsoPagesDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  /** The sign-in work tables (OIDC states, SAML requests and seen assertions). */
  readonly db: Kysely<WorkTables>
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly people: PeopleSettings
  readonly sso: SsoSettings
  readonly issuers: IssuerCache
}

/** The pages' deps when both are configured; undefined: the pages are documented but not served. */
export function ssoPagesDepsOf(deps: SsoRouteDeps): SsoPagesDeps | undefined {
  const { people, sso } = deps.settings
  if (!people || !sso) return undefined
  return {
    read: deps.read,
    write: deps.write,
    db: deps.db,
    watermark: deps.watermark,
    readYourWritesTimeoutMs: deps.readYourWritesTimeoutMs,
    people,
    sso,
    issuers: new IssuerCache(sso),
  }
}
