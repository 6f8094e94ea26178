/**
 * Organization scoping and the no-leak rule: another organization's record answers exactly like a missing
 * one (same status, same body but for the id), org keys get their org_id injected, platform keys name the
 * organization for list methods and can reach any organization's records.
 */
import t, { type Test } from 'tap'
import { generateKeyPairSync } from 'node:crypto'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, withoutIds, type Envelope, type OrgWithKey } from './helpers.js'

interface World {
  ts: TestSystem
  a: OrgWithKey
  b: OrgWithKey
  /** A's client. */
  clientA: number
  /** B's live client, with services, locations, settings and a slug. */
  clientB: number
  /** B's deleted client. */
  deletedB: number
  /** An id no client has. */
  missing: number
}

async function world(t: Test): Promise<World> {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Org A')
  const b = await orgWithKey(ts, 'Org B')
  const clientA = await ts.call<number>(
    'add_client',
    clientPayload('Alpha', { slug: 'alpha', services: ['SEO'], locations: ['Austin, TX'], settings: { attention_flag: 'A needs care' } }),
    a.key,
  )
  const clientB = await ts.call<number>(
    'add_client',
    clientPayload('Bravo', {
      slug: 'bravo',
      services: ['Roofing'],
      locations: ['Boston, MA'],
      settings: { tier: 'gold', attention_flag: 'B needs care' },
    }),
    b.key,
  )
  const deletedB = await ts.call<number>('add_client', clientPayload('Bravo Gone', { slug: 'bravo-gone', status: 'deleted' }), b.key)
  // Ids come from a sequence, so an id far past the last one is surely unused.
  const missing = deletedB + 10_000
  return { ts, a, b, clientA, clientB, deletedB, missing }
}

interface ClientCase {
  label: string
  method: string
  body: (clientId: number) => Record<string, unknown>
  /** The detail when the RPC names a record of the client rather than the client itself (default: the client). */
  missingDetail?: string
}

/** No ad copy set has this id, so set-keyed RPCs answer "set not found" for every client alike. */
const NO_SET = 987_654

/** A service account key with a real RSA key, so set_gsc_property's checks pass and only the client decides. */
const GSC_KEY = {
  type: 'service_account',
  client_email: 'scoping@rankrelay-test.iam.gserviceaccount.com',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
}

