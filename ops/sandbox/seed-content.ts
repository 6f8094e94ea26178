import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import type { BlobStore } from '../../commands/files/blob-store.js'
import { seedSandboxReferenceDocs } from './seed-content-reference-docs.js'
import { seedSandboxBlog } from './seed-content-blog.js'
import { seedSandboxImages } from './seed-content-images.js'

/** The sandbox's fictional content: reference documents, blog topics and posts, images (their files in `blobs`). */
export async function seedSandboxContent(
  write: WriteDeps,
  ctx: CommandContext,
  orgId: number,
  clientId: number,
  blobs: BlobStore,
): Promise<void> {
  await seedSandboxReferenceDocs(write, ctx, orgId, clientId)
  await seedSandboxBlog(write, ctx, orgId, clientId)
  await seedSandboxImages(write, ctx, orgId, clientId, blobs)
}
