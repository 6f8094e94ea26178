import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { writeReferenceDocsLog } from './content-reference-docs.js'
import { writeBlogLog } from './content-blog.js'
import { writeImagesLog } from './content-images.js'

/** The content area's part of the realistic log. */
export async function writeContentLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  await writeReferenceDocsLog(ts, log, keys)
  await writeBlogLog(ts, log, keys)
  await writeImagesLog(ts, log, keys)
}
