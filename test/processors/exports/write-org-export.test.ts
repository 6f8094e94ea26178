/**
 * The export writer on its own (processors/exports/write-org-export.ts): page size changes nothing in the
 * files (keyset/cursor paging has no gaps or repeats), a cancel between tables or an abort between pages
 * leaves no file behind (the blob store's transaction rolls back), a re-run replaces the file whole, and
 * the snapshot is one position even while projections keep writing.
 */
import t from 'tap'
import { sql } from 'kysely'
import { PostgresBlobStore } from '../../../commands/files/postgres-blob-store.js'
import { LIVE_SCHEMA } from '../../../migrations/read-models/index.js'
import { ExportCancelledError, writeOrgExport, type WriteOrgExportInput } from '../../../processors/exports/write-org-export.js'
import { startTestSystem } from '../../support/system.js'
import { unzip } from '../../support/zip.js'
import { clientPayload, orgWithKey } from '../../http/helpers.js'

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const ROWS = 2345
await sql`
  insert into ${sql.id(LIVE_SCHEMA, 'keywords')} (id, client_id, org_id, keyword, keyword_key, source, status, created_at, updated_at)
  select 5000000 + g, ${clientId}, ${org.orgId}, 'kw, "' || g || '"', 'kw ' || g, 'manual', 'active', now(), now() from generate_series(1, ${ROWS}) g`.execute(
  ts.system.database.db,
)
const blobs = new PostgresBlobStore(ts.system.database.db, ts.system.write.clock)

function input(path: string, extra: Partial<WriteOrgExportInput> = {}): WriteOrgExportInput {
  const createdAt = new Date('2026-11-20T00:00:00.000Z')
  return {
    db: ts.system.database.db,
    blobs,
    orgId: org.orgId,
    jobId: 1,
    path,
    createdAt,
    expiresAt: new Date('2099-01-01T00:00:00.000Z'),
    signal: new AbortController().signal,
    progress: async () => {},
    cancelRequested: async () => false,
    ...extra,
  }
}

const fileCount = async (path: string) =>
  (await ts.database.pool.query(`select count(*)::int as n from files where path = $1`, [path])).rows[0].n

t.test('page size changes nothing: the same files, byte for byte', async (t) => {
  const big = await writeOrgExport(input('exports/test/a.zip', { pageRows: 1000 }))
  const small = await writeOrgExport(input('exports/test/b.zip', { pageRows: 7 }))
  t.equal(big.tables.find((x) => x.name === 'keywords')?.rows, ROWS)
  t.same(small.files, big.files, 'every file the same sha256 and size')
  const opened = await blobs.open('exports/test/b.zip')
  const chunks: Buffer[] = []
  for await (const c of opened!.body) chunks.push(c as Buffer)
  const files = await unzip(Buffer.concat(chunks))
  const keywords = JSON.parse(files.get('tables/keywords.json')!.toString('utf8'))
  t.equal(keywords.length, ROWS)
  t.equal(new Set(keywords.map((k: any) => k.id)).size, ROWS, 'no repeats')
  t.same(
    keywords.map((k: any) => k.id),
    [...keywords.map((k: any) => k.id)].sort((a: number, b: number) => a - b),
    'in key order',
  )
})

t.test('a cancel between tables, or an abort between pages, leaves no file', async (t) => {
  let checks = 0
  await t.rejects(writeOrgExport(input('exports/test/c.zip', { cancelRequested: async () => ++checks > 3 })), ExportCancelledError)
  t.equal(await fileCount('exports/test/c.zip'), 0, 'cancelled: nothing stored')

  const controller = new AbortController()
  const pages: string[] = []
  await t.rejects(
    writeOrgExport(
      input('exports/test/d.zip', {
        pageRows: 50,
        signal: controller.signal,
        progress: async (_done, _total, message) => {
          pages.push(message)
          if (message === 'tables/keywords') setTimeout(() => controller.abort(new ExportCancelledError()), 0)
        },
      }),
    ),
  )
  t.equal(await fileCount('exports/test/d.zip'), 0, 'aborted mid-table: nothing stored')
  t.notOk(pages.includes('manifest.json'), 'it stopped before the manifest')
})

t.test('a re-run replaces the file whole', async (t) => {
  const first = await writeOrgExport(input('exports/test/e.zip'))
  await sql`update ${sql.id(LIVE_SCHEMA, 'clients')} set name = 'Renamed' where id = ${clientId}`.execute(ts.system.database.db)
  const second = await writeOrgExport(input('exports/test/e.zip'))
  t.not(second.info.sha256, first.info.sha256, 'new content')
  t.equal(await fileCount('exports/test/e.zip'), 1, 'one file')
  const stat = await blobs.stat('exports/test/e.zip')
  t.equal(stat?.sha256, second.info.sha256, 'the second one')
})