/** Every RPC that takes a client, with a body that would be valid for a client the caller owns. */
const CLIENT_CASES: ClientCase[] = [
  { label: 'get_client', method: 'get_client', body: (id) => ({ client_id: id }) },
  {
    label: 'get_client as_of',
    method: 'get_client',
    body: (id) => ({ client_id: id, as_of: new Date(Date.now() + 60_000).toISOString() }),
  },
  { label: 'get_client_org_id', method: 'get_client_org_id', body: (id) => ({ client_id: id }) },
  { label: 'update_client', method: 'update_client', body: (id) => ({ client_id: id, name: 'Hijacked' }) },
  { label: 'update_client slug', method: 'update_client', body: (id) => ({ client_id: id, slug: 'alpha' }) },
  { label: 'set_client_status', method: 'set_client_status', body: (id) => ({ client_id: id, status: 'paused' }) },
  { label: 'set_client_status active', method: 'set_client_status', body: (id) => ({ client_id: id, status: 'active' }) },
  { label: 'get_all_client_settings', method: 'get_all_client_settings', body: (id) => ({ client_id: id }) },
  { label: 'get_client_setting', method: 'get_client_setting', body: (id) => ({ client_id: id, key: 'tier' }) },
  { label: 'set_client_setting', method: 'set_client_setting', body: (id) => ({ client_id: id, key: 'tier', value: 'stolen' }) },
  { label: 'get_client_slug', method: 'get_client_slug', body: (id) => ({ client_id: id }) },
  { label: 'add_service', method: 'add_service', body: (id) => ({ service: { client_id: id, name: 'Injected' } }) },
  { label: 'add_service existing name', method: 'add_service', body: (id) => ({ service: { client_id: id, name: 'Roofing' } }) },
  { label: 'add_location', method: 'add_location', body: (id) => ({ location: { client_id: id, name: 'Nowhere, ZZ' } }) },
  { label: 'add_location parts', method: 'add_location', body: (id) => ({ location: { client_id: id, city: 'Boston', state: 'MA' } }) },
  { label: 'get_services_for_client', method: 'get_services_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_locations_for_client', method: 'get_locations_for_client', body: (id) => ({ client_id: id }) },
  { label: 'delete_locations_for_client', method: 'delete_locations_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_client_change_history', method: 'get_client_change_history', body: (id) => ({ client_id: id }) },
  {
    label: 'get_client_change_history filtered',
    method: 'get_client_change_history',
    body: (id) => ({ client_id: id, entity_type: 'setting', limit: 5 }),
  },
  { label: 'get_entity_history client', method: 'get_entity_history', body: (id) => ({ entity_type: 'client', entity_id: id }) },
  // AI Visibility: questions, runs, captures and tracker parts (added by the reports part, so that the guard
  // below covers every client RPC of the area).
  { label: 'generate_aeo_questions', method: 'generate_aeo_questions', body: (id) => ({ client_id: id }) },
  { label: 'add_aeo_query', method: 'add_aeo_query', body: (id) => ({ client_id: id, prompt: 'best plumber in Austin' }) },
  { label: 'get_aeo_queries', method: 'get_aeo_queries', body: (id) => ({ client_id: id }) },
  { label: 'delete_aeo_queries_for_client', method: 'delete_aeo_queries_for_client', body: (id) => ({ client_id: id }) },
  { label: 'dedupe_aeo_queries', method: 'dedupe_aeo_queries', body: (id) => ({ client_id: id }) },
  { label: 'set_aeo_cadence', method: 'set_aeo_cadence', body: (id) => ({ client_id: id, samples_per_month: 4, engines: ['claude'] }) },
  { label: 'get_aeo_cadence', method: 'get_aeo_cadence', body: (id) => ({ client_id: id }) },
  { label: 'cancel_aeo_runs', method: 'cancel_aeo_runs', body: (id) => ({ client_id: id }) },
  { label: 'get_aeo_runs', method: 'get_aeo_runs', body: (id) => ({ client_id: id }) },
  {
    label: 'ingest_aeo_capture',
    method: 'ingest_aeo_capture',
    body: (id) => ({ client_id: id, query_id: 1, engine: 'claude', answer_text: 'Try Acme Plumbing.', citations: [] }),
  },
  { label: 'get_aeo_captures', method: 'get_aeo_captures', body: (id) => ({ client_id: id }) },
  { label: 'get_aeo_capture_records', method: 'get_aeo_capture_records', body: (id) => ({ client_id: id }) },
  { label: 'get_aeo_months', method: 'get_aeo_months', body: (id) => ({ client_id: id }) },
  { label: 'get_aeo_items', method: 'get_aeo_items', body: (id) => ({ client_id: id }) },
  { label: 'get_aeo_item_by_key', method: 'get_aeo_item_by_key', body: (id) => ({ client_id: id, item_key: 'site:pricing:drains' }) },
  { label: 'update_aeo_item_status', method: 'update_aeo_item_status', body: (id) => ({ client_id: id, item_id: 1, status: 'done' }) },
  { label: 'delete_aeo_items_for_client', method: 'delete_aeo_items_for_client', body: (id) => ({ client_id: id }) },
  { label: 'reanalyze_aeo_client', method: 'reanalyze_aeo_client', body: (id) => ({ client_id: id }) },
  // AI Visibility: reports part.
  { label: 'get_aeo_summary', method: 'get_aeo_summary', body: (id) => ({ client_id: id }) },
  { label: 'aeo_report_html', method: 'aeo_report_html', body: (id) => ({ client_id: id, month: '2026-01' }) },
  { label: 'file_aeo_report', method: 'file_aeo_report', body: (id) => ({ client_id: id, month: '2026-01' }) },
  { label: 'get_aeo_reports', method: 'get_aeo_reports', body: (id) => ({ client_id: id }) },
  // Pages and site edits.
  { label: 'get_pages_for_client', method: 'get_pages_for_client', body: (id) => ({ client_id: id }) },
  { label: 'deactivate_pages_not_in_list', method: 'deactivate_pages_not_in_list', body: (id) => ({ client_id: id, active_urls: [] }) },
  {
    label: 'create_site_edit',
    method: 'create_site_edit',
    body: (id) => ({ client_id: id, operation: 'elementor_rewrite', payload: '{"proposed_content":"x"}', page_url: '/about' }),
  },
  { label: 'get_site_edits', method: 'get_site_edits', body: (id) => ({ client_id: id }) },
  { label: 'count_pending_site_edits', method: 'count_pending_site_edits', body: (id) => ({ client_id: id }) },
  // Keywords and ad copy. Set-keyed RPCs check the set and its client together, so a foreign client answers
  // like a missing set, exactly as a missing client does.
  { label: 'get_keywords_for_client', method: 'get_keywords_for_client', body: (id) => ({ client_id: id }) },
  { label: 'list_ad_copy_sets_for_client', method: 'list_ad_copy_sets_for_client', body: (id) => ({ client_id: id }) },
  ...(['get_ad_copy_set', 'list_ad_copy_ad_groups'] as const).map((method) => ({
    label: method,
    method,
    body: (id: number) => ({ client_id: id, set_id: NO_SET }),
    missingDetail: `ad copy set ${NO_SET} not found`,
  })),
  {
    label: 'approve_ad_copy_set',
    method: 'approve_ad_copy_set',
    body: (id) => ({ client_id: id, set_id: NO_SET, approved_by: 'mallory' }),
    missingDetail: `ad copy set ${NO_SET} not found`,
  },
  {
    label: 'reject_ad_copy_set',
    method: 'reject_ad_copy_set',
    body: (id) => ({ client_id: id, set_id: NO_SET, rejected_by: 'mallory' }),
    missingDetail: `ad copy set ${NO_SET} not found`,
  },
  // Search: keyword ↔ page associations, onboarding surveys and the client extras.
  { label: 'get_all_associations_for_client', method: 'get_all_associations_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_keywords_without_pages', method: 'get_keywords_without_pages', body: (id) => ({ client_id: id }) },
  { label: 'get_pages_without_keywords', method: 'get_pages_without_keywords', body: (id) => ({ client_id: id }) },
  { label: 'create_client_survey', method: 'create_client_survey', body: (id) => ({ client_id: id }) },
  { label: 'get_surveys_for_client', method: 'get_surveys_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_client_activity', method: 'get_client_activity', body: (id) => ({ client_id: id, limit: 5 }) },
  { label: 'get_client_deactivated_at', method: 'get_client_deactivated_at', body: (id) => ({ client_id: id }) },
  { label: 'get_agency_name_for_client', method: 'get_agency_name_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_last_audit_at', method: 'get_last_audit_at', body: (id) => ({ client_id: id }) },
  // Search: rank checks.
  { label: 'set_rank_cadence', method: 'set_rank_cadence', body: (id) => ({ client_id: id, frequency: 'daily' }) },
  { label: 'get_rank_cadence', method: 'get_rank_cadence', body: (id) => ({ client_id: id }) },
  { label: 'run_rank_check', method: 'run_rank_check', body: (id) => ({ client_id: id }) },
  { label: 'get_rank_checks', method: 'get_rank_checks', body: (id) => ({ client_id: id }) },
  // Search: ranks.
  { label: 'get_available_rank_dates', method: 'get_available_rank_dates', body: (id) => ({ client_id: id }) },
  {
    label: 'record_keyword_ranks',
    method: 'record_keyword_ranks',
    body: (id) => ({ client_id: id, ranks: [{ keyword_id: 1, device: 'desktop', date: '2026-03-01', position: 3 }] }),
  },
  // Search: keyword metrics.
  { label: 'get_keyword_metrics_for_client', method: 'get_keyword_metrics_for_client', body: (id) => ({ client_id: id }) },
  { label: 'refresh_keyword_metrics', method: 'refresh_keyword_metrics', body: (id) => ({ client_id: id }) },
  // Search: SEO insights and meta optimizations.
  { label: 'get_seo_insights', method: 'get_seo_insights', body: (id) => ({ client_id: id, applied: false }) },
  { label: 'get_unapplied_insights', method: 'get_unapplied_insights', body: (id) => ({ client_id: id }) },
  { label: 'refresh_seo_insights', method: 'refresh_seo_insights', body: (id) => ({ client_id: id }) },
  { label: 'get_meta_optimizations', method: 'get_meta_optimizations', body: (id) => ({ client_id: id, status: 'proposed' }) },
  { label: 'get_meta_optimization_stats', method: 'get_meta_optimization_stats', body: (id) => ({ client_id: id }) },
  { label: 'count_recent_meta_optimizations', method: 'count_recent_meta_optimizations', body: (id) => ({ client_id: id, page_id: 1 }) },
  {
    label: 'propose_meta_optimization',
    method: 'propose_meta_optimization',
    body: (id) => ({ client_id: id, page_id: 1, query: 'roofing' }),
  },
  // Search: page intent.
  { label: 'get_active_pages_with_intent', method: 'get_active_pages_with_intent', body: (id) => ({ client_id: id }) },
  { label: 'classify_page_intents', method: 'classify_page_intents', body: (id) => ({ client_id: id }) },
  // Search: Search Console.
  {
    label: 'set_gsc_property',
    method: 'set_gsc_property',
    body: (id) => ({ client_id: id, property: 'sc-domain:hijacked.example', credentials: GSC_KEY }),
  },
  { label: 'get_gsc_property', method: 'get_gsc_property', body: (id) => ({ client_id: id }) },
  { label: 'remove_gsc_property', method: 'remove_gsc_property', body: (id) => ({ client_id: id }) },
  { label: 'run_gsc_capture', method: 'run_gsc_capture', body: (id) => ({ client_id: id }) },
  { label: 'list_gsc_keyword_captures', method: 'list_gsc_keyword_captures', body: (id) => ({ client_id: id }) },
  { label: 'get_last_gsc_keyword_capture', method: 'get_last_gsc_keyword_capture', body: (id) => ({ client_id: id, before_id: 5 }) },
  {
    label: 'get_gsc_snapshot',
    method: 'get_gsc_snapshot',
    body: (id) => ({ client_id: id, period_start: '2026-10-01', period_end: '2026-10-28', level: 'query' }),
  },
  // Site monitoring: snapshots.
  { label: 'get_available_snapshot_dates', method: 'get_available_snapshot_dates', body: (id) => ({ client_id: id }) },
  { label: 'get_first_snapshot_dates', method: 'get_first_snapshot_dates', body: (id) => ({ client_id: id }) },
  { label: 'get_latest_page_summaries', method: 'get_latest_page_summaries', body: (id) => ({ client_id: id }) },
  {
    label: 'get_latest_meta_for_page_url',
    method: 'get_latest_meta_for_page_url',
    body: (id) => ({ client_id: id, page_url: 'https://example.com/' }),
  },
  // Site monitoring: architecture and entity changes.
  { label: 'get_site_architecture', method: 'get_site_architecture', body: (id) => ({ client_id: id }) },
  { label: 'get_entity_changes', method: 'get_entity_changes', body: (id) => ({ client_id: id, month: '2026-03' }) },
  {
    label: 'get_entity_changes_between',
    method: 'get_entity_changes_between',
    body: (id) => ({ client_id: id, start: '2026-03-01', end: '2026-03-31' }),
  },
  // Site monitoring: site changes.
  { label: 'get_site_changes', method: 'get_site_changes', body: (id) => ({ client_id: id }) },
  { label: 'count_site_changes_by_month', method: 'count_site_changes_by_month', body: (id) => ({ client_id: id }) },
  // Site monitoring: scans, cooldowns and renders (the writes refuse before they append anything).
  { label: 'start_site_scan', method: 'start_site_scan', body: (id) => ({ client_id: id }) },
  { label: 'get_last_scan_session', method: 'get_last_scan_session', body: (id) => ({ client_id: id }) },
  { label: 'list_scan_sessions', method: 'list_scan_sessions', body: (id) => ({ client_id: id }) },
  { label: 'set_scan_cadence', method: 'set_scan_cadence', body: (id) => ({ client_id: id, frequency: 'weekly' }) },
  { label: 'get_scan_cadence', method: 'get_scan_cadence', body: (id) => ({ client_id: id }) },
  { label: 'get_client_cooldown', method: 'get_client_cooldown', body: (id) => ({ client_id: id }) },
  { label: 'is_client_in_cooldown', method: 'is_client_in_cooldown', body: (id) => ({ client_id: id, reason: 'operator' }) },
  {
    label: 'set_client_cooldown',
    method: 'set_client_cooldown',
    body: (id) => ({ client_id: id, reason: 'operator', minutes: 60, note: 'site migration' }),
  },
  { label: 'clear_client_cooldown', method: 'clear_client_cooldown', body: (id) => ({ client_id: id }) },
  { label: 'get_latest_render', method: 'get_latest_render', body: (id) => ({ client_id: id, url: 'https://bravo.example/' }) },
  // Planning: hour budgets (set_hour_budget refuses before it appends anything).
  { label: 'set_hour_budget', method: 'set_hour_budget', body: (id) => ({ client_id: id, hours: 10, from_month: '2026-03' }) },
  { label: 'get_hour_budgets', method: 'get_hour_budgets', body: (id) => ({ client_id: id }) },
  { label: 'get_consecutive_rollover_months', method: 'get_consecutive_rollover_months', body: (id) => ({ client_id: id }) },
  // Planning: action items (the writes refuse before they append anything).
  {
    label: 'add_action_item',
    method: 'add_action_item',
    body: (id) => ({ client_id: id, month: '2026-03', action_type: 'manual', description: 'Planted' }),
  },
  {
    label: 'delete_action_items_for_month',
    method: 'delete_action_items_for_month',
    body: (id) => ({ client_id: id, month: '2026-03' }),
  },
  { label: 'close_action_item_month', method: 'close_action_item_month', body: (id) => ({ client_id: id, month: '2026-03' }) },
  {
    label: 'find_action_item_id',
    method: 'find_action_item_id',
    body: (id) => ({ client_id: id, month: '2026-03', action_type: 'manual' }),
  },
  { label: 'get_action_items', method: 'get_action_items', body: (id) => ({ client_id: id }) },
  { label: 'list_action_item_months_for_client', method: 'list_action_item_months_for_client', body: (id) => ({ client_id: id }) },
  // Planning: client groups (the group is looked up first, so a missing group answers alike for every client).
  { label: 'get_groups_for_client', method: 'get_groups_for_client', body: (id) => ({ client_id: id }) },
  {
    label: 'add_client_to_group',
    method: 'add_client_to_group',
    body: (id) => ({ group_id: NO_SET, client_id: id }),
    missingDetail: `client group ${NO_SET} not found`,
  },
  {
    label: 'remove_client_from_group',
    method: 'remove_client_from_group',
    body: (id) => ({ group_id: NO_SET, client_id: id }),
    missingDetail: `client group ${NO_SET} not found`,
  },
  // Content: reference documents (a client's own documents; the client is checked before anything is appended).
  { label: 'get_org_reference_docs', method: 'get_org_reference_docs', body: (id) => ({ client_id: id }) },
  {
    label: 'add_org_reference_doc',
    method: 'add_org_reference_doc',
    body: (id) => ({ kind: 'brand_voice', title: 'Planted', body: 'x', client_id: id }),
  },
  // Publishing: content pages and the template images report.
  { label: 'create_content_page', method: 'create_content_page', body: (id) => ({ client_id: id, wp_post_id: 481 }) },
  { label: 'list_content_pages', method: 'list_content_pages', body: (id) => ({ client_id: id }) },
  // Content: blog topics and the publishing schedule.
  { label: 'add_blog_topic', method: 'add_blog_topic', body: (id) => ({ client_id: id, title: 'Planted' }) },
  { label: 'get_blog_topics_for_client', method: 'get_blog_topics_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_recent_topic_profile', method: 'get_recent_topic_profile', body: (id) => ({ client_id: id }) },
  {
    label: 'set_blog_schedule',
    method: 'set_blog_schedule',
    body: (id) => ({ client_id: id, posts_per_week: 1, days: ['mon'], time: '08:00', timezone: 'UTC' }),
  },
  { label: 'get_blog_schedule', method: 'get_blog_schedule', body: (id) => ({ client_id: id }) },
  // Content: client images (add_client_image checks the client before it reads or stores the image).
  {
    label: 'add_client_image',
    method: 'add_client_image',
    body: (id) => ({ image: { client_id: id, filename: 'x.png', data_base64: 'AAAA' } }),
  },
  { label: 'get_images_for_client', method: 'get_images_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_image_stats', method: 'get_image_stats', body: (id) => ({ client_id: id }) },
  { label: 'get_image_type_stats', method: 'get_image_type_stats', body: (id) => ({ client_id: id }) },
  { label: 'get_image_sync_states_for_client', method: 'get_image_sync_states_for_client', body: (id) => ({ client_id: id }) },
  {
    label: 'get_last_image_push_timestamp_for_client',
    method: 'get_last_image_push_timestamp_for_client',
    body: (id) => ({ client_id: id }),
  },
  // Publishing: website projects and their content (every one checks the client before it appends anything).
  { label: 'add_website_project', method: 'add_website_project', body: (id) => ({ project: { client_id: id, name: 'Intruder' } }) },
  { label: 'get_projects_for_client', method: 'get_projects_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_all_content_for_client', method: 'get_all_content_for_client', body: (id) => ({ client_id: id }) },
  { label: 'get_unexported_content', method: 'get_unexported_content', body: (id) => ({ client_id: id }) },
  { label: 'count_unpushed_content_for_client', method: 'count_unpushed_content_for_client', body: (id) => ({ client_id: id }) },
  // Publishing: push failures (auto_resolve_push_failures refuses before it appends anything).
  { label: 'get_push_failures', method: 'get_push_failures', body: (id) => ({ client_id: id, include_resolved: true }) },
  { label: 'count_unresolved_push_failures', method: 'count_unresolved_push_failures', body: (id) => ({ client_id: id }) },
  {
    label: 'auto_resolve_push_failures',
    method: 'auto_resolve_push_failures',
    body: (id) => ({ client_id: id, operation: 'apply_site_edit' }),
  },
  { label: 'list_redirects', method: 'list_redirects', body: (id) => ({ client_id: id, applied_only: true }) },
  { label: 'get_template_images_report', method: 'get_template_images_report', body: (id) => ({ client_id: id }) },
  // Planning: compare reports.
  { label: 'create_compare_report', method: 'create_compare_report', body: (id) => ({ client_id: id, month: '2026-03' }) },
  // Publishing: site connections (the writes refuse before they reach a site or append anything).
  {
    label: 'set_client_wordpress',
    method: 'set_client_wordpress',
    body: (id) => ({ client_id: id, base_url: 'https://bravo.example', username: 'u', application_password: 'abcd efgh' }),
  },
  { label: 'check_client_connection', method: 'check_client_connection', body: (id) => ({ client_id: id }) },
  { label: 'get_client_wordpress', method: 'get_client_wordpress', body: (id) => ({ client_id: id }) },
  { label: 'remove_client_wordpress', method: 'remove_client_wordpress', body: (id) => ({ client_id: id }) },
  {
    label: 'set_client_ftp',
    method: 'set_client_ftp',
    body: (id) => ({ client_id: id, host: 'sftp.bravo.example', username: 'u', password: 'p' }),
  },
  { label: 'clear_client_ftp', method: 'clear_client_ftp', body: (id) => ({ client_id: id }) },
  { label: 'get_client_ftp', method: 'get_client_ftp', body: (id) => ({ client_id: id }) },
  { label: 'create_client_ssh_key', method: 'create_client_ssh_key', body: (id) => ({ client_id: id }) },
  { label: 'get_client_ssh_pubkey', method: 'get_client_ssh_pubkey', body: (id) => ({ client_id: id }) },
  { label: 'set_client_webhook', method: 'set_client_webhook', body: (id) => ({ client_id: id, url: 'https://hooks.bravo.example/' }) },
  { label: 'get_client_webhook', method: 'get_client_webhook', body: (id) => ({ client_id: id }) },
  { label: 'get_client_wp_post_ids', method: 'get_client_wp_post_ids', body: (id) => ({ client_id: id }) },
]

