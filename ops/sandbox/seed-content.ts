import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { seedSandboxReferenceDocs } from './seed-content-reference-docs.js'
import { seedSandboxBlog } from './seed-content-blog.js'
import { seedSandboxImages } from './seed-content-images.js'

/** The sandbox's fictional content: reference documents, blog topics and posts, images. */
export async function seedSandboxContent(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await seedSandboxReferenceDocs(write, ctx, orgId, clientId)
  await seedSandboxBlog(write, ctx, orgId, clientId)
  await seedSandboxImages(write, ctx, orgId, clientId)
}
