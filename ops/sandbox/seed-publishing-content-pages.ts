import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { createContentPage, updateContentPage } from '../../commands/publishing/content-pages.js'

/**
 * The sandbox's fictional content pages on the client's (fictional) WordPress: a location page the service
 * published and verified live, and a draft waiting for review, so list_content_pages shows both ends.
 */
export async function seedSandboxContentPages(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const live = await createContentPage(write, ctx, {
    callerOrgId: orgId,
    clientId,
    wpPostId: 412,
    jobId: null,
    slug: 'emergency-plumber-round-rock',
    title: 'Emergency Plumber in Round Rock, TX',
    status: 'published',
    verifyJson: '',
  })
  await updateContentPage(write, ctx, {
    callerOrgId: orgId,
    clientId,
    pageId: live.pageId,
    status: 'verified',
    verifyJson: JSON.stringify({
      url: 'https://www.rapidrooterplumbing.example/emergency-plumber-round-rock/',
      checked_at: '2026-01-12T15:04:00.000Z',
      checks: [
        { name: 'status_200', passed: true },
        { name: 'title_matches', passed: true },
        { name: 'indexable', passed: true },
      ],
    }),
  })
  await createContentPage(write, ctx, {
    callerOrgId: orgId,
    clientId,
    wpPostId: 415,
    jobId: null,
    slug: 'tankless-water-heater-austin',
    title: 'Tankless Water Heater Installation in Austin',
    status: 'draft',
    verifyJson: '',
  })
}
