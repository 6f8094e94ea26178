/**
 * The PostgreSQL blob store: chunked writes from a stream (sha256 and size computed on the way), reads in
 * chunks, atomic replacement, a failed write leaving the old file, path rules, expiry, and a replacement
 * during a read failing the read instead of mixing versions.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { BlobChangedError, InvalidBlobPathError, isValidBlobPath } from '../../commands/files/blob-store.js'
import { CHUNK_BYTES, PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { startTestSystem } from '../support/system.js'

async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const part of body) parts.push(part)
  return Buffer.concat(parts)
}

/** `total` bytes of a repeating pattern, yielded in odd-sized pieces (as a network stream would). */
async function* pattern(total: number, piece = 7_001, seed = 0): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < total; offset += piece) {
    const size = Math.min(piece, total - offset)
    const buffer = Buffer.alloc(size)
    for (let i = 0; i < size; i++) buffer[i] = (offset + i + seed) % 251
    yield buffer
  }
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex')

t.test('PostgreSQL blob store', async (t) => {
  const ts = await startTestSystem(t, { runProjections: false })
  let now = new Date('2026-03-01T00:00:00Z')
  const store = new PostgresBlobStore(ts.system.database.db, () => now)
  const chunkRows = async (path: string) =>
    (await ts.database.pool.query<{ n: number }>('select count(*)::int as n from file_chunks where path = $1', [path])).rows[0]!.n

  await t.test('a streamed file of several chunks round-trips with its size and sha256', async (t) => {
    const total = CHUNK_BYTES * 2 + 12_345
    const expected = await readAll(pattern(total) as AsyncIterable<Buffer>)
    const info = await store.put('exports/1/big.bin', pattern(total), { orgId: 1, contentType: 'application/octet-stream' })
    t.match(info, {
      path: 'exports/1/big.bin',
      orgId: 1,
      contentType: 'application/octet-stream',
      bytes: total,
      sha256: sha(expected),
      expiresAt: null,
    })
    t.equal(await chunkRows('exports/1/big.bin'), 3, 'three chunks')
    const opened = await store.open('exports/1/big.bin')
    t.ok(opened)
    const body = await readAll(opened!.body)
    t.equal(body.length, total)
    t.ok(body.equals(expected), 'the same bytes')
    t.strictSame(await store.stat('exports/1/big.bin'), info)
  })

  await t.test('strings, empty files and replacement', async (t) => {
    const a = await store.put('r/a.html', '<p>héllo</p>', { orgId: 2, contentType: 'text/html' })
    t.equal(a.bytes, Buffer.byteLength('<p>héllo</p>'))
    t.equal(a.sha256, sha(Buffer.from('<p>héllo</p>')))
    const b = await store.put('r/a.html', 'second', { orgId: 2, contentType: 'text/plain' })
    t.equal(b.contentType, 'text/plain')
    t.equal((await readAll((await store.open('r/a.html'))!.body)).toString(), 'second')
    t.equal(await chunkRows('r/a.html'), 1, 'old chunks gone')
    const empty = await store.put('r/empty.txt', '', { orgId: null, contentType: 'text/plain' })
    t.match(empty, { bytes: 0, sha256: sha(Buffer.alloc(0)), orgId: null })
    t.equal((await readAll((await store.open('r/empty.txt'))!.body)).length, 0)
  })

  await t.test('a body that fails mid-way leaves the old file', async (t) => {
    await store.put('r/keep.txt', 'original', { orgId: 3, contentType: 'text/plain' })
    async function* failing(): AsyncIterable<Uint8Array> {
      yield Buffer.alloc(CHUNK_BYTES + 10, 1)
      throw new Error('source broke')
    }
    await t.rejects(store.put('r/keep.txt', failing(), { orgId: 3, contentType: 'text/plain' }), /source broke/)
    t.equal((await readAll((await store.open('r/keep.txt'))!.body)).toString(), 'original')
  })

  await t.test('paths: relative, no dot segments, no odd characters', async (t) => {
    for (const good of ['a', 'aeo-reports/1/2/2026-02.html', 'x/y_z@v1+b=c.txt']) t.ok(isValidBlobPath(good), good)
    for (const bad of ['', '/abs', 'a//b', '../x', 'a/../b', 'a/./b', '.hidden', 'a/b/', 'sp ace', 'a\\b', 'ü', 'a'.repeat(1001)]) {
      t.notOk(isValidBlobPath(bad), JSON.stringify(bad.slice(0, 20)))
    }
    await t.rejects(store.put('../x', 'x', { orgId: 1, contentType: 'text/plain' }), InvalidBlobPathError)
    t.equal(await store.stat('../x'), null)
    t.equal(await store.open('nope/missing.txt'), null)
  })

  await t.test('expired files are gone; delete removes', async (t) => {
    await store.put('tmp/soon.txt', 'x', { orgId: 1, contentType: 'text/plain', expiresAt: new Date('2026-03-08T00:00:00Z') })
    t.ok(await store.stat('tmp/soon.txt'))
    now = new Date('2026-03-09T00:00:00Z')
    t.equal(await store.stat('tmp/soon.txt'), null, 'past its expiry')
    t.equal(await store.delete('tmp/soon.txt'), true)
    t.equal(await store.delete('tmp/soon.txt'), false)
    t.equal(await chunkRows('tmp/soon.txt'), 0)
  })

  await t.test('a replacement during a read fails the read rather than mixing versions', async (t) => {
    const total = CHUNK_BYTES * 8
    await store.put('r/race.bin', pattern(total), { orgId: 1, contentType: 'application/octet-stream' })
    const opened = await store.open('r/race.bin')
    const iterator = opened!.body[Symbol.asyncIterator]()
    const first = await iterator.next()
    t.equal(first.done, false, 'the first chunks arrive')
    await store.put('r/race.bin', pattern(total, 7_001, 1), { orgId: 1, contentType: 'application/octet-stream' })
    await t.rejects(
      (async () => {
        for (;;) if ((await iterator.next()).done) break
      })(),
      BlobChangedError,
    )
  })

  await t.test('concurrent writers of one path serialize; the last one wins whole', async (t) => {
    const writes = Array.from({ length: 5 }, (_, i) =>
      store.put('r/concurrent.txt', `writer ${i} `.repeat(50_000), { orgId: 1, contentType: 'text/plain' }),
    )
    const infos = await Promise.all(writes)
    const final = await store.stat('r/concurrent.txt')
    t.ok(
      infos.some((info) => info.sha256 === final!.sha256),
      'the stored file is one writer’s, whole',
    )
    const body = await readAll((await store.open('r/concurrent.txt'))!.body)
    t.equal(sha(body), final!.sha256)
  })
})
