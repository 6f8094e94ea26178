import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { ZipArchive } from 'archiver'

export interface FileDigest {
  readonly path: string
  readonly bytes: number
  readonly sha256: string
}

/**
 * A zip written entry by entry as a stream (archiver): `archive` is the zip's bytes, read by whoever stores
 * it; `add` appends one file from an async source and resolves when archiver has consumed it, with the
 * file's size and sha256 (of its uncompressed content, as the manifest states). Entries are added one at a
 * time, so a source may depend on the previous one having finished (they share one database cursor
 * transaction), and backpressure from the reader reaches the source: memory holds a few chunks, never a
 * file. `abort` fails the archive (and so the store that reads it) and any pending `add`.
 */
export class ZipStream {
  readonly archive: ZipArchive
  readonly files: FileDigest[] = []
  #failure: Error | null = null
  #fail: (error: Error) => void = () => {}
  readonly #failed: Promise<never>

  /** archiver and its streams (~80 modules) are imported with the first export, not with the app. */
  static async open(options: { level: number }): Promise<ZipStream> {
    const { ZipArchive } = await import('archiver')
    return new ZipStream(new ZipArchive({ zlib: { level: options.level } }))
  }

  private constructor(archive: ZipArchive) {
    this.archive = archive
    this.#failed = new Promise<never>((_, reject) => (this.#fail = reject))
    this.#failed.catch(() => {})
    this.archive.on('error', (error) => this.abort(error))
    this.archive.on('warning', (error) => this.abort(error))
  }

  abort(reason: unknown): void {
    if (this.#failure) return
    this.#failure = reason instanceof Error ? reason : new Error(String(reason))
    this.#fail(this.#failure)
    this.archive.destroy(this.#failure)
  }

  async add(name: string, content: AsyncIterable<string | Uint8Array> | string, date: Date): Promise<FileDigest> {
    if (this.#failure) throw this.#failure
    const hash = createHash('sha256')
    let bytes = 0
    async function* hashed(): AsyncGenerator<Buffer> {
      const parts: AsyncIterable<string | Uint8Array> | string[] = typeof content === 'string' ? [content] : content
      for await (const part of parts) {
        const chunk = typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part.buffer, part.byteOffset, part.byteLength)
        if (chunk.byteLength === 0) continue
        hash.update(chunk)
        bytes += chunk.byteLength
        yield chunk
      }
    }
    const source = Readable.from(hashed(), { objectMode: false })
    let onEntry: (entry: { name: string }) => void = () => {}
    const consumed = new Promise<void>((resolve, reject) => {
      onEntry = (entry) => {
        if (entry.name === name) resolve()
      }
      this.archive.on('entry', onEntry)
      source.once('error', (error) => {
        this.abort(error)
        reject(error)
      })
    })
    try {
      this.archive.append(source, { name, date })
      await Promise.race([consumed, this.#failed])
    } finally {
      this.archive.off('entry', onEntry)
    }
    const digest: FileDigest = { path: name, bytes, sha256: hash.digest('hex') }
    this.files.push(digest)
    return digest
  }

  /** Writes the central directory and ends the archive stream. */
  async finish(): Promise<void> {
    if (this.#failure) throw this.#failure
    await Promise.race([this.archive.finalize(), this.#failed])
  }
}
