import { createHash } from 'node:crypto'
import type { RpcRegistry } from '../registry.js'
import { generatePythonSdk } from './generate.js'
import { tarGz } from './tar.js'
import { SDK_NAME, SDK_VERSION } from './version.js'

export interface SdkArchive {
  /** e.g. rankrelay-1.0.0.tar.gz */
  readonly filename: string
  readonly bytes: Buffer
  readonly sha256: string
  readonly fingerprint: string
}

/** Member times in the archive: fixed (1980-01-01), so the same registry always gives the same bytes. */
const MTIME = 315532800

export const ARCHIVE_FILENAME = `${SDK_NAME}-${SDK_VERSION}.tar.gz`
/** A stable name that always serves the current archive. */
export const LATEST_FILENAME = `${SDK_NAME}-latest.tar.gz`

/** The source archive pip installs: every file under `<name>-<version>/`, as an sdist is laid out. */
export function buildSdkArchive(registry: RpcRegistry): SdkArchive {
  const { files, fingerprint } = generatePythonSdk(registry)
  const root = `${SDK_NAME}-${SDK_VERSION}`
  const bytes = tarGz(
    files.map((f) => ({ path: `${root}/${f.path}`, data: f.data })),
    MTIME,
  )
  return { filename: ARCHIVE_FILENAME, bytes, sha256: createHash('sha256').update(bytes).digest('hex'), fingerprint }
}

const built = new WeakMap<RpcRegistry, SdkArchive>()

/** The archive of a registry, built on first use and kept: the registry does not change while a process runs. */
export function sdkArchiveFor(registry: RpcRegistry): SdkArchive {
  let archive = built.get(registry)
  if (!archive) {
    archive = buildSdkArchive(registry)
    built.set(registry, archive)
  }
  return archive
}
