import { addPage } from '../../../commands/pages.js'
import { metaSubject } from '../../../commands/search/insights/meta-optimizations.js'
import type { ClientState } from '../../../domain/clients/client.js'
import { draftPageContent, draftPageTitle, draftPageUrl, type DraftBrief } from '../../../domain/planning/execution/draft-page.js'
import { linkSources, withLinkTo, type LinkCandidate } from '../../../domain/planning/execution/internal-links.js'
import { closestLivePage } from '../../../domain/planning/execution/redirect-target.js'
import { pageUrlKey } from '../../../domain/pages/url.js'
import { REDIRECT_OPERATION, type RedirectPayload, redirectPayloadProblem } from '../../../domain/publishing/redirects/redirect-payload.js'
import { withMetaTags } from '../../../domain/search/insights/head-tags.js'
import { BUILT_IN_META_WRITER } from '../../../domain/search/insights/meta-limits.js'
import { metaRewriteRequest, readMetaRewriteAnswer } from '../../../domain/search/insights/meta-model-answer.js'
import { META_REWRITE } from '../../../domain/search/insights/meta-payload.js'
import { builtInMetaRewrite, locationForQuery } from '../../../domain/search/insights/meta-writer.js'
import { latestSnapshot, pagesForClient, type PageRow } from '../../../projections/pages/queries.js'
import { metaReads } from '../../../projections/search/insights/reads.js'
import type { JobContext, JobRun } from '../../jobs/handler.js'

/**
 * What carrying out one automatable action item stages: the site edits (operation, page, payload) of its type.
 * Every payload names `action_item_id`, so a resumed job finds the edits it staged for an item (carry-out-item.ts)
 * and stages none twice. The writers are the service's own: the meta writer of search insights (model, else
 * the built-in writer) for titles and descriptions, the planning templates (domain/planning/execution) for
 * links, redirects and draft pages.
 */
export const REDIRECT = REDIRECT_OPERATION
export const INTERNAL_LINK = 'internal_link'
export const CREATE_PAGE = 'create_page'

const MODEL_TIMEOUT_MS = 60_000
const META_MAX_TOKENS = 400
const DRAFT_MAX_TOKENS = 2000
const BUILT_IN = 'built-in'

export interface ItemToCarry {
  readonly itemId: number
  readonly month: string | null
  readonly actionType: string
  readonly pageUrl: string
  readonly description: string
  readonly sourceKey: string | null
  /** pending, or in_progress with edits the service staged (continued: applied and done). */
  readonly status: 'pending' | 'in_progress'
}

export interface PlannedEdit {
  readonly operation: string
  readonly pageId: number | null
  readonly pageUrl: string
  /** JSON-able; action_item_id its first key (itemPayloadPrefix), and, when publishable, proposed_content (+ page_id, title). */
  readonly payload: Record<string, unknown> & { action_item_id: number }
}

/** The edits to stage, or why the item cannot be carried out now (it stays pending). */
export type EditPlan = { readonly edits: PlannedEdit[] } | { readonly refused: string }

/**
 * What carrying out items needs of a job's context: any kind's (execute_tier_a, fulfill_selected, and autopilot,
 * which carries out the month through carryOutMonth).
 */
export type CarryContext = Pick<
  JobContext,
  'store' | 'write' | 'command' | 'read' | 'languageModel' | 'log' | 'clock' | 'signal' | 'settle' | 'sitePublisher' | 'sites'
> & {
  readonly job: Pick<JobRun, 'jobId' | 'orgId' | 'attempt'>
}

export interface PlanDeps {
  readonly ctx: CarryContext
  readonly owner: ClientState
  /** Pages (or, for internal_links, source pages) that already have an edit of this job for the item. */
  readonly alreadyStaged: ReadonlySet<number>
}

const refused = (reason: string): EditPlan => ({ refused: reason })

/** How every payload of an item's edit begins (action_item_id is its first key): carry-out-item.ts finds them by it. */
export const itemPayloadPrefix = (itemId: number) => `{"action_item_id":${itemId},`

