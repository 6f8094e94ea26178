import { DomainError } from '../domain/shared/errors.js'
import { transientCodeOf } from './platform/retry-later.js'

/**
 * The one registry of error codes: status, message and the hint an agent should act on. Handlers throw
 * `ApiError` (or a DomainError carrying one of these codes); one error handler renders the envelope
 * `{error, code, detail?, hint?, request_id}`.
 */
export const ERRORS = {
  invalid_json: {
    status: 400,
    message: 'The request body is not valid JSON',
    hint: 'Send a JSON object with Content-Type: application/json',
  },
  validation_failed: {
    status: 400,
    message: 'The request parameters are invalid',
    hint: 'Fix the fields named in detail; describe_rpc shows every parameter',
  },
  org_id_required: {
    status: 400,
    message: 'org_id is required for this method with a platform key',
    hint: 'Pass org_id in the body; organization keys get it injected',
  },
  invalid_scopes: { status: 400, message: 'Invalid scopes', hint: 'Scopes are a comma-separated subset of read,write,jobs' },
  unauthorized: {
    status: 401,
    message: 'Missing, unknown or revoked credentials',
    hint: 'Send Authorization: Bearer <rrk_ key>; a lost or revoked key cannot be recovered, mint a new one',
  },
  method_not_allowed: {
    status: 403,
    message: 'Unknown or unvetted method',
    hint: 'GET /api/v1/capabilities lists the methods your key may call',
  },
  insufficient_scope: { status: 403, message: 'The key lacks the scope this call needs', hint: 'Use a key with the scope named in detail' },
  platform_only: { status: 403, message: 'Only a platform (partner) key may call this method', hint: 'Ask the platform administrator' },
  forbidden: { status: 403, message: 'Not permitted', hint: undefined },
  metrics_forbidden: {
    status: 403,
    message: 'Metrics are for the operator’s scraper',
    hint: 'Send Authorization: Bearer <METRICS_TOKEN>; without METRICS_TOKEN set, scrape from the same host (loopback, not through a proxy)',
  },
  not_found: { status: 404, message: 'Not found', hint: 'Check the id; records of other organizations are not visible' },
  route_not_found: { status: 404, message: 'No such endpoint', hint: 'RPC calls are POST /api/v1/rpc/<method>' },
  already_exists: { status: 409, message: 'Already exists', hint: undefined },
  client_deleted: { status: 409, message: 'The client is deleted', hint: 'Restore it first with set_client_status(client_id, "active")' },
  slug_taken: { status: 409, message: 'Another client of the organization has this slug', hint: 'Choose another slug' },
  concurrency_conflict: { status: 409, message: 'The record changed concurrently', hint: 'Retry the request after Retry-After seconds' },
  // AI Visibility: runs (cadence, queue, agents, claims)
  aeo_run_not_claimed: {
    status: 409,
    message: 'The run is not claimed',
    hint: 'Only a claimed or running run can be started, completed or failed; claim_aeo_runs gives an agent runs to work on',
  },
  aeo_run_claimed_by_other: {
    status: 409,
    message: 'Another agent holds the claim on this run',
    hint: 'Complete or fail only the runs this agent_id claimed',
  },
  aeo_capture_other_client: {
    status: 409,
    message: "The capture is about another client than the run's",
    hint: "Ingest the answer for the run's client and query (ingest_aeo_capture with run_id), then complete with that capture id",
  },
  // AI Visibility: a capture's run must be about the same question and engine
  aeo_capture_run_mismatch: {
    status: 409,
    message: "The capture's question or engine differs from its run's",
    hint: "Ingest the run's answer with the run's query_id and engine (claim_aeo_runs returns both), or leave run_id out",
  },
  // AI Visibility: questions (domain/aeo/questions)
  aeo_engine_unsupported: {
    status: 400,
    message: 'The engine is not supported',
    hint: 'Use one of claude, openai, gemini, chatgpt-web (chatgpt means chatgpt-web)',
  },
  aeo_no_services: {
    status: 409,
    message: 'The client has no services to build questions from',
    hint: 'Add services first with add_service (and locations with add_location), then call generate_aeo_questions again',
  },
  aeo_question_conflict: {
    status: 409,
    message: 'Another question of the client has this prompt',
    hint: 'Prompts are compared case- and punctuation-insensitively: use the question named in detail, or choose another prompt',
  },
  aeo_question_limit: {
    status: 409,
    message: 'The client has the most questions allowed',
    hint: 'Delete or merge questions first (delete_aeo_query, delete_aeo_queries_for_client, dedupe_aeo_queries)',
  },
  // Site edits and pages (domain/site-edits, domain/pages)
  site_edit_not_applied: {
    status: 409,
    message: 'The site edit was never applied',
    hint: 'Only an applied edit can be rolled back; get_site_edit shows its status, apply_site_edit publishes a proposed one',
  },
  site_edit_already_applied: {
    status: 409,
    message: 'The site edit is already applied',
    hint: 'Nothing to do; rollback_site_edit undoes it',
  },
  site_edit_rolled_back: {
    status: 409,
    message: 'The site edit was rolled back',
    hint: 'A rolled-back edit is final: stage the change again (create_site_edit, or a prompted_edit job) and apply the new edit',
  },
  site_edit_unpublishable: {
    status: 422,
    message: 'The site edit cannot be published as it is',
    hint: "The built-in publisher needs a payload of JSON with proposed_content and a page of the client (page_id in the payload, or the edit's page_url)",
  },
  site_edit_conflict: {
    status: 409,
    message: 'The page changed on the site since the edit was written',
    hint: 'Nothing was written. Someone changed the page on the site after the edit was staged (or, for a rollback, after it was applied); stage the change again (a prompted_edit job reads the live page) and apply the new edit. get_unresolved_push_failures shows the conflict',
  },
  site_publish_failed: {
    status: 502,
    message: 'The site publisher failed',
    hint: 'The attempt is recorded and the edit stays proposed: retry apply_site_edit later',
  },
  page_wp_post_id_taken: {
    status: 409,
    message: 'Another page of the client has this wp_post_id',
    hint: 'get_pages_for_client shows which page has it; a WordPress post is one page',
  },
  // HTTP-level refusals (read-api/platform/protocol-errors.ts): Node's parser or the router refused the request.
  http_malformed: {
    status: 400,
    message: 'The HTTP request is malformed',
    hint: 'Send one well-formed HTTP/1.1 request: a standard method, header names without spaces, valid chunked encoding, and never both Content-Length and Transfer-Encoding',
  },
  headers_too_large: {
    status: 431,
    message: 'The request line and headers are too large',
    hint: 'Keep the URL and headers under 16 KB together; send long parameters in a JSON POST body (RPCs take every parameter there)',
  },
  url_invalid: {
    status: 400,
    message: 'The URL is not valid',
    hint: 'Percent-encode the path as UTF-8, each escape % followed by two hex digits',
  },
  url_too_long: {
    status: 414,
    message: 'A path segment is too long',
    hint: 'Path segments are at most 100 characters: RPC names and ids are short; send long values in the body or the query string',
  },
  request_timeout: { status: 408, message: 'The request was not received in time', hint: 'Send the whole request promptly, then retry' },
  body_too_large: { status: 413, message: 'The request body is too large', hint: 'Keep request bodies under the limit named in detail' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type', hint: 'Send Content-Type: application/json' },
  // AI Visibility: reports part (summary, report, branding, files).
  aeo_month_empty: {
    status: 409,
    message: 'The month has no AI Visibility captures',
    hint: 'get_aeo_months lists the months with captures; file a report for one of them',
  },
  // API platform: table read (GET /api/v1/db/<table>, read-api/routes/db.ts) and the Python SDK (GET /sdk/).
  db_table_not_allowed: {
    status: 404,
    message: 'The table is not readable through /api/v1/db',
    hint: 'GET /api/v1/db lists the readable tables and their columns',
  },
  db_column_unknown: {
    status: 400,
    message: 'The table has no readable column of that name',
    hint: "GET /api/v1/db lists each table's columns",
  },
  db_column_forbidden: {
    status: 403,
    message: 'The column is withheld from table reads',
    hint: 'detail says why and which RPC reads it instead',
  },
  db_filter_invalid: {
    status: 400,
    message: 'A where_ filter value does not fit its column',
    hint: 'Ids and integers are digits, booleans true or false, times ISO 8601 with offset; null matches empty nullable columns',
  },
  db_query_invalid: {
    status: 400,
    message: 'The table read parameters are invalid',
    hint: 'Use where_<column>=<value> (once per column), limit (1 to 500), offset and, with a platform key, org_id',
  },
  sdk_archive_not_found: { status: 404, message: 'No such SDK archive', hint: 'GET /sdk/ lists the archives' },
  // API platform: idempotency and writes switch (read-api/platform/idempotency.ts, writes-switch.ts)
  idempotency_key_invalid: {
    status: 400,
    message: 'The Idempotency-Key header is invalid',
    hint: 'Send 1 to 200 printable ASCII characters, e.g. a UUID, and the same key when retrying the same request',
  },
  idempotency_key_reused: {
    status: 409,
    message: 'The Idempotency-Key was already used with another request',
    hint: 'Use a new key for a new request; a key is bound to the method, path and body it was first sent with for 24 hours',
  },
  idempotency_in_flight: {
    status: 409,
    message: 'The first request with this Idempotency-Key is still running',
    hint: 'Retry the same request after Retry-After seconds to get its answer',
  },
  writes_disabled: {
    status: 503,
    message: 'Writes are switched off by the operator',
    hint: 'Reads keep working; retry the write after Retry-After seconds (GET /api/v1/health shows writes.enabled)',
  },
  // API platform: sandbox (read-api/platform/sandbox.ts)
  sandbox_read_only: {
    status: 403,
    message: 'The public sandbox is read-only',
    hint: 'Use your own key; the sandbox is read-only (every read method works with the sandbox key)',
  },
  sandbox_disabled: {
    status: 401,
    message: 'The public sandbox is not enabled on this service',
    hint: 'The published sandbox key only works where the operator runs the sandbox (SANDBOX_ENABLED=true); use your own key here',
  },
  // API platform: rate limits and usage
  rate_limited: {
    status: 429,
    message: 'Too many requests',
    hint: 'Wait the Retry-After seconds, then retry; X-RateLimit-Remaining and X-RateLimit-Reset show where the key stands in its per-minute window',
  },
  api_key_revoked: {
    status: 409,
    message: 'The API key is revoked',
    hint: 'A revoked key cannot be changed; mint a new key with create_api_key',
  },
  // Jobs (read-api/routes/jobs.ts, domain/jobs): the job API and its one-active-job rule.
  job_already_running: {
    status: 409,
    message: 'A job for the same client, group (bulk_strategist) or organization is still active',
    hint: 'Poll the active job (detail names its status_url) until its status is done, failed or cancelled, then retry; or cancel it with POST /api/v1/jobs/<job_id>/cancel',
  },
  job_already_terminal: {
    status: 409,
    message: 'The job has already finished',
    hint: 'Only a queued or running job can be cancelled; GET /api/v1/jobs/<job_id> shows how it ended',
  },
  job_kind_unavailable: {
    status: 400,
    message: 'This job kind is not available on this service',
    hint: 'GET /api/v1/capabilities lists the job kinds this service runs (job_kinds)',
  },
  // Keywords (domain/keywords)
  keyword_limit: {
    status: 409,
    message: 'The client has the most keywords allowed',
    hint: 'Delete keywords the client no longer tracks (delete_keyword), then add again',
  },
  keyword_no_services: {
    status: 409,
    message: 'The client has no services or AI Visibility questions to build keywords from',
    hint: 'Add services (add_service) and locations (add_location) to the client, then run keyword_generation again',
  },
  // Search: keyword ↔ page associations and onboarding surveys (domain/search/associations, domain/search/surveys)
  association_client_mismatch: {
    status: 400,
    message: 'The keyword and the page belong to different clients',
    hint: "Link a keyword to a page of its own client: get_keywords_for_client and get_pages_for_client list each client's",
  },
  keyword_deleted: {
    status: 409,
    message: 'The keyword is deleted',
    hint: 'add_keyword with the same phrase brings it back (same id); then associate it again',
  },
  page_inactive: {
    status: 409,
    message: 'The page is inactive',
    hint: 'add_page with its URL and active: true makes it active again; then associate it',
  },
  association_limit: {
    status: 409,
    message: 'The keyword is linked to the most pages allowed',
    hint: 'Dissociate pages that no longer serve the keyword (dissociate_keyword_page), then associate again',
  },
  survey_limit: {
    status: 409,
    message: 'The client has the most surveys allowed',
    hint: 'Answer the surveys the client has (get_surveys_for_client lists them) instead of starting new ones',
  },
  survey_answer_invalid: {
    status: 400,
    message: 'A survey answer does not fit its question',
    hint: 'get_survey lists each question with its id, kind, options and limits; detail names the answer refused',
  },
  // Search: Search Console (domain/search/gsc)
  gsc_not_connected: {
    status: 409,
    message: 'The client has no Search Console property',
    hint: 'Connect one first with set_gsc_property(client_id, property, credentials); get_gsc_property shows the connection',
  },
  // Ad copy (domain/ad-copy)
  ad_copy_set_not_proposed: {
    status: 409,
    message: 'Only a proposed ad copy set can be approved or rejected',
    hint: 'Approved and rejected sets are final: list_ad_copy_sets_for_client(client_id, status="proposed") shows the sets awaiting sign-off; an ad_copy job proposes a new one',
  },
  ad_copy_no_services: {
    status: 409,
    message: 'The client has no services to write ad copy for',
    hint: 'Add services first with add_service, then run the ad_copy job again',
  },
  ad_copy_unknown_service: {
    status: 400,
    message: 'The client does not list a requested service',
    hint: 'Use service names from get_services_for_client (case-insensitive), or leave services out for all of them',
  },
  ad_copy_limits: {
    status: 400,
    message: 'The ad copy breaks the Google Ads limits',
    hint: 'Headlines: 3 to 15, each at most 30 characters; descriptions: 2 to 4, each at most 90; at most 100 ad groups per set',
  },
  // Search: rank rows (domain/search/ranks, record_keyword_ranks)
  rank_keyword_unknown: {
    status: 400,
    message: 'A rank names a keyword the client does not track',
    hint: 'Use ids from get_keywords_for_client for this client (add_keyword adds one); detail names the rank refused',
  },
  rank_keyword_deleted: {
    status: 400,
    message: 'A rank names a deleted keyword',
    hint: 'add_keyword with the same phrase brings it back (same id); then record its ranks again',
  },
  rank_location_unknown: {
    status: 400,
    message: 'A rank names a location the client does not have',
    hint: 'Use location ids from get_locations_for_client, or leave location_id out (null) for a national rank',
  },
  rank_page_unknown: {
    status: 400,
    message: 'A rank names a page that is not the client’s',
    hint: 'Use page ids from get_pages_for_client, or leave page_id out to have it matched by the ranking URL',
  },
  // Search: SEO insights and meta optimizations (domain/search/insights)
  seo_insight_resolved: {
    status: 409,
    message: 'The insight no longer holds',
    hint: 'A resolved insight is final; get_seo_insights (or refresh_seo_insights) shows the insights that hold now',
  },
  meta_optimization_open: {
    status: 409,
    message: 'The page already has an open meta optimization',
    hint: 'Apply (apply_meta_optimization) or reject (reject_meta_optimization) the one named in detail, then propose again',
  },
  meta_optimization_not_open: {
    status: 409,
    message: 'Only a proposed or staged meta optimization can be staged or rejected',
    hint: 'get_meta_optimization shows its status; an applied rewrite is undone with rollback_site_edit of its edit_id',
  },
  // MCP server (read-api/mcp/)
  mcp_post_only: {
    status: 405,
    message: 'The MCP endpoint answers POST only',
    hint: 'POST JSON-RPC 2.0 messages to /api/v1/mcp: this stateless server has no event stream to GET and no session to DELETE',
  },
  // Webhooks (domain/webhooks, read-api/rpc/webhooks.ts, read-api/routes/events.ts)
  webhook_url_refused: {
    status: 400,
    message: 'The webhook URL is not allowed',
    hint: 'Use an https URL on a public host name that resolves to public addresses (http only for localhost); detail names the rule it broke',
  },
  webhook_event_unknown: {
    status: 400,
    message: 'Unknown webhook event',
    hint: 'Use event names from GET /api/v1/capabilities (webhook_events), or leave events out to receive every event',
  },
  events_cursor_invalid: {
    status: 400,
    message: 'The events cursor is not valid',
    hint: 'Pass back the next_cursor of a previous GET /api/v1/events answer unchanged, or leave after out to start from the oldest event',
  },
  // People and sign-in (domain/people, read-api/people)
  email_taken: {
    status: 409,
    message: 'A user with this email already exists',
    hint: 'An address is one member per organization: list_org_members shows yours, and a removed member can be invited again. On an invite page: the address already signs in to an account, so sign in with it',
  },
  password_too_weak: { status: 400, message: 'The password does not meet the rule', hint: 'Use at least 12 and at most 200 characters' },
  invite_invalid: {
    status: 404,
    message: 'The invite link is unknown, used or expired',
    hint: 'Ask an owner for a new invite (invite_org_member after remove_org_member)',
  },
  totp_code_wrong: {
    status: 400,
    message: 'The authenticator code does not match',
    hint: 'Type the 6 digits your authenticator app shows now',
  },
  password_reset_invalid: {
    status: 400,
    message: 'The password reset link is unknown, used or expired',
    hint: 'Request a new link at /password-reset; a link works once, for 30 minutes',
  },
  last_owner: {
    status: 409,
    message: "The organization's last owner cannot be demoted or removed",
    hint: 'Make another member an owner first (update_org_member_role), then change or remove this one',
  },
  sign_in_failed: {
    status: 401,
    message: 'Sign-in failed',
    hint: 'Check the email, password and code; after 5 failed attempts in 15 minutes an account is locked for 15 minutes',
  },
  // Single sign-on (domain/sso, read-api/sso, read-api/rpc/sso.ts)
  sso_issuer_invalid: {
    status: 400,
    message: 'The identity provider issuer could not be used',
    hint: 'detail names what failed: the address policy, fetching {issuer}/.well-known/openid-configuration, the issuer it names, or an endpoint sign-in needs (authorization, token, JWKS; code flow with PKCE S256)',
  },
  saml_metadata_invalid: {
    status: 400,
    message: 'The SAML metadata could not be used',
    hint: 'detail names what is missing: one EntityDescriptor with an IDPSSODescriptor, its entityID, a SingleSignOnService with the HTTP-Redirect binding, a signing X509Certificate',
  },
  saml_certificate_invalid: {
    status: 400,
    message: 'The SAML certificate could not be read',
    hint: "Paste the IdP's signing certificate as PEM (-----BEGIN CERTIFICATE-----) or the base64 of its X509Certificate element",
  },
  saml_provider_incomplete: {
    status: 400,
    message: 'The SAML provider needs an entity id, an SSO URL and a certificate',
    hint: 'Give metadata_xml, or idp_entity_id, sso_url and certificate; detail names what is missing',
  },
  // Site monitoring: render scans (processors/monitoring/renders)
  render_unavailable: {
    status: 503,
    message: 'Render scans need headless Chromium, which this service does not have',
    hint: 'The operator sets CHROMIUM_PATH to a Chromium binary; a crawl scan (scan_type crawl) needs no Chromium',
  },
  // Site monitoring: cooldowns (domain/monitoring/cooldowns)
  client_in_cooldown: {
    status: 409,
    message: 'The client is in cooldown',
    hint: 'Wait until the time in detail, or end it with clear_client_cooldown(client_id, reason)',
  },
  invalid_cooldown: {
    status: 400,
    message: 'The cooldown is not valid',
    hint: 'Give until (in the future, at most 30 days ahead) or minutes (1 to 43200), not both',
  },
  // Site monitoring: scans (domain/monitoring/scans)
  scan_session_closed: {
    status: 409,
    message: 'The scan session is closed',
    hint: 'get_scan_session shows how it ended; start_site_scan opens a new one',
  },
  // Planning: client groups (domain/planning/groups)
  client_group_name_taken: {
    status: 409,
    message: 'Another client group of the organization has this name',
    hint: 'Choose another name, or rename or delete the group named in detail (get_all_client_groups lists them)',
  },
  client_group_deleted: {
    status: 409,
    message: 'The client group is deleted',
    hint: 'A deleted group takes no members or jobs; create_client_group makes a new one',
  },
  client_group_empty: {
    status: 409,
    message: 'The client group has no active client',
    hint: 'add_client_to_group an active client first (get_clients_in_group shows each member with an active flag)',
  },
  // Planning: action items (domain/planning/action-items)
  action_item_month_closed: {
    status: 409,
    message: 'The month is closed',
    hint: 'Its unfinished items moved to the next month (get_action_items with that month); add the item there, or without a month',
  },
  // Publishing: website projects, sitemap pages, generated content, Elementor pages (domain/publishing/projects)
  website_project_archived: {
    status: 409,
    message: 'The website project is archived',
    hint: 'set_website_project_status(project_id, "planning") takes it up again; an archived project is read-only',
  },
  website_project_status_invalid: {
    status: 409,
    message: 'The website project cannot move to that status from its current one',
    hint: 'A project moves one stage at a time (planning, building, review, live), or to archived; detail names the allowed moves',
  },
  sitemap_page_slug_taken: {
    status: 409,
    message: 'Another page of the project has this slug',
    hint: 'Choose another slug, or update the page named in detail (get_sitemap_pages_for_project lists them)',
  },
  sitemap_page_parent_invalid: {
    status: 409,
    message: 'The parent cannot hold this page',
    hint: 'A parent is another live page of the same project, and a page cannot sit under itself or its own descendants',
  },
  sitemap_page_has_children: {
    status: 409,
    message: 'The page has child pages',
    hint: 'Move or delete its children first, or pass with_children: true to delete them with it',
  },
  sitemap_page_status_invalid: {
    status: 409,
    message: 'The page cannot move to that status from its current one',
    hint: 'A page moves planned → drafting → drafted → approved → published (one step back allowed); detail names the allowed moves',
  },
  sitemap_page_deleted: {
    status: 409,
    message: 'The sitemap page is deleted',
    hint: 'A deleted page takes no changes or content; add_sitemap_page makes a new one',
  },
  sitemap_page_limit: {
    status: 409,
    message: 'The project has as many sitemap pages as it may',
    hint: 'Delete pages the project no longer plans (delete_sitemap_page), or split the site into projects',
  },
  // Content: reference documents (domain/content/reference-docs)
  reference_doc_title_taken: {
    status: 409,
    message: 'Another reference document of the same scope has this title',
    hint: 'Choose another title, or update the document named in detail (get_org_reference_docs lists them)',
  },
  reference_doc_limit: {
    status: 409,
    message: 'The organization has as many reference documents as it may',
    hint: 'Delete documents no writer needs (delete_org_reference_doc), or merge several into one',
  },
  // Publishing: content pages (domain/publishing/content-pages)
  content_page_exists: {
    status: 409,
    message: 'The client already has a content page for this WordPress post',
    hint: 'update_content_page changes the page named in detail (list_content_pages lists them)',
  },
  content_page_status_invalid: {
    status: 409,
    message: 'The content page cannot move to this status',
    hint: 'detail names the statuses it may move to (domain/publishing/content-pages/README.md shows the table)',
  },
  content_page_verify_json_invalid: {
    status: 400,
    message: 'verify_json is not a valid verification',
    hint: 'Send a JSON object of at most 64 KiB, e.g. {"checks": [{"name": "http_200", "passed": true}]}, or an empty string',
  },
  // Publishing: site connections (domain/publishing/connections)
  site_check_failed: {
    status: 422,
    message: 'The WordPress site did not pass the connection check',
    hint: 'detail names the category: auth (create a new application password under Users → Profile; check the username), not_found (the REST API at <base_url>/wp-json/ is off or the address is wrong), invalid_response (the site answered HTML: a maintenance or security page), timeout/network/server_error (the site is down: try again, or pass save_unverified: true)',
  },
  site_url_refused: {
    status: 400,
    message: 'The site address is not allowed',
    hint: 'Use the public https address of the site; an address that is or resolves to a private, loopback or link-local address is refused (the operator may allow hosts with SITE_ALLOWED_HOSTS)',
  },
  site_not_connected: {
    status: 409,
    message: 'The client has no WordPress connection',
    hint: 'Connect it first with set_client_wordpress(client_id, base_url, username, application_password)',
  },
  site_credentials_unreadable: {
    status: 409,
    message: 'The stored site credentials cannot be opened with this service key',
    hint: 'The service key changed since they were stored: set them again (set_client_wordpress, set_client_ftp, create_client_ssh_key with rotate)',
  },
  // Content: client images (domain/content/images)
  image_too_large: {
    status: 413,
    message: 'The image is too large',
    hint: 'Send an image of at most 20 MiB (source_url), or under the request body limit as data_base64; detail names the size',
  },
  image_not_supported: {
    status: 415,
    message: 'The file is not a supported image',
    hint: 'Send a JPEG, PNG, GIF, WebP or AVIF image; SVG is refused (it can carry script): convert it to PNG or WebP. detail says what the file is',
  },
  image_too_many_pixels: {
    status: 422,
    message: 'The image has too many pixels',
    hint: 'Scale it down to at most 50 megapixels (width × height × frames) and send it again',
  },
  image_source_refused: {
    status: 400,
    message: 'The image address is not allowed',
    hint: 'Use a public http(s) address; private, loopback and link-local addresses are refused unless the operator allows them with SITE_ALLOWED_HOSTS',
  },
  image_fetch_failed: {
    status: 502,
    message: 'The image could not be fetched',
    hint: 'detail says why (the HTTP status, a timeout, a connection failure); check source_url opens in a browser, or send the image as data_base64',
  },
  // Publishing: section templates, template catalog, template pages (domain/publishing/templates)
  section_template_invalid: {
    status: 400,
    message: 'The section template is not valid',
    hint: 'elementor_json must parse and use each field as a {{key}} placeholder, and no other placeholder; detail names what differs',
  },
  section_template_name_taken: {
    status: 409,
    message: 'Another active section template of the category has this name',
    hint: 'Choose another name, or update the template named in detail (get_section_templates lists them)',
  },
  section_template_retired: {
    status: 409,
    message: 'The section template is retired',
    hint: 'A retired template takes no change and no new page; add_section_template makes a new one',
  },
  template_page_fields_invalid: {
    status: 400,
    message: "A section's filled fields do not fit its template",
    hint: 'get_section_template shows each field: its key, kind (text, image, link) and max_length',
  },
  template_page_images_invalid: {
    status: 400,
    message: 'The images do not fit together',
    hint: 'Each slot once; an image without a url is needed, one with a url is chosen, uploaded or failed',
  },
  template_page_status_invalid: {
    status: 409,
    message: 'The template page cannot move to this status',
    hint: 'An archived page moves back to draft first',
  },
  template_page_sitemap_page_taken: {
    status: 409,
    message: 'Another template page of the project is built for this sitemap page',
    hint: 'update_template_page changes the page named in detail',
  },
  template_page_library_missing: {
    status: 409,
    message: 'The project has no library client',
    hint: "Set the project's library_client_id (update_website_project) before using catalog templates",
  },
  // Content: blog topics and the publishing schedule (domain/content/blog)
  blog_topic_exists: {
    status: 409,
    message: 'The client already has a blog topic with this title',
    hint: 'Titles are compared case- and punctuation-insensitively: update or re-open the topic named in detail (set_blog_topic_status to proposed), or choose another title',
  },
  blog_topic_status_invalid: {
    status: 409,
    message: 'The blog topic cannot move to this status',
    hint: 'detail names the statuses it may move to; get_blog_topic shows where it is',
  },
  blog_topic_planned_date_required: {
    status: 400,
    message: 'A scheduled blog topic needs a planned date',
    hint: "Give planned_date (YYYY-MM-DD, the local date in the client's schedule time zone) with the move to scheduled",
  },
  blog_topic_not_deletable: {
    status: 409,
    message: 'The blog topic has been written and cannot be deleted',
    hint: 'Only proposed, approved and rejected topics can be deleted; reject it instead (set_blog_topic_status to rejected)',
  },
  blog_topic_limit: {
    status: 409,
    message: 'The client has the most blog topics allowed',
    hint: 'Delete topics that will not be written (delete_blog_topic), then add again',
  },
  internal_error: { status: 500, message: 'Internal error', hint: 'Retry later; report the X-Request-Id if it persists' },
  service_unavailable: { status: 503, message: 'The service is not ready', hint: 'Retry after a moment' },
  store_unavailable: {
    status: 503,
    message: 'The database is unavailable',
    hint: 'Retry after Retry-After seconds; the service reconnects by itself (GET /api/v1/health answers 200 again when it has)',
  },
} as const satisfies Record<string, { status: number; message: string; hint: string | undefined }>

export type ErrorCode = keyof typeof ERRORS

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly detail: string | undefined
  readonly hint: string | undefined

  constructor(code: ErrorCode, detail?: string, hint?: string) {
    super(ERRORS[code].message)
    this.name = 'ApiError'
    this.code = code
    this.status = ERRORS[code].status
    this.detail = detail
    this.hint = hint ?? ERRORS[code].hint
  }
}

