import type { Kysely } from 'kysely'
import { z } from 'zod'
import { unacceptableTextReason } from '../../domain/shared/values.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope, resolveOrg, type Caller } from '../caller.js'
import { DB_DEFAULT_LIMIT, DB_MAX_LIMIT, DB_TABLES, FILTERABLE, tableSpec, type ColumnSpec, type TableSpec } from '../db-tables.js'
import { ApiError } from '../errors.js'
import { route, type RouteGroup } from '../platform/route.js'

/** Any allow-listed read model as the db endpoint reads it: named at run time, columns of unknown values. */
type AllowListedTables = Record<string, Record<string, unknown>>

export interface DbRouteDeps {
  readonly read: ReadDb
}

const WHERE_PREFIX = 'where_'
const MAX_FILTER_TEXT = 2000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const Timestamp = z.iso.datetime({ offset: true })

/** A non-negative integer query parameter (limit, offset, org_id), or a coded 400 naming it. */
function integerParam(name: string, raw: unknown, min: number, max: number): number {
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) throw new ApiError('db_query_invalid', `${name} must be an integer`)
  const value = Number(raw)
  if (value < min || value > max) throw new ApiError('db_query_invalid', `${name} must be between ${min} and ${max}`)
  return value
}

/**
 * The filter value parsed by the column's type, so that a bad value is the caller's 400 and never a
 * database cast error (500), and so that "12" and "012" mean the same id. `null` (nullable columns only)
 * means IS NULL.
 */
export function parseFilter(column: string, spec: ColumnSpec, raw: string): string | number | boolean | Date | null {
  const bad = (expected: string) =>
    new ApiError('db_filter_invalid', `where_${column}: expected ${expected}, got ${JSON.stringify(raw.slice(0, 100))}`)
  if (raw === 'null' && spec.nullable) return null
  switch (spec.type) {
    case 'id': {
      if (!/^\d{1,16}$/.test(raw)) throw bad('a positive integer id')
      const value = Number(raw)
      if (value < 1 || !Number.isSafeInteger(value)) throw bad('a positive integer id')
      return value
    }
    case 'int': {
      if (!/^-?\d{1,16}$/.test(raw)) throw bad('an integer')
      const value = Number(raw)
      if (!Number.isSafeInteger(value)) throw bad('an integer')
      return value
    }
    case 'bool':
      if (raw === 'true') return true
      if (raw === 'false') return false
      throw bad('true or false')
    case 'timestamp':
      if (!Timestamp.safeParse(raw).success) throw bad('an ISO 8601 time with offset, e.g. 2026-01-31T12:00:00.000Z')
      return new Date(raw)
    case 'uuid':
      if (!UUID.test(raw)) throw bad('a UUID')
      return raw.toLowerCase()
    case 'text': {
      if (raw.length > MAX_FILTER_TEXT) throw bad(`at most ${MAX_FILTER_TEXT} characters`)
      // The same rule as every text parameter of the API (a NUL would reach PostgreSQL and fail there as a 500).
      const reason = unacceptableTextReason(raw)
      if (reason !== null) throw new ApiError('validation_failed', `where_${column}: ${reason}`)
      return raw
    }
    case 'text[]':
    case 'json':
      throw new ApiError(
        'db_filter_invalid',
        `where_${column}: a ${spec.type === 'json' ? 'JSON' : 'list'} column cannot be filtered by equality`,
      )
  }
}

/** The column's spec, or a coded error: 403 for a withheld column (saying why), 400 for an unknown one. */
function columnOf(table: string, spec: TableSpec, column: string): ColumnSpec {
  if (Object.hasOwn(spec.columns, column)) return spec.columns[column]!
  if (Object.hasOwn(spec.withheld, column)) throw new ApiError('db_column_forbidden', `${table}.${column}: ${spec.withheld[column]}`)
  throw new ApiError(
    'db_column_unknown',
    `${table} has no readable column ${JSON.stringify(column.slice(0, 100))}; it has ${Object.keys(spec.columns).join(', ')}`,
  )
}

export interface TableQuery {
  readonly filters: ReadonlyArray<{ column: string; value: string | number | boolean | Date | null }>
  readonly limit: number
  readonly offset: number
  /** The org_id query parameter, when given. */
  readonly orgId: number | undefined
}