/** B's client as B sees it, to prove that nothing A tried changed it. */
async function snapshotOf(ts: TestSystem, key: string, clientId: number) {
  return {
    client: await ts.call('get_client', { client_id: clientId }, key),
    settings: await ts.call('get_all_client_settings', { client_id: clientId }, key),
    services: await ts.call('get_services_for_client', { client_id: clientId }, key),
    locations: await ts.call('get_locations_for_client', { client_id: clientId }, key),
    history: await ts.call('get_client_change_history', { client_id: clientId }, key),
  }
}

t.test("another organization's client answers exactly like a missing one, on every client RPC", async (t) => {
  const w = await world(t)
  const { ts, a, b } = w
  const before = await eventCount(ts)
  const snapshotB = await snapshotOf(ts, b.key, w.clientB)
  const snapshotDeleted = await snapshotOf(ts, b.key, w.deletedB)

  // Guard: every registered RPC that requires a top-level client_id is covered here (get_org_activity's
  // optional client_id is a filter, checked separately below).
  const covered = new Set(CLIENT_CASES.map((c) => c.method))
  // RPCs whose client_id is not an agency client, each with the reason (their scoping is tested where named).
  const notAgencyClient: Record<string, string> = {
    add_org_sso_provider: 'client_id is the OIDC client id at the identity provider (test/http/sso-oidc.test.ts)',
  }
  for (const { definition } of ts.system.registry.all()) {
    if (definition.name in notAgencyClient) continue
    const shape = (definition.params as unknown as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape ?? {}
    const clientId = shape.client_id
    if (clientId && !clientId.safeParse(undefined).success) {
      t.ok(covered.has(definition.name), `${definition.name} requires client_id and is covered`)
    }
  }

  const callers: { label: string; key: string; extra: Record<string, unknown> }[] = [
    { label: 'org A key', key: a.key, extra: {} },
    { label: 'org A key with its own org_id', key: a.key, extra: { org_id: a.orgId } },
    { label: 'platform key acting for A', key: ts.platformKey, extra: { org_id: a.orgId } },
  ]

  for (const c of CLIENT_CASES) {
    for (const caller of callers) {
      const label = `${caller.label}, ${c.label}`
      const missingResponse = await ts.rpc(c.method, { ...c.body(w.missing), ...caller.extra }, caller.key)
      const missing = expectError(t, missingResponse, 404, 'not_found', `${label} on a missing id`)
      t.equal(missing.detail, c.missingDetail ?? `client ${w.missing} not found`, `${label}: detail names the missing record`)
      t.ok(missing.hint, `${label}: carries a hint`)

      for (const [what, foreignId] of [
        ['B live client', w.clientB],
        ['B deleted client', w.deletedB],
      ] as const) {
        const response = await ts.rpc(c.method, { ...c.body(foreignId), ...caller.extra }, caller.key)
        t.equal(response.statusCode, missingResponse.statusCode, `${label} on ${what}: same status as missing`)
        const body = response.json() as Envelope
        t.same(withoutIds(body, [foreignId]), withoutIds(missing, [w.missing]), `${label} on ${what}: same body as missing`)
        t.same(Object.keys(body).sort(), Object.keys(missing).sort(), `${label} on ${what}: same keys`)
        t.equal(response.headers['content-type'], missingResponse.headers['content-type'], `${label} on ${what}: same content type`)
      }
    }
  }

  t.equal(await eventCount(ts), before, 'nothing was appended to the log')
  t.same(await snapshotOf(ts, b.key, w.clientB), snapshotB, "B's client is unchanged")
  t.same(await snapshotOf(ts, b.key, w.deletedB), snapshotDeleted, "B's deleted client is unchanged")
})

t.test('an organization key passing another org_id answers like a missing organization', async (t) => {
  const w = await world(t)
  const { ts, a, b } = w
  const before = await eventCount(ts)
  const missingOrg = b.orgId + 1000
  const cases: [string, Record<string, unknown>][] = [
    ['get_organization', {}],
    ['get_all_clients', {}],
    ['get_deleted_clients', {}],
    ['count_active_clients', {}],
    ['get_all_client_slugs', {}],
    ['get_client_id_by_slug', { slug: 'bravo' }],
    ['get_attention_flags_for_org', {}],
    ['list_api_keys', {}],
    ['get_org_activity', {}],
    ['add_client', clientPayload('Planted')],
    ['create_api_key', { name: 'planted', scopes: 'read' }],
    // Even on A's own client, naming B's organization is refused the same way.
    ['get_client', { client_id: w.clientA }],
    ['set_client_setting', { client_id: w.clientA, key: 'k', value: 'v' }],
    ['get_entity_history', { entity_type: 'client', entity_id: w.clientA }],
    ['get_org_cycle_overview', { month: '2026-03', current_month: '2026-03' }],
    ['list_cycle_tier_a_todo', { month: '2026-03' }],
    ['get_resolved_cycle_pairs', {}],
    ['get_outstanding_summary', {}],
    ['get_all_client_groups', {}],
    ['create_client_group', { name: 'Planted' }],
    ['get_org_reference_docs', {}],
    ['add_org_reference_doc', { kind: 'brand_voice', title: 'Planted', body: 'x' }],
  ]
  for (const [method, body] of cases) {
    const missing = expectError(t, await ts.rpc(method, { ...body, org_id: missingOrg }, a.key), 404, 'not_found', `${method} missing org`)
    const foreign = expectError(t, await ts.rpc(method, { ...body, org_id: b.orgId }, a.key), 404, 'not_found', `${method} B's org`)
    t.same(withoutIds(foreign, [b.orgId]), withoutIds(missing, [missingOrg]), `${method}: B's org answers like a missing one`)
  }
  t.equal(await eventCount(ts), before, 'nothing appended')
})

t.test('other entities of another organization answer like missing ones in get_entity_history', async (t) => {
  const w = await world(t)
  const { ts, a, b } = w
  const pairs: [string, number, number][] = [
    ['organization', b.orgId, b.orgId + 1000],
    ['api_key', b.keyId, b.keyId + 1000],
    ['client', w.clientB, w.missing],
  ]
  for (const [entityType, foreignId, missingId] of pairs) {
    const missing = expectError(
      t,
      await ts.rpc('get_entity_history', { entity_type: entityType, entity_id: missingId }, a.key),
      404,
      'not_found',
    )
    const foreign = expectError(
      t,
      await ts.rpc('get_entity_history', { entity_type: entityType, entity_id: foreignId }, a.key),
      404,
      'not_found',
    )
    t.same(withoutIds(foreign, [foreignId]), withoutIds(missing, [missingId]), `${entityType}: foreign answers like missing`)
  }
  // The platform key's own stream (org_id null) is not an organization's either.
  const platformKeys = await ts.call<{ id: number }[]>('list_api_keys', {})
  const platformKeyId = platformKeys[0]!.id
  const missing = expectError(
    t,
    await ts.rpc('get_entity_history', { entity_type: 'api_key', entity_id: 999_999 }, a.key),
    404,
    'not_found',
  )
  const platform = expectError(
    t,
    await ts.rpc('get_entity_history', { entity_type: 'api_key', entity_id: platformKeyId }, a.key),
    404,
    'not_found',
  )
  t.same(withoutIds(platform, [platformKeyId]), withoutIds(missing, [999_999]), "a platform key's history is hidden from organizations")
})

t.test("organization keys get their organization injected: lists show only the caller's data", async (t) => {
  const w = await world(t)
  const { ts, a, b } = w
  await ts.call('add_client', clientPayload('Alpha Paused', { status: 'paused', slug: 'alpha-paused' }), a.key)
  await ts.call('add_client', clientPayload('Alpha Deleted', { status: 'deleted' }), a.key)

  const all = await ts.call<{ id: number; org_id: number; name: string }[]>('get_all_clients', {}, a.key)
  t.same(
    all.map((c) => c.name),
    ['Alpha', 'Alpha Paused'],
    "A's clients only, deleted excluded",
  )
  t.ok(
    all.every((c) => c.org_id === a.orgId),
    'every client is A',
  )
  const withDeleted = await ts.call<{ org_id: number; name: string }[]>('get_all_clients', { include_deleted: true }, a.key)
  t.same(
    withDeleted.map((c) => c.name),
    ['Alpha', 'Alpha Paused', 'Alpha Deleted'],
  )
  const deleted = await ts.call<{ name: string }[]>('get_deleted_clients', {}, a.key)
  t.same(
    deleted.map((c) => c.name),
    ['Alpha Deleted'],
    "A's deleted clients only",
  )
  t.equal(await ts.call('count_active_clients', {}, a.key), 1)
  t.equal(await ts.call('count_active_clients', {}, b.key), 1)
  t.same(await ts.call('get_all_client_slugs', {}, a.key), [
    { client_id: w.clientA, slug: 'alpha' },
    { client_id: all[1]!.id, slug: 'alpha-paused' },
  ])
  t.same(await ts.call('get_all_client_slugs', {}, b.key), [{ client_id: w.clientB, slug: 'bravo' }])
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'alpha' }, a.key), w.clientA)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'bravo' }, a.key), null, "B's slug is invisible to A (same as unknown)")
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'no-such-slug' }, a.key), null)

  const flags = await ts.call<{ client_id: number; attention_flag: string }[]>('get_attention_flags_for_org', {}, a.key)
  t.same(
    flags.map((f) => [f.client_id, f.attention_flag]),
    [[w.clientA, 'A needs care']],
    "A's attention flags only",
  )

  const keys = await ts.call<{ org_id: number | null; id: number }[]>('list_api_keys', {}, a.key)
  t.same(
    keys.map((k) => k.id),
    [a.keyId],
    "A's keys only",
  )

  const activity = await ts.call<{ stream: string; client_id: number | null }[]>('get_org_activity', {}, a.key)
  t.ok(activity.length > 0, 'A has activity')
  t.notOk(
    activity.some((e) => e.client_id === w.clientB || e.client_id === w.deletedB || e.stream === `organization-${b.orgId}`),
    "no event of B in A's activity",
  )

  // Filtering A's activity by B's client finds nothing, exactly like filtering by a missing client.
  t.same(await ts.call('get_org_activity', { client_id: w.clientB }, a.key), [])
  t.same(await ts.call('get_org_activity', { client_id: w.missing }, a.key), [])

  const org = await ts.call('get_organization', {}, a.key)
  t.equal(org.id, a.orgId)
  t.equal(org.name, 'Org A')
})

