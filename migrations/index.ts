import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely'
import * as eventStore from './0001-event-store.js'
import * as idSequences from './0002-id-sequences.js'
import * as serviceSettings from './0003-service-settings.js'
import * as aeo from './0004-aeo.js'
import * as processorCheckpoints from './0005-processor-checkpoints.js'
import * as files from './0006-files.js'
import * as notifyAfterCommit from './0007-notify-after-commit.js'
import * as idempotency from './0008-idempotency.js'
import * as rateLimitsUsage from './0009-rate-limits-usage.js'
import * as jobs from './0010-jobs.js'
import * as siteEdits from './0012-site-edits.js'
import * as adCopyKeywords from './0013-ad-copy-keywords.js'
import * as webhooks from './0014-webhooks.js'
import * as people from './0016-people.js'
import * as projectionFailures from './0019-projection-failures.js'
import * as sso from './0020-sso.js'
import * as oauth from './0017-oauth.js'
import * as saml from './0022-saml.js'
import * as logOrderPrimaryKey from './0026-log-order-primary-key.js'
import * as surveyIds from './0027-survey-ids.js'
import * as rankCheckIds from './0029-rank-check-ids.js'
import * as seoInsightIds from './0031-seo-insight-ids.js'
import * as gscCaptureIds from './0033-gsc-capture-ids.js'
import * as siteScanIds from './0035-site-scan-ids.js'
import * as siteChangeIds from './0036-site-change-ids.js'
import * as planningIds from './0037-planning-ids.js'
import * as publishingIds from './0038-publishing-ids.js'
import * as contentIds from './0039-content-ids.js'

/**
 * The durable schema, in order. Names are never changed once released; a change is a new migration.
 * Read models are not here: they are disposable and rebuilt from the log (see read-models/).
 */
export const migrations: Record<string, Migration> = {
  '0001-event-store': eventStore,
  '0002-id-sequences': idSequences,
  '0003-service-settings': serviceSettings,
  '0004-aeo': aeo,
  '0005-processor-checkpoints': processorCheckpoints,
  '0006-files': files,
  '0007-notify-after-commit': notifyAfterCommit,
  '0008-idempotency': idempotency,
  '0009-rate-limits-usage': rateLimitsUsage,
  '0010-jobs': jobs,
  '0012-site-edits': siteEdits,
  '0013-ad-copy-keywords': adCopyKeywords,
  '0014-webhooks': webhooks,
  '0016-people': people,
  '0019-projection-failures': projectionFailures,
  '0020-sso': sso,
  '0017-oauth': oauth,
  '0022-saml': saml,
  '0026-log-order-primary-key': logOrderPrimaryKey,
  '0027-survey-ids': surveyIds,
  '0029-rank-check-ids': rankCheckIds,
  '0031-seo-insight-ids': seoInsightIds,
  '0033-gsc-capture-ids': gscCaptureIds,
  '0035-site-scan-ids': siteScanIds,
  '0036-site-change-ids': siteChangeIds,
  '0037-planning-ids': planningIds,
  '0038-publishing-ids': publishingIds,
  '0039-content-ids': contentIds,
}

/** Applies every pending migration; throws with the failing migration's name. Safe to call concurrently. */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  // Numbers are assigned per area ahead of time and areas land in any order: a database that already has
  // 0014 must still take a 0010 that lands after it.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true })
  const result = await migrator.migrateToLatest()
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`Migration ${failed} failed: ${String((result.error as Error).message ?? result.error)}`)
  }
  return result
}
