import { z } from 'zod'
import { CompareSummary } from '../../../domain/planning/compare-reports/events.js'
import { againstMonthOf } from '../../../domain/planning/compare-reports/months.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { createCompareReport } from '../../../projections/planning/compare-reports/create.js'
import { compareReportsOfOrg, visibleCompareReport } from '../../../projections/planning/compare-reports/queries.js'
import { requireOrgId } from '../../caller.js'
import type { AnyRpc } from '../../registry.js'
import { rpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'planning'

const ReportId = Id.describe('The compare report (an integer id, as create_compare_report or get_compare_reports_for_org answered)')

const EXAMPLE_NUMBERS = {
  keywords_ranked: 40,
  top_3: 6,
  top_10: 17,
  top_100: 35,
  average_position: 14.2,
  clicks: 1240,
  impressions: 38200,
  ai_answers: 30,
  ai_present: 19,
  site_changes: 12,
  items_planned: 14,
  items_done: 9,
  items_carried: 3,
}

const EXAMPLE_REPORT = {
  report_id: 21,
  client_id: 34,
  month: '2026-03',
  against_month: '2026-02',
  path: 'compare-reports/12/34/2026-03.html',
  url: '/api/v1/files/compare-reports/12/34/2026-03.html',
  content_type: 'text/html; charset=utf-8',
  bytes: 9184,
  sha256: '4c1f0e2a9b7d3e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd0',
  summary: { month: EXAMPLE_NUMBERS, against: { ...EXAMPLE_NUMBERS, top_10: 14, clicks: 1010, items_done: 7 } },
  created_at: '2026-04-01T06:00:00.000Z',
  filed_at: '2026-04-01T06:00:00.000Z',
}

const CompareReportView = z.object({
  report_id: ReportId,
  client_id: ClientId,
  month: Month.describe('The reported month'),
  against_month: Month.describe('The month it is compared with'),
  path: z.string().describe('The file under /api/v1/files/ (compare-reports/<org_id>/<client_id>/<month>.html)'),
  url: z.string().describe('Where the page downloads from, relative to the service (GET with the same key)'),
  content_type: z.string().describe('text/html; charset=utf-8'),
  bytes: z.number().int().describe("The file's size in bytes"),
  sha256: z.string().describe("The file's sha256, hex (also its ETag)"),
  summary: CompareSummary.describe('The numbers the page shows, for the month and the month compared with'),
  created_at: z.string().describe('When the month was first filed (ISO-8601)'),
  filed_at: z.string().describe('When the file was last filed (ISO-8601): filing the month again replaces it'),
})

export const compareReportsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'create_compare_report',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "A client's month against another (default: the month before): positions (keywords in the top 3/10/100, average position, " +
      'movers), Search Console clicks and impressions, AI Visibility presence, site changes and action items planned, done and ' +
      'carried. Rendered as one self-contained HTML page and filed under /api/v1/files/compare-reports/<org_id>/<client_id>/<month>.html; ' +
      'one report per client-month (filing the month again keeps its report_id and replaces the file). Returns the report.',
    example: { params: { client_id: 34, month: '2026-03' }, result: EXAMPLE_REPORT },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.describe('The month to report, YYYY-MM'),
      against_month: Month.optional().describe('The month to compare it with, YYYY-MM (default: the month before)'),
    }),
    result: CompareReportView,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      if (client.status === 'deleted') throw new DomainError('client_deleted', 'The client is deleted', `client ${client.id}`)
      const againstMonth = againstMonthOf(ctx.params.month, ctx.params.against_month)
      const filed = await createCompareReport(ctx.read, ctx.write, ctx.files, ctx.command, {
        client,
        callerOrgId: ctx.orgId,
        month: ctx.params.month,
        againstMonth,
      })
      await ctx.settle()
      return visibleCompareReport(ctx.read, ctx.orgId, filed.reportId)
    },
  }),
  rpc({
    name: 'get_compare_report',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'One compare report: its month and the month compared with, its file (path, download url, size, sha256) and the summary numbers.',
    example: { params: { report_id: 21 }, result: EXAMPLE_REPORT },
    params: z.strictObject({ report_id: ReportId }),
    result: CompareReportView,
    handler: async (ctx) => visibleCompareReport(ctx.read, ctx.orgId, ctx.params.report_id),
  }),
  rpc({
    name: 'get_compare_reports_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The organization's compare reports, the latest filed first, each with its download url and summary numbers.",
    example: { params: {}, result: [EXAMPLE_REPORT] },
    params: z.strictObject({}),
    paginated: { maxLimit: 200, defaultLimit: 50 },
    result: z.array(CompareReportView),
    handler: async (ctx) => compareReportsOfOrg(ctx.read, requireOrgId(ctx.orgId), ctx.page ?? { limit: 50, offset: 0 }),
  }),
]