/** The insight an item came from (source key `insight:<id>`), for its query or keyword. */
async function sourceEvidence(deps: PlanDeps, item: ItemToCarry): Promise<Record<string, unknown>> {
  const match = /^insight:(\d+)$/.exec(item.sourceKey ?? '')
  if (!match) return {}
  const insight = await metaReads(deps.ctx.read).insight(deps.owner.id, Number(match[1]))
  return insight?.evidence ?? {}
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** A phrase in quotes in the item's description (a person's item names its keyword so: `Draft a page for "x"`). */
const quotedPhrase = (item: ItemToCarry): string => (/["“]([^"”]{2,100})["”]/.exec(item.description)?.[1] ?? '').trim()

function pageOfUrl(pages: readonly PageRow[], url: string): PageRow | undefined {
  if (url.trim() === '') return undefined
  const key = pageUrlKey(url)
  return pages.find((p) => pageUrlKey(p.url) === key)
}

async function titleMetaRewrite(deps: PlanDeps, item: ItemToCarry, pages: readonly PageRow[]): Promise<EditPlan> {
  const page = pageOfUrl(pages, item.pageUrl)
  if (!page) return refused(`the item's page_url "${item.pageUrl}" names no page of the client (add_page first)`)
  const evidence = await sourceEvidence(deps, item)
  const snapshot = await latestSnapshot(deps.ctx.read, page.id)
  const query =
    textOf(evidence.query) ||
    textOf(evidence.keyword) ||
    quotedPhrase(item) ||
    snapshot?.title ||
    page.title ||
    page.slug.replace(/[-_/]+/g, ' ')
  if (query.trim() === '') return refused('no query to write the title for: the page has no title and the item no insight')
  const subject = await metaSubject(deps.ctx.write, metaReads(deps.ctx.read), {
    clientId: deps.owner.id,
    callerOrgId: deps.ctx.job.orgId,
    pageId: page.id,
    query,
  })
  const brief = subject.brief
  let rewrite = null
  let writer = BUILT_IN_META_WRITER
  const model = deps.ctx.languageModel
  if (model) {
    try {
      const text = await model.complete({
        ...metaRewriteRequest({ ...brief, pageUrl: page.url, pageText: subject.page.snapshot?.content ?? '' }),
        maxTokens: META_MAX_TOKENS,
        signal: AbortSignal.any([deps.ctx.signal, AbortSignal.timeout(MODEL_TIMEOUT_MS)]),
      })
      rewrite = readMetaRewriteAnswer(text)
      if (rewrite) writer = model.name
    } catch (error) {
      deps.ctx.signal.throwIfAborted()
      deps.ctx.log.warn({ err: error, model: model.name }, 'meta rewrite by the language model failed; the built-in writer writes it')
    }
  }
  rewrite ??= builtInMetaRewrite(brief)
  const content = subject.page.snapshot?.content ?? ''
  return {
    edits: [
      {
        operation: META_REWRITE,
        pageId: page.id,
        pageUrl: page.url,
        payload: {
          action_item_id: item.itemId,
          page_id: page.id,
          page_url: page.url,
          query: brief.query,
          title: rewrite.title,
          description: rewrite.description,
          current_title: brief.currentTitle,
          current_description: brief.currentDescription,
          before_snapshot_id: subject.page.snapshot?.id ?? null,
          proposed_content: withMetaTags(content, rewrite.title, rewrite.description),
          writer,
        },
      },
    ],
  }
}

async function redirect(deps: PlanDeps, item: ItemToCarry, pages: readonly PageRow[]): Promise<EditPlan> {
  if (item.pageUrl.trim() === '') return refused('the item names no page_url to redirect from')
  const from = pageOfUrl(pages, item.pageUrl)
  const live = []
  for (const page of pages) {
    if (!page.active || page.id === from?.id) continue
    const snapshot = await latestSnapshot(deps.ctx.read, page.id)
    const status = snapshot?.state?.status
    if (status !== undefined && status >= 400) continue // gone too: never a redirect's target
    live.push({ id: page.id, url: page.url, title: snapshot?.title || page.title })
  }
  const to = closestLivePage(item.pageUrl, live)
  if (!to) return refused('the client has no live page to redirect to')
  const payload = {
    action_item_id: item.itemId,
    from_url: item.pageUrl,
    to_url: to.url,
    status_code: 301,
    to_page_id: to.id,
  } satisfies RedirectPayload
  const problem = redirectPayloadProblem(JSON.stringify(payload), deps.owner.websiteUrl)
  if (problem !== null) return refused(`the redirect cannot be staged: ${problem}`)
  return { edits: [{ operation: REDIRECT, pageId: from?.id ?? null, pageUrl: item.pageUrl, payload }] }
}

async function internalLinks(deps: PlanDeps, item: ItemToCarry, pages: readonly PageRow[]): Promise<EditPlan> {
  const target = pageOfUrl(pages, item.pageUrl)
  if (!target) return refused(`the item's page_url "${item.pageUrl}" names no page of the client (add_page first)`)
  const evidence = await sourceEvidence(deps, item)
  const targetSnapshot = await latestSnapshot(deps.ctx.read, target.id)
  const title = targetSnapshot?.title || target.title
  const anchor = textOf(evidence.keyword) || textOf(evidence.query) || title || target.url
  const candidates: (LinkCandidate & { snapshotId: number })[] = []
  for (const page of pages) {
    if (!page.active || page.id === target.id || deps.alreadyStaged.has(page.id)) continue
    const snapshot = await latestSnapshot(deps.ctx.read, page.id)
    if (!snapshot || snapshot.content.trim() === '') continue
    if (snapshot.state && snapshot.state.status >= 400) continue
    candidates.push({ id: page.id, url: page.url, title: snapshot.title || page.title, content: snapshot.content, snapshotId: snapshot.id })
  }
  const room = 3 - deps.alreadyStaged.size
  const sources = linkSources({ id: target.id, url: target.url, title, anchor }, candidates, room) as typeof candidates
  if (sources.length === 0 && deps.alreadyStaged.size === 0)
    return refused('no other page of the client with content could link to it (or all already do)')
  return {
    edits: sources.map((source) => ({
      operation: INTERNAL_LINK,
      pageId: source.id,
      pageUrl: source.url,
      payload: {
        action_item_id: item.itemId,
        page_id: source.id,
        page_url: source.url,
        target_page_id: target.id,
        target_url: target.url,
        anchor_text: anchor,
        before_snapshot_id: source.snapshotId,
        proposed_content: withLinkTo(source.content, { url: target.url, anchor })!,
        writer: BUILT_IN,
      },
    })),
  }
}

const DRAFT_SYSTEM = [
  'You write the first draft of one web page of a small business website, for the given search keyword.',
  'Answer with the page body as simple HTML only (an h1, paragraphs, at most a few h2 sections and lists), no explanations, no code fences.',
  'State no facts you are not given: no prices, discounts, ratings, licences, guarantees or years in business.',
].join(' ')

async function draftContent(deps: PlanDeps, brief: DraftBrief): Promise<{ content: string; writer: string }> {
  const model = deps.ctx.languageModel
  if (model) {
    try {
      const text = await model.complete({
        system: DRAFT_SYSTEM,
        prompt: JSON.stringify({ keyword: brief.keyword, business: brief.business, location: brief.location, services: brief.services }),
        maxTokens: DRAFT_MAX_TOKENS,
        signal: AbortSignal.any([deps.ctx.signal, AbortSignal.timeout(MODEL_TIMEOUT_MS)]),
      })
      const content = text.replace(/^```(?:html)?\s*|\s*```$/g, '').trim()
      if (/<(h1|p)\b/i.test(content)) return { content, writer: model.name }
    } catch (error) {
      deps.ctx.signal.throwIfAborted()
      deps.ctx.log.warn({ err: error, model: model.name }, 'draft page by the language model failed; the template writes it')
    }
  }
  return { content: draftPageContent(brief), writer: BUILT_IN }
}

/** The keyword a create_page item is for: its insight's keyword, else its description's quoted phrase. */
function keywordOf(evidence: Record<string, unknown>, item: ItemToCarry): string {
  return textOf(evidence.keyword) || textOf(evidence.query) || quotedPhrase(item)
}

async function createPage(deps: PlanDeps, item: ItemToCarry, pages: readonly PageRow[]): Promise<EditPlan> {
  const evidence = await sourceEvidence(deps, item)
  const keyword = keywordOf(evidence, item)
  if (keyword === '') return refused('no keyword to write a page for (the item has no keyword_without_page insight or quoted keyword)')
  const url = draftPageUrl(deps.owner.websiteUrl, keyword)
  const existing = pageOfUrl(pages, url)
  if (existing && (await latestSnapshot(deps.ctx.read, existing.id))) return refused(`a page with content already exists at ${url}`)
  const brief: DraftBrief = {
    keyword,
    business: deps.owner.name,
    location: locationForQuery(
      keyword,
      deps.owner.locations.map((l) => l.name),
    ),
    services: deps.owner.services.map((s) => s.name),
  }
  const title = draftPageTitle(brief)
  // A draft: inactive until it is live on the site. add_page is get-or-create by URL, so a re-run reuses it.
  const added = await addPage(deps.ctx.write, deps.ctx.command, {
    orgId: deps.owner.orgId,
    clientId: deps.owner.id,
    url,
    title,
    active: false,
  })
  await deps.ctx.settle(added.position)
  const draft = await draftContent(deps, brief)
  return {
    edits: [
      {
        operation: CREATE_PAGE,
        pageId: added.pageId,
        pageUrl: url,
        payload: {
          action_item_id: item.itemId,
          page_id: added.pageId,
          page_url: url,
          keyword,
          title,
          before_snapshot_id: null,
          proposed_content: draft.content,
          writer: draft.writer,
        },
      },
    ],
  }
}

/** The edits that carry the item out (those not staged already by this job), or why it cannot be now. */
export async function planItemEdits(deps: PlanDeps, item: ItemToCarry): Promise<EditPlan> {
  const pages = await pagesForClient(deps.ctx.read, deps.owner.id, false)
  switch (item.actionType) {
    case 'title_meta_rewrite':
      return titleMetaRewrite(deps, item, pages)
    case 'redirect':
      return redirect(deps, item, pages)
    case 'internal_links':
      return internalLinks(deps, item, pages)
    case 'create_page':
      return createPage(deps, item, pages)
    default:
      return refused(`action type ${item.actionType} is not carried out by the service`)
  }
}
