import { stageSiteEdit } from '../../../commands/site-edits.js'
import type { PageRef } from '../../../domain/jobs/kinds.js'
import { pageUrlKey } from '../../../domain/pages/url.js'
import { BUILT_IN_WRITER, builtInRewrite } from '../../../domain/site-edits/built-in-writer.js'
import { SITE_EDIT_PAYLOAD_MAX_LENGTH } from '../../../domain/site-edits/events.js'
import { ELEMENTOR_REWRITE, type RewritePayload } from '../../../domain/site-edits/rewrite-payload.js'
import type { z } from 'zod'
import { latestSnapshot, pagesForClient, type PageRow } from '../../../projections/pages/queries.js'
import { editOfJobForPage } from '../../../projections/site-edits/queries.js'
import type { LanguageModel } from '../../language-model/port.js'
import type { JobContext, JobHandler } from '../handler.js'
import { livePage, liveTarget } from './prompted-edit-live.js'

/**
 * prompted_edit: for each target page, rewrite its current content (its newest snapshot) by the instruction
 * and stage a proposed site edit (operation elementor_rewrite, payload RewritePayload as JSON).
 *
 * - Targets: `pages` (each a wp_post_id, a slug or a URL) or, by default, the client's active pages. A
 *   reference that matches no page of the client fails the job before anything is staged, naming it.
 * - Writer: the configured language model, else the deterministic built-in writer (domain/site-edits).
 * - Per page, `status` is staged (edit_id set), proposed (dry_run: nothing staged), unchanged (the writer
 *   changed nothing: nothing staged) or skipped (the page has no content yet: add_snapshot first).
 * - Source: for a client whose WordPress site is connected, the live post (prompted-edit-live.ts: the raw
 *   content, or an Elementor page's widget text), its version recorded in the payload's `wordpress` so apply
 *   refuses if the page changes on the site meanwhile; otherwise the newest snapshot.
 * - `refresh` is recorded in the result; the source is always the freshest the service can read.
 * - A resumed job (attempt > 1) reuses the edit it already staged for a page instead of staging it twice.
 */
const SYSTEM = [
  'You edit one web page of a small business website by a plain-English instruction.',
  'Answer with the complete new page content only, in the same format as the given content (HTML stays HTML),',
  'changing only what the instruction asks. No explanations, no code fences.',
].join(' ')

type Ref = z.infer<typeof PageRef>

export interface PageResult {
  page_id: number
  url: string
  slug: string
  wp_post_id: number | null
  status: 'staged' | 'proposed' | 'unchanged' | 'skipped'
  edit_id: number | null
  summary: string
  writer: string | null
  before_excerpt: string
  proposed_content: string | null
}

/** The pages the references name, in the order given (a page named twice once); unknown references are returned apart. */
export function resolvePages(pages: readonly PageRow[], refs: readonly Ref[]): { found: PageRow[]; unknown: Ref[] } {
  const found: PageRow[] = []
  const unknown: Ref[] = []
  for (const ref of refs) {
    const page =
      typeof ref === 'number'
        ? pages.find((p) => p.wp_post_id === ref)
        : (pages.find((p) => pageUrlKey(p.url) === pageUrlKey(ref)) ??
          pages.find((p) => p.slug !== '' && p.slug === ref.replace(/^\/+|\/+$/g, '')))
    if (!page) unknown.push(ref)
    else if (!found.includes(page)) found.push(page)
  }
  return { found, unknown }
}

async function rewrite(model: LanguageModel | null, content: string, title: string, instruction: string, signal: AbortSignal) {
  if (!model) {
    const result = builtInRewrite(content, instruction)
    return { content: result.content, summary: result.summary, excerpt: result.beforeExcerpt, writer: BUILT_IN_WRITER }
  }
  const prompt = `Instruction: ${instruction}\n\nPage title: ${title}\n\nCurrent content:\n${content}`
  const proposed = await model.complete({ system: SYSTEM, prompt, signal })
  const summary = `rewritten by ${model.name}`
  return { content: proposed, summary, excerpt: content.slice(0, 240), writer: model.name }
}

