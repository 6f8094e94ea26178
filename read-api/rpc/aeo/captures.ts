import { z } from 'zod'
import { ingestCapture, MAX_RECORD_BYTES } from '../../../commands/aeo/captures.js'
import { AeoReport } from '../../../domain/aeo/captures/events.js'
import { EngineInput } from '../../../domain/aeo/engines.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { captureMonths, captureView, capturesForClient, visibleCapture } from '../../../projections/aeo/captures/queries.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'

const domain = 'ai-visibility'

/** A source as the engine gave it: `{url, title?}`, or just the URL. */
const CitationInput = z.union([
  z.string().trim().min(1).max(2000).transform((url) => ({ url })),
  z.strictObject({ url: z.string().trim().min(1).max(2000), title: z.string().max(500).optional() }),
])
const Citations = z.array(CitationInput).max(500).default([])
const Citation = z.object({ url: z.string(), title: z.string().optional() })

const CaptureView = z.object({
  id: Id,
  client_id: Id,
  org_id: Id,
  query_id: Id,
  engine: z.string(),
  month: Month,
  run_id: Id.nullable(),
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
  capture_id: Id,
  query_id: Id,
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
    params: z.strictObject({
      client_id: Id,
      query_id: Id,
      engine: EngineInput,
      answer_text: z.string().max(200_000),
      citations: Citations,
      /** Sources retrieved but not cited (server engines report both). */
      retrieved: Citations,
      month: Month.optional(),
      run_id: Id.nullable().optional(),
      record_json: z.unknown().optional(),
      model: z.string().trim().max(200).optional(),
      surface: z.string().trim().max(200).optional(),
      searched: z.boolean().nullable().optional(),
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
    params: z.strictObject({ capture_id: Id }),
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
    params: z.strictObject({
      client_id: Id,
      month: Month.optional(),
      query_id: Id.optional(),
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
    params: z.strictObject({ client_id: Id, month: Month.optional() }),
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
    params: z.strictObject({ client_id: Id }),
    result: z.array(Month),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return captureMonths(ctx.read, ctx.params.client_id)
    },
  }),
]
