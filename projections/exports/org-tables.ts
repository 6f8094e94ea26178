import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'
import { isSecretField } from '../../domain/exports/secret-columns.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { CLIENT_TABLES } from '../sandbox/projector.js'

/**
 * Which read-model tables hold an organization's rows, and how to walk them. Discovered from the catalog
 * of the read-model schema, so a table a new area adds is exported without anyone remembering to
 * list it, and a table none of the rules below reach is reported (`unreached`, and a test fails on it):
 *
 * - `organizations`: the row whose id is the organization.
 * - a table with an `org_id` column: its rows with that org_id (api_keys of platform keys have none).
 * - `aeo_agents`: the organization's own agents (agent_org_id; platform agents belong to no organization).
 * - `oauth_clients`: the apps the organization's grants name (`id in (select client_id from oauth_grants
 *   where org_id = …)`); an app registration belongs to no organization, but the grants are unreadable
 *   without the app's name.
 * - an agency-client table (the sandbox reset's CLIENT_TABLES, which a guard test keeps complete) with no
 *   org_id: the rows of the organization's clients (`client_id in (select id from clients where org_id =
 *   …)`, aeo_item_hits today). Only those: a `client_id` column elsewhere may mean something else (an OAuth
 *   app in oauth_grants), and joining it to agency clients would copy another organization's rows.
 */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  projection_checkpoint: "the projection runner's bookkeeping; its position is the manifest's `position`",
  oauth_access_tokens: 'nothing but digests of live access tokens (a credential) and their expiry',
  section_templates:
    "the platform's catalog of page sections, shared by every organization (get_section_templates reads it); a template page names the section templates it uses by id",
}

export interface OrgTable {
  readonly name: string
  /** The columns exported, in table order (secret columns removed). */
  readonly columns: readonly string[]
  /** The columns left out by the secret deny-list (domain/exports/secret-columns.ts). */
  readonly excluded: readonly string[]
  /** How the organization's rows are selected (for the manifest). */
  readonly scope: string
  /** The primary key columns: the order rows are written in. */
  readonly orderBy: readonly string[]
}

export interface TableCatalog {
  readonly tables: readonly OrgTable[]
  /** Tables with no rule that reaches an organization's rows (and not in NOT_EXPORTED). */
  readonly unreached: readonly string[]
}

/** The read-model tables of `schema` that can hold an organization's rows, by name. */
export async function orgTableCatalog(db: Kysely<WorkTables>, schema: string): Promise<TableCatalog> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = ${schema} and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db)
  const { rows: keys } = await sql<{ table_name: string; column_name: string }>`
    select tc.relname as table_name, a.attname as column_name
    from pg_index i
    join pg_class tc on tc.oid = i.indrelid
    join pg_namespace n on n.oid = tc.relnamespace
    join pg_attribute a on a.attrelid = tc.oid and a.attnum = any(i.indkey)
    where n.nspname = ${schema} and i.indisprimary
    order by tc.relname, array_position(i.indkey::int2[], a.attnum)`.execute(db)
  const byTable = new Map<string, string[]>()
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name])
  const tables: OrgTable[] = []
  const unreached: string[] = []
  for (const [name, all] of [...byTable.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (Object.hasOwn(NOT_EXPORTED, name)) continue
    const scope = scopeOf(name, all)
    if (scope === null) {
      unreached.push(name)
      continue
    }
    const excluded = all.filter((column) => isSecretField(name, column))
    const pk = keys.filter((k) => k.table_name === name).map((k) => k.column_name)
    tables.push({ name, columns: all.filter((c) => !excluded.includes(c)), excluded, scope, orderBy: pk.length > 0 ? pk : all })
  }
  return { tables, unreached }
}

function scopeOf(table: string, columns: readonly string[]): string | null {
  if (table === 'organizations') return 'id = org_id'
  if (columns.includes('org_id')) return 'org_id'
  if (table === 'aeo_agents' && columns.includes('agent_org_id')) return 'agent_org_id'
  if (table === 'oauth_clients' && columns.includes('id')) return "apps of the organization's oauth_grants"
  if ((CLIENT_TABLES as readonly string[]).includes(table) && columns.includes('client_id'))
    return "client_id of the organization's clients"
  return null
}

