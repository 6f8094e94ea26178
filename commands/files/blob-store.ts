import type { Readable } from 'node:stream'

/**
 * The blob-store port: files a request or a processor writes (filed reports, exports) and any API process
 * serves. Paths are relative, `/`-separated, without `.`/`..` segments (see `isValidBlobPath`). Bodies
 * stream in and out, so a large export never has to fit in memory.
 */
export interface BlobInfo {
  readonly path: string
  /** The owning organization (null: platform-level). Downloads are confined to it. */
  readonly orgId: number | null
  readonly contentType: string
  readonly bytes: number
  /** Hex sha256 of the content (also the download's ETag). */
  readonly sha256: string
  readonly createdAt: Date
  readonly expiresAt: Date | null
}

export type BlobBody = string | Uint8Array | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>

export interface PutOptions {
  readonly orgId: number | null
  readonly contentType: string
  readonly expiresAt?: Date | null
}

export interface BlobStore {
  /**
   * Stores `body` at `path`, replacing whatever was there atomically: a reader sees the old file or the
   * new one, never a mix. Throws InvalidBlobPathError for a bad path; a body that fails mid-way leaves the
   * old file in place.
   */
  put(path: string, body: BlobBody, options: PutOptions): Promise<BlobInfo>
  /** The file's metadata, or null when there is none (or it has expired). */
  stat(path: string): Promise<BlobInfo | null>
  /**
   * The content as a stream of chunks. If the file is replaced while it streams, the stream fails rather
   * than mix two versions (the caller already sent the old length and ETag). Null when missing.
   */
  open(path: string): Promise<{ info: BlobInfo; body: Readable } | null>
  /** Removes the file; false when there was none. */
  delete(path: string): Promise<boolean>
}

export class InvalidBlobPathError extends Error {
  constructor(path: string) {
    super(`invalid file path: ${JSON.stringify(path.slice(0, 200))}`)
    this.name = 'InvalidBlobPathError'
  }
}

export class BlobChangedError extends Error {
  constructor(path: string) {
    super(`file ${path} changed while it was being read`)
    this.name = 'BlobChangedError'
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._@+=-]{0,199}$/

/**
 * Relative, 1 to 16 segments of letters, digits and `._@+=-` (not starting with a dot, so no `.`, `..` or
 * hidden names), at most 1,000 characters: safe in a URL, on any file system, and never a traversal.
 */
export function isValidBlobPath(path: string): boolean {
  if (path.length === 0 || path.length > 1000) return false
  const segments = path.split('/')
  return segments.length <= 16 && segments.every((s) => SEGMENT.test(s))
}