t.test('platform keys must name the organization for list methods', async (t) => {
  const w = await world(t)
  const { ts, b } = w
  const before = await eventCount(ts)
  const needOrg: [string, Record<string, unknown>][] = [
    ['get_all_clients', {}],
    ['get_deleted_clients', {}],
    ['count_active_clients', {}],
    ['get_all_client_slugs', {}],
    ['get_client_id_by_slug', { slug: 'bravo' }],
    ['get_attention_flags_for_org', {}],
    ['get_org_activity', {}],
    ['get_organization', {}],
    ['add_client', clientPayload('Orphan')],
    ['list_action_item_months_for_org', {}],
    ['list_action_items_for_org_filtered', {}],
    ['get_compare_reports_for_org', {}],
    ['get_all_client_groups', {}],
    ['create_client_group', { name: 'Orphan' }],
    ['get_ftp_capable_client_ids', {}],
    ['get_org_reference_docs', {}],
    ['add_org_reference_doc', { kind: 'brand_voice', title: 'Orphan', body: 'x' }],
  ]
  for (const [method, body] of needOrg) {
    const envelope = expectError(t, await ts.rpc(method, body), 400, 'org_id_required', method)
    t.match(envelope.hint ?? '', /org_id/, `${method}: hint names org_id`)
  }
  t.equal(await eventCount(ts), before, 'nothing appended')

  // Naming the organization works and shows that organization's data.
  const all = await ts.call<{ id: number }[]>('get_all_clients', { org_id: b.orgId })
  t.same(
    all.map((c) => c.id),
    [w.clientB],
  )
  t.same(
    (await ts.call<{ id: number }[]>('get_deleted_clients', { org_id: b.orgId })).map((c) => c.id),
    [w.deletedB],
  )
  t.equal(await ts.call('count_active_clients', { org_id: b.orgId }), 1)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'bravo', org_id: b.orgId }), w.clientB)
  t.equal((await ts.call('get_organization', { org_id: b.orgId })).name, 'Org B')
  const placed = await ts.call<number>('add_client', { ...clientPayload('Placed'), org_id: b.orgId })
  t.equal(await ts.call('get_client_org_id', { client_id: placed }, b.key), b.orgId, 'the client landed in B')

  // A platform key without org_id lists platform keys, not every organization's keys.
  const platformKeys = await ts.call<{ org_id: number | null }[]>('list_api_keys', {})
  t.ok(platformKeys.length >= 1)
  t.ok(
    platformKeys.every((k) => k.org_id === null),
    'only platform keys',
  )
  const bKeys = await ts.call<{ id: number }[]>('list_api_keys', { org_id: b.orgId })
  t.same(
    bKeys.map((k) => k.id),
    [b.keyId],
  )
})

