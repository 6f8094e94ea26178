import { sql, type Kysely } from 'kysely'
import { createAeoCaptureTables } from './aeo-captures.js'
import { createAeoQuestionTables } from './aeo-questions.js'
import { createAeoReportTables } from './aeo-reports.js'
import { createAeoSummaryTables } from './aeo-summary.js'
import { createAeoRunTables } from './aeo-runs.js'
import { createClientTables } from './clients.js'
import { createExportTables } from './exports.js'
import { createJobTables } from './jobs.js'
import { createKeywordTables } from './keywords.js'
import { createAdCopyTables } from './ad-copy.js'
import { createOrganizationTables } from './organizations.js'
import { createPageTables } from './pages.js'
import { createPeopleTables } from './people.js'
import { createSiteEditTables } from './site-edits.js'
import { createSsoTables } from './sso.js'
import { createWebhookTables } from './webhooks.js'
import { createOAuthTables } from './oauth.js'
import { createSearchTables } from './search.js'
import { createMonitoringTables } from './monitoring.js'
import { createPlanningTables } from './planning.js'
import { createPublishingTables } from './publishing.js'
import { createContentTables } from './content.js'

/**
 * Read models are disposable: they are built by projections from the log into a named schema, so that
 * `ops rebuild` can build a fresh copy beside the live one and swap. Bump READ_MODEL_VERSION whenever the
 * DDL below changes: a service that finds an older version rebuilds blue/green on start.
 */
export const READ_MODEL_VERSION = 23

/** The schema reads are served from. A rebuild builds `read_models_next` and renames it into place. */
export const LIVE_SCHEMA = 'read_models'

export async function createReadModelSchema(db: Kysely<any>, schema: string): Promise<void> {
  await sql`create schema ${sql.id(schema)}`.execute(db)
  await sql`
    create table ${sql.id(schema, 'projection_checkpoint')} (
      group_name text primary key,
      position text,
      read_model_version integer not null,
      events_applied bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db)
  await createOrganizationTables(db, schema)
  await createClientTables(db, schema)
  await createAeoQuestionTables(db, schema)
  await createAeoRunTables(db, schema)
  await createAeoCaptureTables(db, schema)
  await createAeoReportTables(db, schema)
  await createAeoSummaryTables(db, schema)
  await createJobTables(db, schema)
  await createKeywordTables(db, schema)
  await createAdCopyTables(db, schema)
  await createPageTables(db, schema)
  await createSiteEditTables(db, schema)
  await createWebhookTables(db, schema)
  await createExportTables(db, schema)
  await createPeopleTables(db, schema)
  await createSsoTables(db, schema)
  await createOAuthTables(db, schema)
  await createSearchTables(db, schema)
  await createMonitoringTables(db, schema)
  await createPlanningTables(db, schema)
  await createPublishingTables(db, schema)
  await createContentTables(db, schema)
}
