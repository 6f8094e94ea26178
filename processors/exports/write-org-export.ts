import type { Kysely, Transaction } from 'kysely'
import type { BlobInfo, BlobStore } from '../../commands/files/blob-store.js'
import { MAIN_GROUP } from '../../projections/index.js'
import {
  checkpointPosition,
  NOT_EXPORTED,
  orgReportPaths,
  orgRowPages,
  orgTableCatalog,
  withReadSnapshot,
  type OrgTable,
} from '../../projections/exports/org-tables.js'
import { csvRecord, jsonRow } from './encode.js'
import { ZipStream, type FileDigest } from './zip-stream.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/** Rows per cursor fetch: a page is the unit of memory and of cancel checks. */
export const PAGE_ROWS = 250
/** zlib level: 6 (zlib's default) compresses this text ~10× at a fraction of level 9's CPU. */
const ZIP_LEVEL = 6

export const EXPORT_CONTENT_TYPE = 'application/zip'

export interface WriteOrgExportInput {
  readonly db: Kysely<WorkTables>
  readonly blobs: BlobStore
  readonly orgId: number
  readonly jobId: number
  /** The blob-store path the zip is stored at (replaced whole if it exists: a re-run). */
  readonly path: string
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly signal: AbortSignal
  /** Called before each table and before the reports and the manifest. */
  readonly progress: (done: number, total: number, message: string) => Promise<void>
  /** Checked between tables; true stops the export (the caller's signal is checked between pages). */
  readonly cancelRequested: () => Promise<boolean>
  readonly pageRows?: number
}

export interface TableSummary {
  readonly name: string
  readonly rows: number
  readonly scope: string
  readonly columns: readonly string[]
  readonly excluded_columns: readonly string[]
  readonly files: readonly string[]
}

export interface WrittenExport {
  readonly info: BlobInfo
  readonly tables: readonly TableSummary[]
  readonly rows: number
  readonly reports: number
  readonly position: string | null
  readonly files: readonly FileDigest[]
}

export class ExportCancelledError extends Error {
  constructor() {
    super('the export was cancelled')
    this.name = 'ExportCancelledError'
  }
}

/**
 * Writes an organization's export zip into the blob store as one stream: archiver's output is the body of
 * `blobs.put` (the port takes an async iterable and stores it chunk by chunk in one transaction), so the
 * zip is never whole in memory or on local disk, and a failed or cancelled export leaves no file (the
 * put's transaction rolls back). Memory stays at one page of rows plus a few zip chunks, whatever the
 * organization's size.
 *
 * Content, from one read snapshot of the read models (REPEATABLE READ): `tables/<t>.json` (a JSON array,
 * one row per line) and `tables/<t>.csv` (header + rows, RFC 4180) for every table that can hold the
 * organization's rows (projections/exports/org-tables.ts), secret columns removed
 * (domain/exports/secret-columns.ts); `reports/<path>` for every filed report (aeo_reports.path → the
 * blob); `manifest.json` last, with the tables and their row counts, every file's sha256, created_at and
 * the log position the read models had reached in the snapshot.
 */
