import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { sql, type Kysely } from 'kysely'
import {
  BlobChangedError,
  InvalidBlobPathError,
  isValidBlobPath,
  type BlobBody,
  type BlobInfo,
  type BlobStore,
  type PutOptions,
} from './blob-store.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/** Chunk size of stored files: large enough that a file is few rows, small enough to stream in constant memory. */
export const CHUNK_BYTES = 256 * 1024

/** Chunks fetched per round trip when reading (so memory stays at a few chunks whatever the file size). */
const READ_AHEAD = 4

interface FileRow {
  path: string
  org_id: number | string | null
  content_type: string
  bytes: number | string
  sha256: string
  created_at: Date
  expires_at: Date | null
}

const toInfo = (row: FileRow): BlobInfo => ({
  path: row.path,
  orgId: row.org_id === null ? null : Number(row.org_id),
  contentType: row.content_type,
  bytes: Number(row.bytes),
  sha256: row.sha256,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

async function* chunksOf(body: BlobBody): AsyncIterable<Uint8Array> {
  if (typeof body === 'string') {
    yield Buffer.from(body, 'utf8')
    return
  }
  if (body instanceof Uint8Array) {
    yield body
    return
  }
  for await (const part of body as AsyncIterable<Uint8Array | string>) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part
}

/**
 * The default blob store: files in PostgreSQL (tables `files` and `file_chunks`, migrations/0006-files.ts),
 * so every API process serves what any process wrote with no shared disk. Writes are one transaction per
 * file (old chunks deleted, new ones inserted as they arrive, the `files` row last — its foreign key is
 * deferred), serialized per path by an advisory lock.
 */
export class PostgresBlobStore implements BlobStore {
  readonly #db: Kysely<WorkTables>
  readonly #now: () => Date

  constructor(db: Kysely<WorkTables>, now: () => Date = () => new Date()) {
    this.#db = db
    this.#now = now
  }

  async put(path: string, body: BlobBody, options: PutOptions): Promise<BlobInfo> {
    if (!isValidBlobPath(path)) throw new InvalidBlobPathError(path)
    return this.#db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`file:${path}`}, 0))`.execute(trx)
      await sql`delete from file_chunks where path = ${path}`.execute(trx)
      await sql`delete from files where path = ${path}`.execute(trx)
      const hash = createHash('sha256')
      let bytes = 0
      let seq = 0
      let pending: Buffer[] = []
      let pendingBytes = 0
      const flush = async (data: Buffer) => {
        await sql`insert into file_chunks (path, seq, data) values (${path}, ${seq++}, ${data})`.execute(trx)
      }
      for await (const part of chunksOf(body)) {
        if (part.byteLength === 0) continue
        hash.update(part)
        bytes += part.byteLength
        pending.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength))
        pendingBytes += part.byteLength
        while (pendingBytes >= CHUNK_BYTES) {
          const joined = Buffer.concat(pending)
          await flush(joined.subarray(0, CHUNK_BYTES))
          const rest = joined.subarray(CHUNK_BYTES)
          pending = rest.byteLength > 0 ? [Buffer.from(rest)] : []
          pendingBytes = rest.byteLength
        }
      }
      if (pendingBytes > 0) await flush(Buffer.concat(pending))
      const { rows } = await sql<FileRow>`
        insert into files (path, org_id, content_type, bytes, sha256, created_at, expires_at)
        values (${path}, ${options.orgId}, ${options.contentType}, ${bytes}, ${hash.digest('hex')}, ${this.#now()}, ${options.expiresAt ?? null})
        returning path, org_id, content_type, bytes, sha256, created_at, expires_at`.execute(trx)
      return toInfo(rows[0]!)
    })
  }

  async stat(path: string): Promise<BlobInfo | null> {
    if (!isValidBlobPath(path)) return null
    const { rows } = await sql<FileRow>`
      select path, org_id, content_type, bytes, sha256, created_at, expires_at from files
      where path = ${path} and (expires_at is null or expires_at > ${this.#now()})`.execute(this.#db)
    return rows[0] ? toInfo(rows[0]) : null
  }

  async open(path: string): Promise<{ info: BlobInfo; body: Readable } | null> {
    const info = await this.stat(path)
    if (!info) return null
    return { info, body: Readable.from(this.#chunks(info), { objectMode: false }) }
  }

  /**
   * A few chunks per query, each query joined to the file's sha256 as stat saw it: a replacement committed
   * mid-stream makes the join come back short, and the stream fails instead of mixing versions.
   */
  async *#chunks(info: BlobInfo): AsyncIterable<Buffer> {
    let next = 0
    let sent = 0
    while (sent < info.bytes) {
      const { rows } = await sql<{ seq: number; data: Buffer }>`
        select c.seq, c.data from file_chunks c join files f on f.path = c.path
        where c.path = ${info.path} and f.sha256 = ${info.sha256} and c.seq >= ${next}
        order by c.seq limit ${READ_AHEAD}`.execute(this.#db)
      if (rows.length === 0) throw new BlobChangedError(info.path)
      for (const row of rows) {
        if (row.seq !== next) throw new BlobChangedError(info.path)
        next++
        sent += row.data.byteLength
        yield row.data
      }
    }
    if (sent !== info.bytes) throw new BlobChangedError(info.path)
  }

  async delete(path: string): Promise<boolean> {
    if (!isValidBlobPath(path)) return false
    return this.#db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`file:${path}`}, 0))`.execute(trx)
      await sql`delete from file_chunks where path = ${path}`.execute(trx)
      const result = await sql`delete from files where path = ${path}`.execute(trx)
      return Number(result.numAffectedRows ?? 0) > 0
    })
  }
}
