/**
 * The allow-list of GET /api/v1/db/<table>: which read-model tables an integrator may read directly, which
 * of their columns are returned and filterable, and how each table is confined to the caller's organization.
 *
 * Deny by default, like the RPC registry: a table or column not listed here cannot be read. Columns that exist
 * but are withheld (key hashes, large raw payloads, internal bookkeeping) are listed as such so the caller
 * gets a 403 that says why instead of a "no such column". The DDL is in migrations/read-models/; when a
 * read-model column is added it stays invisible here until someone decides it belongs to the public surface.
 */

/** How a column's filter value (always a query-string text) is parsed before it reaches SQL. */
export type ColumnType = 'id' | 'int' | 'text' | 'bool' | 'timestamp' | 'uuid' | 'text[]' | 'json'

export interface ColumnSpec {
  readonly type: ColumnType
  /** The literal filter value `null` matches SQL NULL (only for nullable columns). */
  readonly nullable?: boolean
}

/**
 * How rows are confined to an organization: by a column holding the org id (`org_id`, or `id` for the
 * organizations table), or, for a table without one, through the client the row belongs to.
 */
export type OrgScope = { readonly kind: 'column'; readonly column: string } | { readonly kind: 'client'; readonly column: string }

export interface TableSpec {
  readonly description: string
  readonly columns: Readonly<Record<string, ColumnSpec>>
  /** Columns that exist but are never returned nor filterable, with the reason given to the caller. */
  readonly withheld: Readonly<Record<string, string>>
  /** The primary key: the stable order of the rows (ascending), so offsets page without gaps or repeats. */
  readonly orderBy: readonly string[]
  readonly scope: OrgScope
}

/** Types that can be compared for equality from a query-string value (arrays and JSON cannot). */
export const FILTERABLE: ReadonlySet<ColumnType> = new Set(['id', 'int', 'text', 'bool', 'timestamp', 'uuid'])

const byOrg: OrgScope = { kind: 'column', column: 'org_id' }