function whereOf(schema: string, table: OrgTable, orgId: number): RawBuilder<unknown> {
  switch (table.scope) {
    case 'id = org_id':
      return sql`id = ${orgId}`
    case 'org_id':
      return sql`org_id = ${orgId}`
    case 'agent_org_id':
      return sql`agent_org_id = ${orgId}`
    case "apps of the organization's oauth_grants":
      return sql`id in (select client_id from ${sql.id(schema, 'oauth_grants')} where org_id = ${orgId})`
    default:
      return sql`client_id in (select id from ${sql.id(schema, 'clients')} where org_id = ${orgId})`
  }
}

/**
 * The organization's rows of one table, page by page through a server-side cursor in the caller's
 * transaction (so memory holds one page whatever the table's size, and every table is read from the same
 * snapshot when the transaction is REPEATABLE READ). Rows come in primary-key order.
 */
export async function* orgRowPages(
  trx: Transaction<WorkTables>,
  schema: string,
  table: OrgTable,
  orgId: number,
  pageSize: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const cursor = sql.id(`export_${table.name}`.slice(0, 60))
  const columns = sql.join(table.columns.map((c) => sql.id(c)))
  const order = sql.join(table.orderBy.map((c) => sql.id(c)))
  await sql`declare ${cursor} no scroll cursor for select ${columns} from ${sql.id(schema, table.name)} where ${whereOf(schema, table, orgId)} order by ${order}`.execute(
    trx,
  )
  try {
    for (;;) {
      const { rows } = await sql<Record<string, unknown>>`fetch forward ${sql.raw(String(pageSize))} from ${cursor}`.execute(trx)
      if (rows.length > 0) yield rows
      if (rows.length < pageSize) return
    }
  } finally {
    await sql`close ${cursor}`.execute(trx).catch(() => {})
  }
}

/** The read models' checkpoint position inside the caller's transaction (what a snapshot reflects). */
export async function checkpointPosition(
  trx: Transaction<WorkTables>,
  schema: string,
  group: string,
): Promise<{ position: string | null; version: number | null }> {
  const { rows } = await sql<{ position: string | null; read_model_version: number }>`
    select position, read_model_version from ${sql.id(schema, 'projection_checkpoint')} where group_name = ${group}`.execute(trx)
  return { position: rows[0]?.position ?? null, version: rows[0]?.read_model_version ?? null }
}

/** The organization's filed report files (aeo_reports.path, compare_reports.path), page by page, in the same snapshot. */
export async function* orgReportPaths(
  trx: Transaction<WorkTables>,
  schema: string,
  orgId: number,
  pageSize: number,
): AsyncGenerator<{ path: string; client_id: number; month: string }[]> {
  const cursor = sql.id('export_report_paths')
  // Filed report pages: AI Visibility reports and compare reports (planning), each row naming its blob.
  await sql`declare ${cursor} no scroll cursor for select path, client_id, month from ${sql.id(schema, 'aeo_reports')} where org_id = ${orgId} union all select path, client_id, month from ${sql.id(schema, 'compare_reports')} where org_id = ${orgId} order by client_id, month, path`.execute(
    trx,
  )
  try {
    for (;;) {
      const { rows } = await sql<{
        path: string
        client_id: number
        month: string
      }>`fetch forward ${sql.raw(String(pageSize))} from ${cursor}`.execute(trx)
      if (rows.length > 0) yield rows
      if (rows.length < pageSize) return
    }
  } finally {
    await sql`close ${cursor}`.execute(trx).catch(() => {})
  }
}

/**
 * Runs `read` in one REPEATABLE READ, READ ONLY transaction over the live read models: every table, the
 * checkpoint position and the report list come from the same snapshot, so the export is exactly the read
 * models at that position (the checkpoint is committed in the same transaction as the rows it covers).
 */
export function withReadSnapshot<T>(
  db: Kysely<WorkTables>,
  read: (trx: Transaction<WorkTables>, schema: string) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((trx) => read(trx, LIVE_SCHEMA))
}
