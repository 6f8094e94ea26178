import type { EventOf, Projector } from '../projector.js'
import { sql } from 'kysely'
import type { ReadDb } from '../tables.js'
import { eachEvent } from '../each-event.js'

/**
 * Read-model tables whose rows belong to one client (column `client_id`, or `id` for clients itself). A
 * sandbox reset deletes the retired clients' rows from each. A new per-client table must be added here:
 * test/ops/sandbox.test.ts fails when a read-model table with a client_id column is missing.
 */
export const CLIENT_TABLES = [
  'client_services',
  'client_locations',
  'client_settings',
  'aeo_queries',
  'aeo_cadences',
  'aeo_runs',
  'aeo_captures',
  'aeo_items',
  'aeo_item_hits',
  'aeo_reports',
  'aeo_summary_counts',
  'aeo_summary_competitors',
  'aeo_summary_spellings',
  'aeo_summary_months',
  'jobs',
  'keywords',
  'ad_copy_sets',
  'ad_copy_ad_groups',
  'pages',
  'page_snapshots',
  'site_edits',
  'site_edit_attempts',
  'page_intents',
  'page_intent_cache',
  'keyword_pages',
  'surveys',
  'keyword_ranks',
  'rank_cadences',
  'rank_checks',
  'seo_insights',
  'meta_optimizations',
  'gsc_properties',
  'gsc_captures',
  'gsc_capture_rows',
  'page_links',
  'page_link_sources',
  'site_scans',
  'site_scan_pages',
  'scan_cadences',
  'client_cooldowns',
  'page_renders',
  'site_changes',
  'action_items',
  'action_item_months_closed',
  'compare_reports',
  'hour_budget_settings',
  'client_group_members',
  'site_connections',
  'content_pages',
  'blog_topics',
  'blog_schedules',
  'template_catalog_entries',
  'template_pages',
  'website_projects',
  'sitemap_pages',
  'generated_content',
  'elementor_pages',
  'push_failures',
  'redirects',
  'client_images',
  'reference_docs',
] as const

/**
 * Tables with a client_id column that a reset keeps, each for a stated reason. webhook_delivery_records:
 * a delivery is the subscriber's log (the webhook belongs to the organization, and the receiver already
 * has the event); its client_id is only a filter, and its attempts table has no client column to follow.
 * oauth_grants: its client_id is the OAuth client (an app a member connected), not a client of the agency.
 * sso_providers: its client_id is the OIDC client id at the organization's identity provider, likewise.
 */
export const KEPT_AT_RESET = ['webhook_delivery_records', 'oauth_grants', 'sso_providers'] as const

/**
 * SandboxReset: deletes every read-model row of the retired sandbox clients, in every table, including
 * their org_activity rows (by client_id, or by the run and capture streams, whose events name no client).
 *
 * This is the one projector that writes other projectors' tables, and deliberately so: a reset is
 * "forget these clients" across all read models, and spreading it over every projector would make each new
 * read model a place to forget it. It stays correct under the runner's batch rule (each projector applies
 * the whole batch before the next) because it runs last in the group and only deletes rows of clients
 * that are retired for good: ids come from sequences and are never reused, and the reset first deletes
 * the clients (client_deleted refuses further writes), so no later event re-creates their rows. Whether the
 * other projectors applied a client's events in this batch or an earlier one, its rows are gone after the
 * reset, exactly as in a rebuild from position zero. Idempotent: deleting again deletes nothing.
 */
async function reset(db: ReadDb, event: EventOf<'SandboxReset'>): Promise<void> {
  const { org_id: orgId, retired_client_ids: retired } = event.data
  if (retired.length === 0) return
  const ids = sql`${sql.val(retired)}::bigint[]`
  // Activity first, while the run and capture rows still say which streams were the retired clients'.
  const runs = await db.selectFrom('aeo_runs').select('id').where(sql<boolean>`client_id = any(${ids})`).execute()
  const captures = await db.selectFrom('aeo_captures').select('id').where(sql<boolean>`client_id = any(${ids})`).execute()
  // Site edit events after staging name no client either.
  const edits = await db.selectFrom('site_edits').select('id').where(sql<boolean>`client_id = any(${ids})`).execute()
  const streams = [
    ...runs.map((r) => `aeo_run-${r.id}`),
    ...captures.map((c) => `aeo_capture-${c.id}`),
    ...edits.map((e) => `site_edit-${e.id}`),
  ]
  await db
    .deleteFrom('org_activity')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb(sql`client_id`, '=', sql`any(${ids})`), eb(sql`stream`, '=', sql`any(${sql.val(streams)}::text[])`)]))
    .execute()
  for (const table of CLIENT_TABLES) {
    await db.deleteFrom(table).where(sql<boolean>`client_id = any(${ids})`).execute()
  }
  await db.deleteFrom('clients').where('org_id', '=', orgId).where(sql<boolean>`id = any(${ids})`).execute()
}

export const sandboxProjector: Projector = eachEvent({ name: 'sandbox', handlers: { SandboxReset: reset } })
