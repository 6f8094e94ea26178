import { z } from 'zod'
import { refreshSeoInsights, changeSeoInsightStatus } from '../../../commands/search/insights/insights.js'
import {
  metaSubject,
  proposeMetaOptimization,
  recordMetaEditOutcome,
  rejectMetaOptimization,
  stageMetaOptimization,
} from '../../../commands/search/insights/meta-optimizations.js'
import { applySiteEdit } from '../../../commands/site-edits.js'
import {
  InsightSource,
  InsightStatus,
  InsightType,
  SettableInsightStatus,
  INSIGHT_SEVERITIES,
} from '../../../domain/search/insights/kinds.js'
import {
  BUILT_IN_META_WRITER,
  cleanMetaText,
  MANUAL_META_WRITER,
  META_DESCRIPTION_MAX_CHARS,
  META_TITLE_MAX_CHARS,
  metaLength,
} from '../../../domain/search/insights/meta-limits.js'
import { META_OPTIMIZATION_STATUSES } from '../../../domain/search/insights/meta-optimization-set.js'
import { builtInMetaRewrite } from '../../../domain/search/insights/meta-writer.js'
import { DomainError, NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { visiblePage } from '../../../projections/pages/queries.js'
import {
  countRecentMetaOptimizations,
  liveInsightCounts,
  metaOptimizationStats,
  metaOptimizationsOfClient,
  metaOptimizationView,
  seoInsightsOfClient,
  seoInsightView,
  visibleMetaOptimization,
  visibleSeoInsight,
} from '../../../projections/search/insights/queries.js'
import { insightReads, metaReads } from '../../../projections/search/insights/reads.js'
import { ApiError } from '../../errors.js'
import { rpc, type AnyRpc, type RpcContext } from '../../registry.js'
import { ClientId, EditId, KeywordId, PageId } from '../ids.js'

const domain = 'search'

const InsightId = Id.describe('The SEO insight (an integer id, as get_seo_insights answered)')
const OptimizationId = Id.describe('The meta optimization (an integer id, as get_meta_optimizations or propose_meta_optimization answered)')
const OptimizationStatus = z
  .enum(META_OPTIMIZATION_STATUSES)
  .describe('proposed, staged (a site edit waits for apply), applied, rejected or rolled_back (its site edit was rolled back)')

const SeoInsightSchema = z
  .object({
    id: InsightId,
    client_id: ClientId,
    insight_type: InsightType,
    source: InsightSource,
    severity: z.enum(INSIGHT_SEVERITIES).describe('high, medium or low: how much acting on it is worth'),
    summary: z.string().describe('One line saying what was found'),
    keyword_id: KeywordId.nullable().describe('The keyword it is about, when it is about one'),
    page_id: PageId.nullable().describe('The client page it is about (or the one to act on), when there is one'),
    evidence: z
      .record(z.string(), z.unknown())
      .describe(
        'The numbers that justify it, as they were when it was raised; the fields depend on insight_type (see the developer guide)',
      ),
    status: InsightStatus,
    applied: z.boolean().describe('status is applied: someone acted on it'),
    note: z.string().describe("The last status change's note ('' when none)"),
    natural_key: z.string().describe('What makes it the same insight (type and subject): one insight per key while it holds'),
    raised_at: z.string().describe('When it was raised (ISO 8601)'),
    status_changed_at: z.string().nullable().describe('When someone last set its status'),
    resolved_at: z.string().nullable().describe('When it stopped holding (status resolved)'),
  })
  .describe('An SEO insight')

const exampleInsight = {
  id: 812,
  client_id: 34,
  insight_type: 'low_ctr' as const,
  source: 'gsc' as const,
  severity: 'high' as const,
  summary:
    '"drain cleaning austin" on https://acmeplumbing.com/drain-cleaning/: CTR 1.0% at position 3.0, where 11.0% is usual (about 100 clicks missed)',
  keyword_id: 1501,
  page_id: 220,
  evidence: {
    query: 'drain cleaning austin',
    page_url: 'https://acmeplumbing.com/drain-cleaning/',
    impressions: 1000,
    clicks: 10,
    ctr: 0.01,
    position: 3,
    expected_ctr: 0.11,
    missed_clicks: 100,
    period_start: '2026-09-01',
    period_end: '2026-09-28',
  },
  status: 'open' as const,
  applied: false,
  note: '',
  natural_key: 'low_ctr:https://acmeplumbing.com/drain-cleaning|drain cleaning austin',
  raised_at: '2026-10-01T06:00:00.000Z',
  status_changed_at: null,
  resolved_at: null,
}

const MetaOptimizationSchema = z
  .object({
    id: OptimizationId,
    client_id: ClientId,
    page_id: PageId,
    page_url: z.string().describe('The page the rewrite is for'),
    insight_id: InsightId.nullable().describe('The low_ctr insight it answers; null when proposed without one'),
    query: z.string().describe("The search query it is written for ('' when none)"),
    location: z.string().describe("The client location written into it ('' when none)"),
    current_title: z.string().describe("The page's title when it was proposed"),
    current_description: z.string().describe("The page's meta description when it was proposed ('' when it had none)"),
    proposed_title: z.string().describe(`The new title, at most ${META_TITLE_MAX_CHARS} characters`),
    proposed_description: z.string().describe(`The new meta description, at most ${META_DESCRIPTION_MAX_CHARS} characters`),
    writer: z.string().describe('built-in (the deterministic writer), manual (a person wrote it) or the language model as provider:model'),
    status: OptimizationStatus,
    edit_id: EditId.nullable().describe('The site edit it was staged as (operation meta_rewrite); null until staged'),
    proposed_by: z.string().describe('Who proposed it, as <actor kind>:<actor id> (system:seo-meta-proposer for automatic proposals)'),
    rejected_by: z.string().nullable().describe('Who rejected it'),
    reject_reason: z.string().nullable().describe('Why it was rejected'),
    created_at: z.string().describe('When it was proposed (ISO 8601)'),
    staged_at: z.string().nullable().describe('When it was staged'),
    applied_at: z.string().nullable().describe('When its site edit was published'),
    rejected_at: z.string().nullable().describe('When it was rejected'),
    rolled_back_at: z.string().nullable().describe('When its site edit was rolled back'),
  })
  .describe('A proposed title and meta description rewrite of a page')

const exampleOptimization = {
  id: 95,
  client_id: 34,
  page_id: 220,
  page_url: 'https://acmeplumbing.com/drain-cleaning/',
  insight_id: 812,
  query: 'drain cleaning austin',
  location: 'Austin, TX',
  current_title: 'Drain Cleaning',
  current_description: '',
  proposed_title: 'Drain Cleaning Austin | Acme Plumbing',
  proposed_description: 'Looking for drain cleaning austin? Acme Plumbing can help. Get in touch today.',
  writer: 'built-in',
  status: 'proposed' as const,
  edit_id: null,
  proposed_by: 'system:seo-meta-proposer',
  rejected_by: null,
  reject_reason: null,
  created_at: '2026-10-01T06:00:01.000Z',
  staged_at: null,
  applied_at: null,
  rejected_at: null,
  rolled_back_at: null,
}

const INSIGHTS =
  'Insight types: rank_drop (ranks), keyword_without_page (crawl), cannibalization (gsc or ranks), low_ctr (gsc), ai_overview_without_client (ranks), ai_answers_without_client (aeo). ' +
  'Statuses: open → applied or dismissed (update_seo_insight) → resolved once it no longer holds (final; if it comes back a new insight is raised). ' +
  'Insights are refreshed when ranks, Search Console captures, associations, keywords or pages change, and by refresh_seo_insights.'

const META =
  'States: proposed → staged (stage_meta_optimization: a site edit with operation meta_rewrite) → applied (apply_meta_optimization, or apply_site_edit of that edit) → rolled_back (rollback_site_edit); proposed or staged → rejected. ' +
  'At most one proposed or staged optimization per page. Low-CTR insights get one proposed automatically (by the language model when configured, else the built-in writer), unless the page had one in the last 7 days.'

async function insightAfterWrite(ctx: RpcContext<unknown>, insightId: number) {
  await ctx.settle()
  return seoInsightView(await visibleSeoInsight(ctx.read, ctx.orgId, insightId))
}

async function optimizationAfterWrite(ctx: RpcContext<unknown>, optimizationId: number) {
  await ctx.settle()
  return metaOptimizationView(await visibleMetaOptimization(ctx.read, ctx.orgId, optimizationId))
}

/** Staging and applying one optimization run one at a time across processes, so two calls never make two site edits. */
function oneAtATime<T>(ctx: RpcContext<{ optimization_id: number }>, work: () => Promise<T>): Promise<T> {
  return ctx.locks.withLock(`meta_optimization:${ctx.params.optimization_id}`, work)
}

const MetaText = (max: number, what: string) =>
  z
    .string()
    .transform(cleanMetaText)
    .refine((text) => text.length > 0, 'must not be empty')
    .refine((text) => metaLength(text) <= max, `at most ${max} characters`)
    .describe(`${what}, at most ${max} characters (default: written by the built-in writer)`)

export const insightsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_seo_insights',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's SEO insights, most severe first, then newest: by default every insight that still holds (open, applied, dismissed); " +
      `status picks one status (resolved for history). ${INSIGHTS}`,
    example: { params: { client_id: 34, insight_type: 'low_ctr', applied: false }, result: [exampleInsight] },
    params: z.strictObject({
      client_id: ClientId,
      insight_type: InsightType.optional().describe('Only insights of this type'),
      applied: z.boolean().optional().describe('true: only applied insights; false: only those not applied (open or dismissed)'),
      source: InsightSource.optional().describe('Only insights from this source: ranks, gsc, crawl or aeo'),
      status: InsightStatus.optional().describe(
        'Only insights of this status (default: open, applied and dismissed; resolved ones only when asked)',
      ),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 100 },
    result: z.array(SeoInsightSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const p = ctx.params
      return seoInsightsOfClient(
        ctx.read,
        client.id,
        { insightType: p.insight_type, applied: p.applied, source: p.source, status: p.status },
        ctx.page!,
      )
    },
  }),
  rpc({
    name: 'get_unapplied_insights',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `A client's open SEO insights (not applied, not dismissed, still holding), most severe first, then newest: the work list. ${INSIGHTS}`,
    example: { params: { client_id: 34 }, result: [exampleInsight] },
    params: z.strictObject({ client_id: ClientId }),
    paginated: { maxLimit: 1000, defaultLimit: 100 },
    result: z.array(SeoInsightSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return seoInsightsOfClient(ctx.read, client.id, { status: 'open' }, ctx.page!)
    },
  }),
  rpc({
    name: 'refresh_seo_insights',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Derive the client's insights now from its ranks, Search Console rows, pages, keywords and AI Visibility answers: new findings are raised, " +
      'insights that no longer hold are resolved. Running it again on the same data changes nothing. Returns what changed and what holds.',
    example: {
      params: { client_id: 34 },
      result: { client_id: 34, raised: 3, resolved: 1, open: 7, applied: 2, dismissed: 1 },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .object({
        client_id: ClientId,
        raised: z.number().int().describe('Insights raised by this refresh'),
        resolved: z.number().int().describe('Insights this refresh found no longer hold'),
        open: z.number().int().describe('Open insights after it'),
        applied: z.number().int().describe('Applied insights that still hold'),
        dismissed: z.number().int().describe('Dismissed insights that still hold'),
      })
      .describe('What the refresh changed and what holds after it'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const result = await refreshSeoInsights(ctx.write, ctx.command, {
        clientId: client.id,
        callerOrgId: ctx.orgId,
        reads: insightReads(ctx.read),
      })
      await ctx.settle()
      return { client_id: client.id, raised: result.raised, resolved: result.resolved, ...(await liveInsightCounts(ctx.read, client.id)) }
    },
  }),
  rpc({
    name: 'update_seo_insight',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Mark an insight applied (acted on) or dismissed (will not act; not raised again while it holds), or open again, with an optional note. ' +
      'The same status again changes nothing; a resolved insight answers 409 seo_insight_resolved. Returns the insight.',
    example: {
      params: { insight_id: 812, status: 'applied', note: 'Rewrote the title and description' },
      result: {
        ...exampleInsight,
        status: 'applied' as const,
        applied: true,
        note: 'Rewrote the title and description',
        status_changed_at: '2026-10-02T09:30:00.000Z',
      },
    },
    params: z.strictObject({
      insight_id: InsightId,
      status: SettableInsightStatus,
      note: z.string().trim().max(2000).default('').describe('Why, or what was done (default empty)'),
    }),
    result: SeoInsightSchema,
    async handler(ctx) {
      const insight = await visibleSeoInsight(ctx.read, ctx.orgId, ctx.params.insight_id)
      await changeSeoInsightStatus(ctx.write, ctx.command, {
        clientId: insight.client_id,
        callerOrgId: ctx.orgId,
        insightId: insight.id,
        status: ctx.params.status,
        note: ctx.params.note,
      })
      return insightAfterWrite(ctx, insight.id)
    },
  }),
  rpc({
    name: 'get_meta_optimizations',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `A client's meta optimizations (title and description rewrites of its pages), newest first, optionally of one status. ${META}`,
    example: { params: { client_id: 34, status: 'proposed' }, result: [exampleOptimization] },
    params: z.strictObject({ client_id: ClientId, status: OptimizationStatus.optional().describe('Only optimizations of this status') }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(MetaOptimizationSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return metaOptimizationsOfClient(ctx.read, client.id, ctx.params.status, ctx.page!)
    },
  }),
  rpc({
    name: 'get_meta_optimization',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `One meta optimization. ${META}`,
    example: { params: { optimization_id: 95 }, result: exampleOptimization },
    params: z.strictObject({ optimization_id: OptimizationId }),
    result: MetaOptimizationSchema,
    handler: async (ctx) => metaOptimizationView(await visibleMetaOptimization(ctx.read, ctx.orgId, ctx.params.optimization_id)),
  }),
  rpc({
    name: 'get_meta_optimization_stats',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's meta optimizations counted: by status and writer, pages optimized, how many decided proposals went live, and recent applies.",
    example: {
      params: { client_id: 34 },
      result: {
        client_id: 34,
        total: 9,
        by_status: { proposed: 2, staged: 1, applied: 4, rejected: 1, rolled_back: 1 },
        by_writer: { 'built-in': 6, manual: 3 },
        pages_optimized: 4,
        acceptance_rate: 0.667,
        applied_last_30_days: 2,
        last_proposed_at: '2026-10-01T06:00:01.000Z',
        last_applied_at: '2026-09-28T14:12:00.000Z',
      },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .object({
        client_id: ClientId,
        total: z.number().int().describe('Every meta optimization of the client'),
        by_status: z
          .object(Object.fromEntries(META_OPTIMIZATION_STATUSES.map((s) => [s, z.number().int().describe(`Optimizations now ${s}`)])))
          .describe('Counts by status (every status present)'),
        by_writer: z.record(z.string(), z.number().int()).describe('Counts by writer (built-in, manual, or a language model)'),
        pages_optimized: z.number().int().describe('Distinct pages with an applied optimization'),
        acceptance_rate: z
          .number()
          .nullable()
          .describe(
            'applied ÷ (applied + rolled_back + rejected): the share of decided proposals that went live; null before any was decided',
          ),
        applied_last_30_days: z.number().int().describe('Optimizations applied in the last 30 days'),
        last_proposed_at: z.string().nullable().describe('When the newest was proposed'),
        last_applied_at: z.string().nullable().describe('When one was last applied'),
      })
      .describe("The client's meta optimizations counted"),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return metaOptimizationStats(ctx.read, client.id, ctx.write.clock())
    },
  }),
  rpc({
    name: 'count_recent_meta_optimizations',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'How many meta optimizations of a page were proposed in the last `days` days (default 7), whatever became of them: check it before proposing ' +
      'another rewrite of the same page, since a page needs time in the results before its new CTR can be judged.',
    example: { params: { client_id: 34, page_id: 220 }, result: 1 },
    params: z.strictObject({
      client_id: ClientId,
      page_id: PageId,
      days: z.number().int().min(1).max(365).default(7).describe('The window, in days back from now (default 7)'),
    }),
    result: z.number().int().describe('Optimizations of the page proposed in the window'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      if (page.client_id !== client.id) return 0
      const since = new Date(ctx.write.clock().getTime() - ctx.params.days * 24 * 60 * 60 * 1000)
      return countRecentMetaOptimizations(ctx.read, client.id, page.id, since)
    },
  }),
  rpc({
    name: 'propose_meta_optimization',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Propose a title and meta description rewrite for one of the client's pages: from an insight (insight_id: its page and query are used), " +
      'or for a page and query. Give title and description to propose your own text; leave both out for the built-in writer (the query, the ' +
      `client's location and its name, within ${META_TITLE_MAX_CHARS}/${META_DESCRIPTION_MAX_CHARS} characters). A page with a proposed or staged ` +
      `optimization answers 409 meta_optimization_open. Returns the optimization. ${META}`,
    example: { params: { client_id: 34, insight_id: 812 }, result: exampleOptimization },
    params: z
      .strictObject({
        client_id: ClientId,
        insight_id: InsightId.optional().describe("The insight it answers (its page_id and evidence's query are the defaults)"),
        page_id: PageId.optional().describe("The page to rewrite (default: the insight's page)"),
        query: z.string().trim().max(500).optional().describe("The search query to write for (default: the insight's query; else none)"),
        title: MetaText(META_TITLE_MAX_CHARS, 'Your title').optional(),
        description: MetaText(META_DESCRIPTION_MAX_CHARS, 'Your meta description').optional(),
      })
      .refine((p) => (p.title === undefined) === (p.description === undefined), {
        message: 'give both title and description, or neither (the built-in writer writes both)',
        path: ['description'],
      }),
    result: MetaOptimizationSchema,
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const reads = metaReads(ctx.read)
      const insight = p.insight_id === undefined ? undefined : await reads.insight(client.id, p.insight_id)
      // An insight of another client (or organization) answers like a missing one.
      if (p.insight_id !== undefined && !insight) throw new NotFoundError('seo insight', p.insight_id)
      const pageId = p.page_id ?? insight?.pageId ?? null
      if (pageId === null) {
        throw new DomainError(
          'validation_failed',
          'page_id is required',
          p.insight_id === undefined ? 'page_id: name the page to rewrite' : `page_id: insight ${p.insight_id} names no page of the client`,
        )
      }
      const evidenceQuery = typeof insight?.evidence.query === 'string' ? insight.evidence.query : ''
      const subject = await metaSubject(ctx.write, reads, {
        clientId: client.id,
        callerOrgId: ctx.orgId,
        pageId,
        query: p.query ?? evidenceQuery,
      })
      const manual = p.title !== undefined && p.description !== undefined
      const rewrite = manual ? { title: p.title!, description: p.description! } : builtInMetaRewrite(subject.brief)
      const { optimizationId } = await proposeMetaOptimization(ctx.write, ctx.command, {
        subject,
        insightId: insight?.id ?? null,
        rewrite,
        writer: manual ? MANUAL_META_WRITER : BUILT_IN_META_WRITER,
      })
      return optimizationAfterWrite(ctx, optimizationId)
    },
  }),
  rpc({
    name: 'stage_meta_optimization',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Stage a proposed meta optimization as a site edit (operation meta_rewrite: the page's latest content with the new title and meta description " +
      'written in); apply it with apply_meta_optimization or apply_site_edit. Staging a staged one answers it unchanged. Returns the optimization with its edit_id.',
    example: {
      params: { optimization_id: 95 },
      result: { ...exampleOptimization, status: 'staged' as const, edit_id: 61, staged_at: '2026-10-02T09:00:00.000Z' },
    },
    params: z.strictObject({ optimization_id: OptimizationId }),
    result: MetaOptimizationSchema,
    async handler(ctx) {
      const row = await visibleMetaOptimization(ctx.read, ctx.orgId, ctx.params.optimization_id)
      await oneAtATime(ctx, () =>
        stageMetaOptimization(ctx.write, ctx.command, {
          clientId: row.client_id,
          callerOrgId: ctx.orgId,
          optimizationId: row.id,
          reads: metaReads(ctx.read),
        }),
      )
      return optimizationAfterWrite(ctx, row.id)
    },
  }),
  rpc({
    name: 'apply_meta_optimization',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Approve and publish a meta optimization: stages it if it is only proposed, then applies its site edit through the site publisher ' +
      '(as apply_site_edit does; approved_by recorded) and marks the insight it answers applied. A publisher failure answers its code and leaves ' +
      `the optimization staged. Returns the optimization. ${META}`,
    example: {
      params: { optimization_id: 95, approved_by: 'dana@northwind.example' },
      result: {
        ...exampleOptimization,
        status: 'applied' as const,
        edit_id: 61,
        staged_at: '2026-10-02T09:00:00.000Z',
        applied_at: '2026-10-02T09:00:01.000Z',
      },
    },
    params: z.strictObject({
      optimization_id: OptimizationId,
      approved_by: z.string().trim().max(200).default('').describe('Who approved it (default empty: the calling key is recorded)'),
    }),
    result: MetaOptimizationSchema,
    async handler(ctx) {
      const publisher = ctx.settings.sitePublisher
      if (!publisher) throw new ApiError('service_unavailable', 'no site publisher is configured in this process')
      const row = await visibleMetaOptimization(ctx.read, ctx.orgId, ctx.params.optimization_id)
      await oneAtATime(ctx, async () => {
        const { editId } = await stageMetaOptimization(ctx.write, ctx.command, {
          clientId: row.client_id,
          callerOrgId: ctx.orgId,
          optimizationId: row.id,
          reads: metaReads(ctx.read),
        })
        try {
          // The same lock apply_site_edit takes: one publish of an edit at a time, whichever method asks.
          await ctx.locks.withLock(`site_edit:${editId}`, () =>
            applySiteEdit(ctx.write, ctx.command, publisher, { editId, visibleTo: ctx.orgId, approvedBy: ctx.params.approved_by }),
          )
        } finally {
          await recordMetaEditOutcome(ctx.write, ctx.command, { editId })
        }
      }).catch(async (error: unknown) => {
        await ctx.settle() // a failed publish still recorded its attempt and the staging
        throw error
      })
      return optimizationAfterWrite(ctx, row.id)
    },
  }),
  rpc({
    name: 'reject_meta_optimization',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Reject a proposed or staged meta optimization (its site edit, if staged, is left proposed and unpublished). Rejecting again changes nothing; ' +
      'an applied one answers 409 meta_optimization_not_open (roll its site edit back instead). Returns the optimization.',
    example: {
      params: { optimization_id: 95, rejected_by: 'dana@northwind.example', reason: 'Keep the brand first' },
      result: {
        ...exampleOptimization,
        status: 'rejected' as const,
        rejected_by: 'dana@northwind.example',
        reject_reason: 'Keep the brand first',
        rejected_at: '2026-10-02T09:00:00.000Z',
      },
    },
    params: z.strictObject({
      optimization_id: OptimizationId,
      rejected_by: z.string().trim().min(1, 'must not be empty').max(200).describe('Who rejects it'),
      reason: z.string().trim().max(2000).default('').describe('Why (default empty)'),
    }),
    result: MetaOptimizationSchema,
    async handler(ctx) {
      const row = await visibleMetaOptimization(ctx.read, ctx.orgId, ctx.params.optimization_id)
      await rejectMetaOptimization(ctx.write, ctx.command, {
        clientId: row.client_id,
        callerOrgId: ctx.orgId,
        optimizationId: row.id,
        rejectedBy: ctx.params.rejected_by,
        reason: ctx.params.reason,
      })
      return optimizationAfterWrite(ctx, row.id)
    },
  }),
]
