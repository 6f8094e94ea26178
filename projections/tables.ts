import type { ColumnType, Generated, Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import type { AeoReadModels } from './aeo/tables.js'
import type { JobReadModels } from './jobs/tables.js'
import type { KeywordReadModels } from './keywords/tables.js'
import type { AdCopyReadModels } from './ad-copy/tables.js'
import type { PageReadModels } from './pages/tables.js'
import type { PeopleReadModels } from './people/tables.js'
import type { SsoReadModels } from './sso/tables.js'
import type { SiteEditReadModels } from './site-edits/tables.js'
import type { WebhookReadModels } from './webhooks/tables.js'
import type { ExportReadModels } from './exports/tables.js'
import type { OAuthReadModels } from './oauth/tables.js'
import type { SearchReadModels } from './search/tables.js'
import type { MonitoringReadModels } from './monitoring/tables.js'
import type { PlanningReadModels } from './planning/tables.js'
import type { PublishingReadModels } from './publishing/tables.js'
import type { ContentReadModels } from './content/tables.js'

/**
 * The read models as kysely sees them (DDL in migrations/read-models/). bigint ids come back as numbers
 * (ops/postgres.ts installs the int8 parser); timestamps as Date.
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface ProjectionCheckpointTable {
  group_name: string
  position: string | null
  read_model_version: number
  events_applied: ColumnType<number, number | undefined, number>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface OrganizationsTable {
  id: number
  name: string
  created_at: Timestamp
  updated_at: Timestamp
  /** White-label branding (update_organization_branding); null when not set. */
  brand_name: ColumnType<string | null, string | null | undefined, string | null>
  logo_url: ColumnType<string | null, string | null | undefined, string | null>
  accent_color: ColumnType<string | null, string | null | undefined, string | null>
}

export interface ApiKeysTable {
  id: number
  org_id: number | null
  name: string
  notes: string
  scopes: string
  key_hash: string
  key_hint: string
  created_by_user_id: number | null
  created_at: Timestamp
  revoked_at: Timestamp | null
  /** The key's own requests-per-minute limit; null: the service default (RATE_LIMIT_PER_MINUTE). */
  rate_limit_per_minute: Generated<number | null>
}

export interface OrgActivityTable {
  event_id: string
  org_id: number
  stream: string
  event_type: string
  client_id: number | null
  actor_kind: string
  actor_id: string | null
  occurred_at: Timestamp
  stream_revision: number
  position: string
}

export interface ClientsTable {
  id: number
  org_id: number
  name: string
  website_url: string
  slug: string
  status: string
  created_at: Timestamp
  updated_at: Timestamp
  deactivated_at: Timestamp | null
  deleted_at: Timestamp | null
}

export interface ClientServicesTable {
  id: number
  client_id: number
  org_id: number
  name: string
  description: string
  created_at: Timestamp
}

export interface ClientLocationsTable {
  id: number
  client_id: number
  org_id: number
  name: string
  city: string
  state: string
  country: string
  created_at: Timestamp
  removed_at: Timestamp | null
}

export interface ClientSettingsTable {
  client_id: number
  key: string
  org_id: number
  value: string
  updated_at: Timestamp
}

export interface ReadModels
  extends AeoReadModels,
    SearchReadModels,
    MonitoringReadModels,
    PlanningReadModels,
    PublishingReadModels,
    ContentReadModels,
    JobReadModels,
    PageReadModels,
    SiteEditReadModels,
    KeywordReadModels,
    AdCopyReadModels,
    WebhookReadModels,
    ExportReadModels,
    PeopleReadModels,
    OAuthReadModels,
    SsoReadModels {
  projection_checkpoint: ProjectionCheckpointTable
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  org_activity: OrgActivityTable
  clients: ClientsTable
  client_services: ClientServicesTable
  client_locations: ClientLocationsTable
  client_settings: ClientSettingsTable
}

/** A kysely instance bound to one read-model schema (the live one, or a rebuild's). */
export type ReadDb = Kysely<ReadModels>

/**
 * The read models in `schema`, on the pool, connection or transaction `db`. Kysely types one set of tables
 * per instance and the read models live in a schema of their own (a rebuild fills a fresh one, then swaps
 * it in), so this view of the same connection is a cast.
 */
export function readModelsIn(db: Kysely<WorkTables>, schema: string): ReadDb {
  return db.withSchema(schema) as unknown as ReadDb
}