/** Reads and checks the query string: where_<column>=<value> filters, limit, offset, org_id; nothing else. */
export function parseTableQuery(table: string, spec: TableSpec, query: Record<string, unknown>): TableQuery {
  const filters: { column: string; value: string | number | boolean | Date | null }[] = []
  let limit = DB_DEFAULT_LIMIT
  let offset = 0
  let orgId: number | undefined
  for (const [key, raw] of Object.entries(query)) {
    if (Array.isArray(raw)) throw new ApiError('db_query_invalid', `${key} is given more than once; each parameter takes one value`)
    if (key === 'limit') limit = integerParam('limit', raw, 1, DB_MAX_LIMIT)
    else if (key === 'offset') offset = integerParam('offset', raw, 0, Number.MAX_SAFE_INTEGER)
    else if (key === 'org_id') orgId = integerParam('org_id', raw, 1, Number.MAX_SAFE_INTEGER)
    else if (key.startsWith(WHERE_PREFIX)) {
      const column = key.slice(WHERE_PREFIX.length)
      const columnSpec = columnOf(table, spec, column)
      if (!FILTERABLE.has(columnSpec.type))
        throw new ApiError(
          'db_filter_invalid',
          `where_${column}: a ${columnSpec.type === 'json' ? 'JSON' : 'list'} column cannot be filtered by equality`,
        )
      filters.push({ column, value: parseFilter(column, columnSpec, String(raw)) })
    } else {
      throw new ApiError(
        'db_query_invalid',
        `unknown parameter ${JSON.stringify(key.slice(0, 100))}; use where_<column>, limit, offset or org_id`,
      )
    }
  }
  return { filters, limit, offset, orgId }
}

/** The listing of GET /api/v1/db: every readable table, its columns (with types), order and scoping. */
function catalogue() {
  return {
    tables: Object.entries(DB_TABLES).map(([name, spec]) => ({
      name,
      description: spec.description,
      columns: Object.entries(spec.columns).map(([column, c]) => ({
        name: column,
        type: c.type,
        nullable: c.nullable === true,
        filterable: FILTERABLE.has(c.type),
      })),
      order_by: spec.orderBy,
      org_scope: spec.scope.kind === 'column' ? spec.scope.column : `${spec.scope.column} (through clients.org_id)`,
    })),
    limit: { default: DB_DEFAULT_LIMIT, max: DB_MAX_LIMIT },
  }
}

/**
 * Runs the read: the allow-listed columns only, the caller's organization applied before any filter of the
 * caller's (so a filter can narrow, never widen), primary-key order, one row more than asked to tell whether
 * another page exists.
 */
async function readTable(read: ReadDb, table: string, spec: TableSpec, caller: Caller, query: TableQuery) {
  // An organization key is confined to its organization (another org_id answers like a missing record); a
  // platform key reads across organizations unless it names one.
  const orgId = resolveOrg(caller, query.orgId)
  // The table and its columns are chosen at run time from the allow-list (db-tables.ts), so they are read as
  // rows of unknown values: the spec, not the compiler, vouches that they exist.
  const db = read as unknown as Kysely<AllowListedTables>
  let q = db.selectFrom(table).select(Object.keys(spec.columns))
  if (orgId !== null) {
    const scope = spec.scope
    q =
      scope.kind === 'column'
        ? q.where(scope.column, '=', orgId)
        : q.where(scope.column, 'in', db.selectFrom('clients').select('id').where('org_id', '=', orgId))
  }
  for (const filter of query.filters)
    q = filter.value === null ? q.where(filter.column, 'is', null) : q.where(filter.column, '=', filter.value)
  for (const column of spec.orderBy) q = q.orderBy(column, 'asc')
  const rows = await q
    .limit(query.limit + 1)
    .offset(query.offset)
    .execute()
  const more = rows.length > query.limit
  const page = more ? rows.slice(0, query.limit) : rows
  return {
    table,
    rows: page,
    limit: query.limit,
    offset: query.offset,
    ...(more ? { next_offset: query.offset + query.limit } : {}),
  }
}

const Catalogue = z.object({
  tables: z
    .array(
      z.object({
        name: z.string().describe('The table, as the path of GET /api/v1/db/{table}'),
        description: z.string().describe('What a row is'),
        columns: z
          .array(
            z.object({
              name: z.string().describe('The column'),
              type: z.string().describe('id, int, bool, text, timestamp, uuid, text[] or json'),
              nullable: z.boolean().describe('May be null (filter with where_<column>=null)'),
              filterable: z.boolean().describe('Can be a where_<column> filter'),
            }),
          )
          .describe('The readable columns'),
        order_by: z.array(z.string()).describe('The primary-key order rows come in'),
        org_scope: z.string().describe('The column that confines rows to an organization'),
      }),
    )
    .describe('Every readable table'),
  limit: z
    .object({
      default: z.number().int().describe('Rows per page when limit is absent'),
      max: z.number().int().describe('The largest limit'),
    })
    .describe('Page sizes'),
})