t.test("platform keys reach any organization's client", async (t) => {
  const w = await world(t)
  const { ts, a, b } = w
  t.equal((await ts.call('get_client', { client_id: w.clientA })).org_id, a.orgId)
  t.equal((await ts.call('get_client', { client_id: w.clientB })).org_id, b.orgId)
  t.equal(await ts.call('get_client_org_id', { client_id: w.clientB }), b.orgId)
  t.same(await ts.call('get_all_client_settings', { client_id: w.clientB }), { attention_flag: 'B needs care', tier: 'gold' })
  await ts.call('set_client_setting', { client_id: w.clientB, key: 'tier', value: 'platinum' })
  t.equal(await ts.call('get_client_setting', { client_id: w.clientB, key: 'tier' }, b.key), 'platinum', 'B sees the platform write')
  await ts.call('update_client', { client_id: w.clientB, name: 'Bravo Renamed', org_id: b.orgId })
  // (The update's own answer is checked in clients.test.ts; here: the write reached B's client.)
  t.equal((await ts.call('get_client', { client_id: w.clientB }, b.key)).name, 'Bravo Renamed', 'with the right org_id too')
  const history = await ts.call<unknown[]>('get_entity_history', { entity_type: 'client', entity_id: w.clientB })
  t.ok(history.length > 0)
  // A platform key missing client answers 404 like everyone else.
  expectError(t, await ts.rpc('get_client', { client_id: w.missing }), 404, 'not_found')
})