export async function writeOrgExport(input: WriteOrgExportInput): Promise<WrittenExport> {
  const pageRows = input.pageRows ?? PAGE_ROWS
  const zip = await ZipStream.open({ level: ZIP_LEVEL })
  const stored = input.blobs.put(input.path, zip.archive, {
    orgId: input.orgId,
    contentType: EXPORT_CONTENT_TYPE,
    expiresAt: input.expiresAt,
  })
  // The store failing (database gone) must stop the producer, which would otherwise wait on backpressure.
  stored.catch((error: unknown) => zip.abort(error))
  const onAbort = () => zip.abort(input.signal.reason ?? new ExportCancelledError())
  input.signal.addEventListener('abort', onAbort, { once: true })
  try {
    const written = await withReadSnapshot(input.db, async (trx, schema) => {
      const catalog = await orgTableCatalog(trx, schema)
      const checkpoint = await checkpointPosition(trx, schema, MAIN_GROUP)
      const total = catalog.tables.length + 2
      const tables: TableSummary[] = []
      for (const [i, table] of catalog.tables.entries()) {
        await input.progress(i, total, `tables/${table.name}`)
        if (await input.cancelRequested()) throw new ExportCancelledError()
        tables.push(await writeTable(zip, trx, schema, table, input, pageRows))
      }
      await input.progress(catalog.tables.length, total, 'reports')
      const reports = await writeReports(zip, trx, schema, input, pageRows)
      await input.progress(catalog.tables.length + 1, total, 'manifest.json')
      const rows = tables.reduce((sum, t) => sum + t.rows, 0)
      const manifest = {
        format: 'rankrelay.org-export',
        format_version: 1,
        org_id: input.orgId,
        job_id: input.jobId,
        created_at: input.createdAt.toISOString(),
        expires_at: input.expiresAt.toISOString(),
        position: checkpoint.position,
        read_model_version: checkpoint.version,
        note: 'Every table is the read models at `position` (one snapshot). JSON is exact (null vs empty string); CSV is RFC 4180 with null as an empty field. Secrets and what derives from them are excluded (see excluded_columns).',
        tables,
        rows,
        /** Read-model tables left out whole, with the reason (projections/exports/org-tables.ts). */
        not_exported: NOT_EXPORTED,
        reports: reports.written,
        reports_missing: reports.missing,
        files: [...zip.files],
      }
      await zip.add('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`, input.createdAt)
      await zip.finish()
      return { tables, rows, reports: reports.written.length, position: checkpoint.position, files: [...zip.files] }
    })
    const info = await stored
    return { info, ...written }
  } catch (error) {
    zip.abort(error)
    await stored.catch(() => {})
    throw error
  } finally {
    input.signal.removeEventListener('abort', onAbort)
  }
}

async function writeTable(
  zip: ZipStream,
  trx: Transaction<WorkTables>,
  schema: string,
  table: OrgTable,
  input: WriteOrgExportInput,
  pageRows: number,
): Promise<TableSummary> {
  const counted: number[] = []
  const pages = () => orgRowPages(trx, schema, table, input.orgId, pageRows)
  const signal = input.signal
  async function* json(): AsyncGenerator<string> {
    let rows = 0
    yield '['
    for await (const page of pages()) {
      signal.throwIfAborted()
      let chunk = ''
      for (const row of page) chunk += (rows++ === 0 ? '\n' : ',\n') + jsonRow(row, table.columns)
      yield chunk
    }
    yield rows === 0 ? ']\n' : '\n]\n'
    counted.push(rows)
  }
  async function* csv(): AsyncGenerator<string> {
    let rows = 0
    yield csvRecord(table.columns)
    for await (const page of pages()) {
      signal.throwIfAborted()
      let chunk = ''
      for (const row of page) chunk += csvRecord(table.columns.map((c) => row[c]))
      rows += page.length
      yield chunk
    }
    counted.push(rows)
  }
  const jsonFile = `tables/${table.name}.json`
  const csvFile = `tables/${table.name}.csv`
  await zip.add(jsonFile, json(), input.createdAt)
  await zip.add(csvFile, csv(), input.createdAt)
  // Both files read the same snapshot, so they hold the same rows; anything else is a bug worth failing on.
  if (counted.length !== 2 || counted[0] !== counted[1])
    throw new Error(`export of ${table.name}: the JSON and CSV row counts differ (${counted.join(' vs ')})`)
  return {
    name: table.name,
    rows: counted[0]!,
    scope: table.scope,
    columns: table.columns,
    excluded_columns: table.excluded,
    files: [jsonFile, csvFile],
  }
}

interface ReportEntry {
  readonly source: string
  readonly file: string
  readonly client_id: number
  readonly month: string
  readonly bytes: number
}

async function writeReports(
  zip: ZipStream,
  trx: Transaction<WorkTables>,
  schema: string,
  input: WriteOrgExportInput,
  pageRows: number,
): Promise<{ written: ReportEntry[]; missing: string[] }> {
  const written: ReportEntry[] = []
  const missing: string[] = []
  for await (const page of orgReportPaths(trx, schema, input.orgId, pageRows)) {
    for (const report of page) {
      input.signal.throwIfAborted()
      const opened = await input.blobs.open(report.path)
      // A report of another organization can only be a bug in whoever filed it: never copy it across.
      if (!opened || opened.info.orgId !== input.orgId) {
        opened?.body.destroy()
        missing.push(report.path)
        continue
      }
      const file = `reports/${report.path}`
      const digest = await zip.add(file, opened.body, input.createdAt)
      written.push({ source: report.path, file, client_id: Number(report.client_id), month: report.month, bytes: digest.bytes })
    }
  }
  return { written, missing }
}