const TableParams = z.object({ table: z.string().describe('An allowed table (GET /api/v1/db lists them)') })

/** Documents the fixed parameters; where_<column> filters are read by parseTableQuery against the table's columns. */
const TableQuerySchema = z
  .object({
    limit: z
      .string()
      .optional()
      .meta({ type: 'integer', minimum: 1, maximum: DB_MAX_LIMIT, default: DB_DEFAULT_LIMIT })
      .describe(`Rows per page, 1 to ${DB_MAX_LIMIT} (default ${DB_DEFAULT_LIMIT})`),
    offset: z.string().optional().meta({ type: 'integer', minimum: 0 }).describe('Rows to skip'),
    org_id: z.string().optional().meta({ type: 'integer', minimum: 1 }).describe('Platform keys: confine the read to this organization'),
  })
  .catchall(z.string())

const TablePage = z.object({
  table: z.string().describe('The table read'),
  rows: z.array(z.record(z.string(), z.unknown())).describe('The rows, in primary-key order, with the readable columns only'),
  limit: z.number().int().describe('The page size used'),
  offset: z.number().int().describe('The rows skipped'),
  next_offset: z.number().int().optional().describe('Present when more rows follow: pass it as offset'),
})

export const listTablesRoute = route<DbRouteDeps>({
  method: 'GET',
  path: '/api/v1/db',
  operationId: 'list_tables',
  summary: 'The readable tables, their columns, order and scoping',
  tag: 'db',
  auth: 'bearer',
  scopes: ['read'],
  responses: { 200: { description: 'The allow-list.', schema: Catalogue } },
  example: {
    response: {
      status: 200,
      body: {
        tables: [
          {
            name: 'clients',
            description: "An agency's clients",
            columns: [
              { name: 'id', type: 'id', nullable: false, filterable: true },
              { name: 'name', type: 'text', nullable: false, filterable: true },
            ],
            order_by: ['id'],
            org_scope: 'org_id',
          },
        ],
        limit: { default: DB_DEFAULT_LIMIT, max: DB_MAX_LIMIT },
      },
    },
  },
  handler: async ({ request, deps }) => {
    requireScope(await callerOf(request, deps.read), 'read')
    return catalogue()
  },
})

/**
 * GET /api/v1/db/<table>?where_<column>=<value>&limit=&offset=&org_id= (read scope): rows of an
 * allow-listed read-model table (read-api/db-tables.ts), filtered by equality, confined to the caller's
 * organization. GET /api/v1/db lists what can be read.
 */
export const readTableRoute = route<DbRouteDeps, typeof TableParams, typeof TableQuerySchema>({
  method: 'GET',
  path: '/api/v1/db/:table',
  operationId: 'read_table',
  summary: 'Generic table read',
  description:
    'Rows of an allowed read-model table, filtered by equality with `where_<column>=<value>` query parameters (`null` for IS NULL on a nullable column); organization scoping is applied automatically. GET /api/v1/db lists the tables.',
  tag: 'db',
  auth: 'bearer',
  scopes: ['read'],
  params: TableParams,
  query: TableQuerySchema,
  responses: { 200: { description: 'The rows, in primary-key order; next_offset when more follow.', schema: TablePage } },
  example: {
    params: { table: 'clients' },
    query: { limit: 2 },
    response: {
      status: 200,
      body: {
        table: 'clients',
        rows: [
          { id: 34, name: 'Acme Dental' },
          { id: 35, name: 'Birch Law' },
        ],
        limit: 2,
        offset: 0,
        next_offset: 2,
      },
    },
  },
  handler: async ({ request, deps, input }) => {
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const table = input.params().table
    const spec = tableSpec(table)
    if (!spec) throw new ApiError('db_table_not_allowed', `${JSON.stringify(table.slice(0, 100))} is not a readable table`)
    // The filters depend on the table's columns, so the query is read against them rather than one schema.
    const query = parseTableQuery(table, spec, (request.query as Record<string, unknown> | undefined) ?? {})
    return readTable(deps.read, table, spec, caller, query)
  },
})

export const dbRoutes: RouteGroup<DbRouteDeps> = { routes: [listTablesRoute, readTableRoute] }