export const DB_TABLES: Readonly<Record<string, TableSpec>> = {
  organizations: {
    description: 'The organization itself (organization keys see their own row) with its white-label branding.',
    columns: {
      id: { type: 'id' },
      name: { type: 'text' },
      brand_name: { type: 'text', nullable: true },
      logo_url: { type: 'text', nullable: true },
      accent_color: { type: 'text', nullable: true },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['id'],
    scope: { kind: 'column', column: 'id' },
  },
  api_keys: {
    description: "The organization's API keys: name, scopes, the last characters (key_hint) and revocation; never the key.",
    columns: {
      id: { type: 'id' },
      org_id: { type: 'id', nullable: true },
      name: { type: 'text' },
      notes: { type: 'text' },
      scopes: { type: 'text' },
      key_hint: { type: 'text' },
      created_by_user_id: { type: 'id', nullable: true },
      created_at: { type: 'timestamp' },
      revoked_at: { type: 'timestamp', nullable: true },
      rate_limit_per_minute: { type: 'int', nullable: true },
    },
    withheld: { key_hash: 'a credential digest is never readable' },
    orderBy: ['id'],
    scope: byOrg,
  },
  org_activity: {
    description: "The organization's activity feed: one row per event (type, stream, client, actor, time).",
    columns: {
      event_id: { type: 'uuid' },
      org_id: { type: 'id' },
      stream: { type: 'text' },
      event_type: { type: 'text' },
      client_id: { type: 'id', nullable: true },
      actor_kind: { type: 'text' },
      actor_id: { type: 'text', nullable: true },
      occurred_at: { type: 'timestamp' },
      stream_revision: { type: 'int' },
    },
    withheld: { position: 'event-store positions are internal; get_org_activity pages by time' },
    orderBy: ['event_id'],
    scope: byOrg,
  },
  clients: {
    description: 'Clients (tracked websites) with their status and status times.',
    columns: {
      id: { type: 'id' },
      org_id: { type: 'id' },
      name: { type: 'text' },
      website_url: { type: 'text' },
      slug: { type: 'text' },
      status: { type: 'text' },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
      deactivated_at: { type: 'timestamp', nullable: true },
      deleted_at: { type: 'timestamp', nullable: true },
    },
    withheld: {},
    orderBy: ['id'],
    scope: byOrg,
  },
  client_services: {
    description: "Clients' services.",
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      name: { type: 'text' },
      description: { type: 'text' },
      created_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['id'],
    scope: byOrg,
  },
  client_locations: {
    description: "Clients' locations; removed ones carry removed_at (filter where_removed_at=null for the current ones).",
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      name: { type: 'text' },
      city: { type: 'text' },
      state: { type: 'text' },
      country: { type: 'text' },
      created_at: { type: 'timestamp' },
      removed_at: { type: 'timestamp', nullable: true },
    },
    withheld: {},
    orderBy: ['id'],
    scope: byOrg,
  },
  client_settings: {
    description: "Clients' settings (text key and value).",
    columns: {
      client_id: { type: 'id' },
      key: { type: 'text' },
      org_id: { type: 'id' },
      value: { type: 'text' },
      updated_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['client_id', 'key'],
    scope: byOrg,
  },
  aeo_queries: {
    description: 'AI Visibility questions (prompts) per client and engine.',
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      prompt: { type: 'text' },
      engine: { type: 'text' },
      service: { type: 'text' },
      location: { type: 'text' },
      kind: { type: 'text' },
      priority: { type: 'int' },
      active: { type: 'bool' },
      source: { type: 'text' },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
    },
    withheld: { prompt_key: 'the normalized de-duplication key is internal; filter on prompt' },
    orderBy: ['id'],
    scope: byOrg,
  },
  aeo_cadences: {
    description: 'AI Visibility enrolment per client: samples per month, engines, geography.',
    columns: {
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      enabled: { type: 'bool' },
      samples_per_month: { type: 'int' },
      engines: { type: 'text[]' },
      geo_state: { type: 'text', nullable: true },
      updated_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['client_id'],
    scope: byOrg,
  },
  aeo_runs: {
    description: 'The AI Visibility run queue: one row per question × engine × sample, with its status.',
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      query_id: { type: 'id' },
      engine: { type: 'text' },
      month: { type: 'text' },
      geo_state: { type: 'text', nullable: true },
      priority: { type: 'int' },
      sample: { type: 'int' },
      status: { type: 'text' },
      agent_id: { type: 'text', nullable: true },
      attempts: { type: 'int' },
      error: { type: 'text', nullable: true },
      capture_id: { type: 'id', nullable: true },
      queued_at: { type: 'timestamp' },
      claimed_at: { type: 'timestamp', nullable: true },
      finished_at: { type: 'timestamp', nullable: true },
      updated_at: { type: 'timestamp' },
    },
    withheld: {
      revision: 'claim bookkeeping is internal',
      lease_expires_at: 'claim bookkeeping is internal',
      agent_org_id: 'claim bookkeeping is internal',
    },
    orderBy: ['id'],
    scope: byOrg,
  },
  aeo_captures: {
    description:
      'AI Visibility captures (one engine answer each): engine, month, model, citations; the answer and analysis via get_aeo_capture.',
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      query_id: { type: 'id' },
      engine: { type: 'text' },
      month: { type: 'text' },
      run_id: { type: 'id', nullable: true },
      citations: { type: 'json' },
      model: { type: 'text' },
      surface: { type: 'text' },
      searched: { type: 'bool', nullable: true },
      analysis_version: { type: 'int' },
      captured_at: { type: 'timestamp' },
    },
    withheld: {
      answer_text: 'answers are large: read one with get_aeo_capture',
      retrieved: 'answers are large: read one with get_aeo_capture',
      report_json: 'the analysis is large: read one with get_aeo_capture',
      record_bytes: 'raw capture records are internal (get_aeo_capture_records)',
      record_pruned_at: 'raw capture records are internal (get_aeo_capture_records)',
    },
    orderBy: ['id'],
    scope: byOrg,
  },
  aeo_items: {
    description: 'AI Visibility tracker items (findings to act on) with tier and status.',
    columns: {
      id: { type: 'id' },
      client_id: { type: 'id' },
      org_id: { type: 'id' },
      item_key: { type: 'text' },
      tier: { type: 'text' },
      title: { type: 'text' },
      status: { type: 'text' },
      evidence: { type: 'text' },
      note: { type: 'text', nullable: true },
      first_month: { type: 'text' },
      last_month: { type: 'text' },
      created_at: { type: 'timestamp' },
      updated_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['id'],
    scope: byOrg,
  },
  aeo_item_hits: {
    description: 'Which captures raised which tracker item (no org_id column: scoped through the client).',
    columns: {
      item_id: { type: 'id' },
      capture_id: { type: 'id' },
      client_id: { type: 'id' },
      query_id: { type: 'id' },
      engine: { type: 'text' },
      month: { type: 'text' },
    },
    withheld: {},
    orderBy: ['item_id', 'capture_id'],
    scope: { kind: 'client', column: 'client_id' },
  },
  aeo_reports: {
    description: 'Filed AI Visibility reports: one row per file (download from /api/v1/files/<path>).',
    columns: {
      client_id: { type: 'id' },
      month: { type: 'text' },
      org_id: { type: 'id' },
      path: { type: 'text' },
      content_type: { type: 'text' },
      bytes: { type: 'int' },
      sha256: { type: 'text' },
      filed_at: { type: 'timestamp' },
    },
    withheld: {},
    orderBy: ['client_id', 'month', 'path'],
    scope: byOrg,
  },
  org_members: {
    description:
      "The organization's members: email, role, status (invited or active) and sign-in times. Credentials are never projected here; invite, session and reset token digests live in tables that are not readable.",
    columns: {
      user_id: { type: 'id' },
      org_id: { type: 'id' },
      email: { type: 'text' },
      role: { type: 'text' },
      status: { type: 'text' },
      invited_at: { type: 'timestamp' },
      joined_at: { type: 'timestamp', nullable: true },
      last_sign_in_at: { type: 'timestamp', nullable: true },
      locked_until: { type: 'timestamp', nullable: true },
    },
    withheld: {},
    orderBy: ['user_id'],
    scope: byOrg,
  },
}

/** Rows per page when limit is not given, and the most a caller may ask for. */
export const DB_DEFAULT_LIMIT = 100
export const DB_MAX_LIMIT = 500

/** The allow-listed table of that name, or undefined (own keys only: "__proto__" is not a table). */
export function tableSpec(name: string): TableSpec | undefined {
  return Object.hasOwn(DB_TABLES, name) ? DB_TABLES[name] : undefined
}
