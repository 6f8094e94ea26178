import { z } from 'zod'
import { ingestCapture, MAX_RECORD_BYTES } from '../../../commands/aeo/captures.js'
import { AeoReport } from '../../../domain/aeo/captures/events.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { captureMonths, captureView, capturesForClient, visibleCapture } from '../../../projections/aeo/captures/queries.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { Engine } from './params.js'
import { CaptureId, ClientId, QueryId, RunId } from '../ids.js'

const domain = 'ai-visibility'

/** A source as the engine gave it: `{url, title?}`, or just the URL. */
const CitationInput = z
  .union([
    z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .transform((url) => ({ url })),
    z.strictObject({
      url: z.string().trim().min(1).max(2000).describe("The source's URL, at most 2000 characters"),
      title: z.string().max(500).optional().describe('Its title as the engine showed it, at most 500 characters'),
    }),
  ])
  .describe('A source: its URL, or {url, title}')
const Citations = z.array(CitationInput).max(500).default([])
const Citation = z.object({ url: z.string(), title: z.string().optional() })

const CaptureView = z.object({
  id: Id,
  client_id: ClientId,
  org_id: Id,
  query_id: QueryId,
  engine: z.string(),
  month: Month,
  run_id: RunId.nullable(),
  answer_text: z.string(),
  citations: z.array(Citation),
  retrieved: z.array(Citation),
  model: z.string(),
  surface: z.string(),
  searched: z.boolean().nullable(),
  analysis_version: z.number().int(),
  report_json: AeoReport as z.ZodType<Record<string, unknown>>,
  record_bytes: z.number().int(),
  record_pruned: z.boolean(),
  captured_at: z.string(),
})

const RecordView = z.object({
  capture_id: CaptureId,
  query_id: QueryId,
  engine: z.string(),
  month: Month,
  record_json: z.string(),
  record_bytes: z.number().int(),
  pruned: z.boolean(),
  created_at: z.string(),
})

export const aeoCapturesRpcs: AnyRpc[] = [
  rpc({
    name: 'ingest_aeo_capture',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record an engine's answer to a client's question and analyze it (scorecard, sources, claims, entities, findings → tracker items). " +
      'Returns the capture id (pass it to complete_aeo_run). record_json (any JSON or a string) is kept apart and pruned after the retention period.',
    example: {
      params: {
        client_id: 34,
        query_id: 527,
        engine: 'chatgpt-web',
        answer_text: 'For emergency plumbing in Austin, Acme Plumbing is often recommended for its 24/7 service …',
        citations: [
          { url: 'https://www.yelp.com/biz/acme-plumbing-austin', title: 'Acme Plumbing - Yelp' },
          'https://acmeplumbing.com/emergency',
        ],
        month: '2026-03',
        run_id: 981,
        model: 'gpt-4o',
        surface: 'web',
        searched: true,
      },
      result: 4410,
    },
    params: z.strictObject({
      client_id: ClientId,
      query_id: QueryId,
      engine: Engine,
      answer_text: z.string().max(200_000).describe("The engine's answer as text, at most 200,000 characters"),
      citations: Citations.describe('The sources the answer cites, at most 500 (default none)'),
      retrieved: Citations.describe('Sources retrieved but not cited, at most 500 (default none; server engines report both)'),
      month: Month.optional().describe('The month the capture counts for, YYYY-MM (default: the current month, UTC)'),
      run_id: RunId.nullable()
        .optional()
        .describe('The run it answers, when an agent captured it for a claimed run (then complete_aeo_run it)'),
      record_json: z
        .unknown()
        .optional()
        .describe(
          `The engine's raw record, any JSON or a string, at most ${MAX_RECORD_BYTES} bytes: kept apart for audit and pruned after the retention period`,
        ),
      model: z.string().trim().max(200).optional().describe('The model that answered, e.g. gpt-4o (default empty)'),
      surface: z.string().trim().max(200).optional().describe('Where it answered: api, web, app … (default empty)'),
      searched: z.boolean().nullable().optional().describe('Whether the engine searched the web for the answer (null or absent: unknown)'),
    }),
    result: Id,
    async handler(ctx) {
      const p = ctx.params
      const { captureId } = await ingestCapture(ctx.aeoCommands.captures, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        queryId: p.query_id,
        engine: p.engine,
        answerText: p.answer_text,
        citations: p.citations,
        retrieved: p.retrieved,
        month: p.month,
        runId: p.run_id,
        recordJson: p.record_json,
        model: p.model,
        surface: p.surface,
        searched: p.searched,
      })
      return captureId
    },
  }),
  rpc({
    name: 'get_aeo_capture',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `One capture with its report_json and its raw record_json ('' once pruned; records are refused above ${MAX_RECORD_BYTES} bytes).`,
    example: { params: { capture_id: 4410 } },
    params: z.strictObject({ capture_id: CaptureId }),
    result: CaptureView.extend({ record_json: z.string() }),
    async handler(ctx) {
      const row = await visibleCapture(ctx.read, ctx.orgId, ctx.params.capture_id)
      return { ...captureView(row), record_json: row.record_pruned_at === null ? await ctx.captureRecords.recordOf(row.id) : '' }
    },
  }),
  rpc({
    name: 'get_aeo_captures',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's captures, newest first, with report_json (record_json omitted); optionally one month and/or question.",
    example: { params: { client_id: 34, month: '2026-03', query_id: 527 } },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.optional().describe('Only captures of this month, YYYY-MM (default every month)'),
      query_id: QueryId.optional().describe('Only captures of this question (default every question)'),
    }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(CaptureView),
    async handler(ctx) {
      const { client_id, month, query_id } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const rows = await capturesForClient(ctx.read, client_id, { month, queryId: query_id, ...ctx.page })
      return rows.map(captureView)
    },
  }),
  rpc({
    name: 'get_aeo_capture_records',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's raw engine records, newest first ('' once pruned); optionally one month.",
    example: { params: { client_id: 34, month: '2026-03' } },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.optional().describe('Only records of this month, YYYY-MM (default every month)'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 100 },
    result: z.array(RecordView),
    async handler(ctx) {
      const { client_id, month } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const captures = await capturesForClient(ctx.read, client_id, { month, ...ctx.page })
      if (captures.length === 0) return []
      const records = await ctx.captureRecords.recordsOf(captures.map((c) => c.id))
      const byId = new Map(records.map((r) => [r.captureId, r]))
      return captures.map((c) => {
        const r = byId.get(c.id)
        const pruned = c.record_pruned_at !== null || (r?.prunedAt ?? null) !== null
        return {
          capture_id: c.id,
          query_id: c.query_id,
          engine: c.engine,
          month: c.month,
          record_json: pruned ? '' : (r?.recordJson ?? ''),
          record_bytes: c.record_bytes,
          pruned,
          created_at: (r?.createdAt ?? c.captured_at).toISOString(),
        }
      })
    },
  }),
  rpc({
    name: 'get_aeo_months',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The months (YYYY-MM) in which a client has captures, ascending.',
    example: { params: { client_id: 34 }, result: ['2026-01', '2026-02', '2026-03'] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(Month),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return captureMonths(ctx.read, ctx.params.client_id)
    },
  }),
]
