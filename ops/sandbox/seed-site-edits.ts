import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { addPage, recordSnapshot } from '../../commands/pages.js'
import { stageSiteEdit } from '../../commands/site-edits.js'
import { BUILT_IN_WRITER, builtInRewrite } from '../../domain/site-edits/built-in-writer.js'
import { ELEMENTOR_REWRITE, type RewritePayload } from '../../domain/site-edits/rewrite-payload.js'

/** The sandbox client's site: two pages with content, and one proposed rewrite (so every page and site-edit read has data). */
const PAGES = [
  { path: '/', title: 'Home', wp_post_id: 2, content: '<h1>Fast, friendly plumbing</h1><p>Call 555-0100 for same-day service.</p>' },
  {
    path: '/services/drain-cleaning',
    title: 'Drain Cleaning',
    wp_post_id: 14,
    content: '<h1>Drain Cleaning</h1><p>Clogged drains cleared in an hour.</p>',
  },
] as const

const INSTRUCTION = 'replace "in an hour" with "in about an hour"; add "Licensed and insured."'

export async function seedSandboxSite(
  write: WriteDeps,
  ctx: CommandContext,
  orgId: number,
  clientId: number,
  websiteUrl: string,
): Promise<void> {
  const base = websiteUrl.replace(/\/+$/, '')
  for (const page of PAGES) {
    const url = `${base}${page.path}`
    const { pageId } = await addPage(write, ctx, { orgId, clientId, url, title: page.title, wpPostId: page.wp_post_id })
    const { snapshotId } = await recordSnapshot(write, ctx, {
      orgId,
      clientId,
      pageId,
      title: page.title,
      content: page.content,
      source: 'add_snapshot',
      editId: null,
    })
    if (page.path === '/') continue
    const rewrite = builtInRewrite(page.content, INSTRUCTION)
    const payload: RewritePayload = {
      instruction: INSTRUCTION,
      page_id: pageId,
      page_url: url,
      wp_post_id: page.wp_post_id,
      before_snapshot_id: snapshotId,
      before_excerpt: rewrite.beforeExcerpt,
      proposed_content: rewrite.content,
      summary: rewrite.summary,
      writer: BUILT_IN_WRITER,
    }
    await stageSiteEdit(write, ctx, {
      orgId,
      clientId,
      operation: ELEMENTOR_REWRITE,
      pageUrl: url,
      pageId,
      payload: JSON.stringify(payload),
      jobId: null,
    })
  }
}