export const promptedEdit: JobHandler<'prompted_edit'> = async (ctx: JobContext<'prompted_edit'>) => {
  const { job } = ctx
  const clientId = job.clientId!
  const { instruction, dry_run: dryRun = false, refresh = 'auto' } = job.payload
  const all = await pagesForClient(ctx.read, clientId, false)
  let targets: PageRow[]
  if (job.payload.pages) {
    const { found, unknown } = resolvePages(all, job.payload.pages)
    if (unknown.length > 0)
      throw new Error(
        `unknown pages for client ${clientId}: ${unknown.map((r) => JSON.stringify(r)).join(', ')} (get_pages_for_client lists its pages)`,
      )
    targets = found
  } else {
    targets = all.filter((p) => p.active)
    if (targets.length === 0)
      throw new Error(`client ${clientId} has no active pages: add them with add_page (and their content with add_snapshot) first`)
  }

  // A connected site is the source of every page's content; its failures fail the job (nothing half-read is staged).
  const site = ctx.sites ? await ctx.sites.connected(clientId, ctx.signal) : null
  const results: PageResult[] = []
  for (const [index, page] of targets.entries()) {
    ctx.signal.throwIfAborted()
    await ctx.progress(index, targets.length, `page ${page.url}`)
    const base = { page_id: page.id, url: page.url, slug: page.slug, wp_post_id: page.wp_post_id }
    const already = dryRun ? undefined : await editOfJobForPage(ctx.read, job.jobId, page.id)
    if (already) {
      results.push({
        ...base,
        status: 'staged',
        edit_id: already.id,
        summary: 'staged by an earlier attempt of this job',
        writer: null,
        before_excerpt: '',
        proposed_content: null,
      })
      continue
    }
    const skipped = (summary: string) =>
      results.push({ ...base, status: 'skipped', edit_id: null, summary, writer: null, before_excerpt: '', proposed_content: null })
    const before = await latestSnapshot(ctx.read, page.id)
    const live = site ? await livePage(site, page) : null
    if (site && !live) {
      skipped('the connected WordPress site has no page or post for it (set its wp_post_id with update_page)')
      continue
    }
    if (!live && !before) {
      skipped('the page has no content yet (add_snapshot)')
      continue
    }
    const source = live ? { content: live.text, title: live.title } : before!
    const written = await rewrite(ctx.languageModel, source.content, source.title, instruction, ctx.signal)
    if (written.content === source.content) {
      results.push({
        ...base,
        status: 'unchanged',
        edit_id: null,
        summary: written.summary,
        writer: written.writer,
        before_excerpt: written.excerpt,
        proposed_content: null,
      })
      continue
    }
    const target = live ? liveTarget(live, written.content) : null
    if (target && 'problem' in target) {
      skipped(target.problem)
      continue
    }
    const proposed = target ? target.proposedContent : written.content
    const payload: RewritePayload = {
      instruction,
      page_id: page.id,
      page_url: page.url,
      wp_post_id: live ? live.found.post.id : page.wp_post_id,
      before_snapshot_id: before?.id ?? null,
      before_excerpt: written.excerpt,
      proposed_content: proposed,
      summary: written.summary,
      writer: written.writer,
      ...(target ? { wordpress: target.wordpress } : {}),
    }
    const payloadText = JSON.stringify(payload)
    if (payloadText.length > SITE_EDIT_PAYLOAD_MAX_LENGTH) {
      // A live Elementor page carries its data twice (proposed and before): one that large is not staged whole.
      skipped(`the edit would be ${payloadText.length} characters, more than a site edit holds (${SITE_EDIT_PAYLOAD_MAX_LENGTH})`)
      continue
    }
    let editId: number | null = null
    if (!dryRun) {
      const staged = await stageSiteEdit(ctx.write, ctx.command, {
        orgId: job.orgId,
        clientId,
        operation: ELEMENTOR_REWRITE,
        pageUrl: page.url,
        pageId: page.id,
        payload: payloadText,
        jobId: job.jobId,
      })
      editId = staged.editId
      await ctx.settle(staged.position)
    }
    results.push({
      ...base,
      wp_post_id: payload.wp_post_id,
      status: dryRun ? 'proposed' : 'staged',
      edit_id: editId,
      summary: written.summary,
      writer: written.writer,
      before_excerpt: written.excerpt,
      proposed_content: proposed,
    })
  }
  await ctx.progress(targets.length, targets.length, 'done')
  return {
    dry_run: dryRun,
    refresh,
    instruction,
    staged: results.filter((r) => r.status === 'staged').length,
    pages: results,
  }
}
