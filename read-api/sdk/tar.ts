import { gzipSync } from 'node:zlib'

/** One regular file of an archive: a path with forward slashes, and its bytes. */
export interface TarEntry {
  readonly path: string
  readonly data: Buffer
  /** Unix permission bits; 0o644 unless given. */
  readonly mode?: number
}

const BLOCK = 512

/** Writes `value` as a NUL-terminated octal field of `length` bytes at `offset`. */
function octal(header: Buffer, offset: number, length: number, value: number): void {
  const text = value.toString(8).padStart(length - 1, '0')
  if (text.length > length - 1) throw new Error(`tar: ${value} does not fit an octal field of ${length} bytes`)
  header.write(`${text}\0`, offset, length, 'ascii')
}

/** Splits a path into ustar's prefix (≤ 155 bytes) and name (≤ 100 bytes) at a slash. */
function splitPath(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path }
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i)
    const name = path.slice(i + 1)
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name }
  }
  throw new Error(`tar: path too long for ustar: ${path}`)
}

function header(entry: TarEntry, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0)
  const { prefix, name } = splitPath(entry.path)
  h.write(name, 0, 100, 'utf8')
  octal(h, 100, 8, entry.mode ?? 0o644)
  octal(h, 108, 8, 0) // uid
  octal(h, 116, 8, 0) // gid
  octal(h, 124, 12, entry.data.length)
  octal(h, 136, 12, mtime)
  h.fill(0x20, 148, 156) // the checksum is computed with its own field as spaces
  h.write('0', 156, 1, 'ascii') // regular file
  h.write('ustar\0', 257, 6, 'ascii')
  h.write('00', 263, 2, 'ascii')
  h.write('root', 265, 32, 'ascii')
  h.write('root', 297, 32, 'ascii')
  h.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const byte of h) sum += byte
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii')
  return h
}

/**
 * A gzip-compressed POSIX ustar archive of regular files (what Python's tarfile, pip and GNU tar read). The
 * member times are the given mtime, so the same files give the same bytes (a stable sha256 and ETag).
 */
export function tarGz(entries: readonly TarEntry[], mtime: number): Buffer {
  const parts: Buffer[] = []
  for (const entry of entries) {
    parts.push(header(entry, mtime), entry.data)
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK
    if (pad > 0) parts.push(Buffer.alloc(pad, 0))
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0)) // end of archive: two zero blocks
  return gzipSync(Buffer.concat(parts), { level: 9 })
}
