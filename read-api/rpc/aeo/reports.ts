import { z } from 'zod'
import { fileReport } from '../../../commands/aeo/reports.js'
import { renderReportHtml } from '../../../domain/aeo/reports/html.js'
import { VERDICTS } from '../../../domain/aeo/summary/verdict.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { filedReports } from '../../../projections/aeo/reports/queries.js'
import { loadReportInput } from '../../../projections/aeo/reports/report-data.js'
import type { AnyRpc } from '../../registry.js'
import { rpc } from '../../registry.js'
import { coalescedSummary } from './summary-read.js'
import { ClientId } from '../ids.js'

const domain = 'ai-visibility'

/** Where a file is downloaded (relative to the service's base URL). */
export const fileUrl = (path: string) => `/api/v1/files/${path}`

const Proportion = z.object({
  numerator: z.number().int(),
  denominator: z.number().int(),
  rate: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]),
})
const Rate = Proportion.extend({ previous: Proportion.nullable(), verdict: z.enum(VERDICTS) })
const RatePair = z.object({ captures: z.number().int(), presence: Rate, named_first: Rate })

const AeoSummary = z.object({
  client_id: ClientId,
  month: Month,
  previous_month: Month.nullable(),
  months: z.array(Month),
  captures: z.number().int(),
  overall: RatePair,
  services: z.array(RatePair.extend({ service: z.string() })),
  engines: z.array(RatePair.extend({ engine: z.string() })),
  share_of_voice: z.object({
    client_mentions: z.number().int(),
    total_mentions: z.number().int(),
    rate: z.number().nullable(),
    competitors: z.array(z.object({ name: z.string(), mentions: z.number().int(), share: z.number().nullable() })),
  }),
  open_items: z.object({ A: z.number().int(), B: z.number().int(), C: z.number().int(), X: z.number().int(), total: z.number().int() }),
  queue: z.record(z.string(), z.number().int()),
  cadence: z.union([
    z.object({ enabled: z.boolean(), samples_per_month: z.number().int(), engines: z.array(z.string()), geo_state: z.string().nullable() }),
    z.object({}),
  ]),
})

const ReportHtml = z.union([
  z.object({ ok: z.literal(true), html: z.string(), month: Month, trend_ready: z.boolean(), months: z.array(Month) }),
  z.object({ ok: z.literal(false), error: z.string(), month: Month, months: z.array(Month) }),
])

const FiledFileView = z.object({ path: z.string(), url: z.string(), content_type: z.string(), bytes: z.number().int(), sha256: z.string() })

export const aeoReportsRpcs: AnyRpc[] = [
  rpc({
    name: 'get_aeo_summary',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Presence and named-first rates per service, per engine and overall (numerator, denominator, rate, 95% Wilson interval, ' +
      'verdict against the previous month with captures), share of voice, open items by tier, queue counts and cadence. ' +
      'month defaults to the latest month with captures.',
    example: { params: { client_id: 34, month: '2026-03' } },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.optional().describe('The month, YYYY-MM (default: the latest month with captures, else the current month)'),
    }),
    result: AeoSummary,
    async handler(ctx) {
      return coalescedSummary(ctx.read, ctx.orgId, ctx.params.client_id, ctx.params.month, ctx.write.clock())
    },
  }),
  rpc({
    name: 'aeo_report_html',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The white-label monthly report as one self-contained HTML page (the organization's branding, rates with sample sizes " +
      'and intervals, trend chart once two months exist, sources, action list). {ok: false, error} when the month has no captures.',
    example: { params: { client_id: 34, month: '2026-03' } },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.optional().describe('The month, YYYY-MM (default: the latest month with captures, else the current month)'),
    }),
    result: ReportHtml,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const { month, months, input } = await loadReportInput(ctx.read, client, ctx.params.month, ctx.write.clock())
      if (!input) return { ok: false as const, error: `no captures for ${month}`, month, months }
      return { ok: true as const, html: renderReportHtml(input), month, trend_ready: input.trend.length >= 2, months }
    },
  }),
  rpc({
    name: 'file_aeo_report',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Renders the month's report and files it under /api/v1/files/aeo-reports/<org_id>/<client_id>/<month>.html (filing again " +
      'replaces the file); emits aeo.report.saved. Returns {month, files: [{path, url, bytes, sha256}]}.',
    example: {
      params: { client_id: 34, month: '2026-03' },
      result: {
        month: '2026-03',
        files: [
          {
            path: 'aeo-reports/12/34/2026-03.html',
            url: '/api/v1/files/aeo-reports/12/34/2026-03.html',
            content_type: 'text/html; charset=utf-8',
            bytes: 48213,
            sha256: '9f2c4e1a7b3d5f60818a2b4c6d8e0f1a3b5c7d9e1f20324a5b6c7d8e9f0a1b2c',
          },
        ],
      },
    },
    params: z.strictObject({ client_id: ClientId, month: Month.describe('The month to report, YYYY-MM') }),
    result: z.object({ month: Month, files: z.array(FiledFileView) }),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      if (client.status === 'deleted') throw new DomainError('client_deleted', 'The client is deleted', `client ${client.id}`)
      const now = ctx.write.clock()
      const { month, input } = await loadReportInput(ctx.read, client, ctx.params.month, now)
      if (!input)
        throw new DomainError(
          'aeo_month_empty',
          'The month has no AI Visibility captures',
          `client ${client.id} has no captures in ${month}`,
        )
      const filed = await fileReport(ctx.write, ctx.files, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        month,
        html: renderReportHtml(input),
      })
      return { month: filed.month, files: filed.files.map((f) => ({ ...f, url: fileUrl(f.path) })) }
    },
  }),
  rpc({
    name: 'get_aeo_reports',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The reports filed for a client, newest month first, each with its download path and url.',
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(FiledFileView.extend({ month: Month, filed_at: z.string() })),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return (await filedReports(ctx.read, client.id)).map((r) => ({ ...r, url: fileUrl(r.path) }))
    },
  }),
]