export interface ErrorEnvelope {
  error: string
  code: string
  detail?: string
  hint?: string
  /** The request's id, as in its X-Request-Id header: what a caller quotes when reporting the error. */
  request_id: string
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code)
}

/** Maps anything thrown to an ApiError; unknown errors become internal_error (and are logged by the caller). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof DomainError) {
    if (isErrorCode(error.code)) return new ApiError(error.code, error.detail ?? error.message, error.hint)
    // A rule the registry has no code for yet is still the caller's mistake, not ours.
    const mapped = new ApiError('validation_failed', `${error.code}: ${error.message}${error.detail ? ` (${error.detail})` : ''}`)
    return mapped
  }
  // A lost race or an unreachable database: the caller may retry (the error handler adds Retry-After).
  const transient = transientCodeOf(error)
  if (transient) return new ApiError(transient)
  return new ApiError('internal_error')
}

/** The body of every refusal: `{error, code, detail?, hint?, request_id}` (request_id last, as it is least read). */
export function envelope(error: ApiError, requestId: string): ErrorEnvelope {
  return {
    error: error.message,
    code: error.code,
    ...(error.detail !== undefined ? { detail: error.detail } : {}),
    ...(error.hint !== undefined ? { hint: error.hint } : {}),
    request_id: requestId,
  }
}
