import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'

/**
 * Compare reports (issue 26): a client's month set against another month (by default the one before),
 * rendered as one self-contained HTML page and filed under /api/v1/files/. Stream `compare_reports-<client_id>`;
 * see README.md beside this file.
 */

const Count = z.number().int().min(0)

/** One month's numbers, as the report shows them. */
export const CompareMonthNumbers = z.object({
  keywords_ranked: Count.describe('Keywords with a rank check in the month (their latest check of the month)'),
  top_3: Count.describe('Of those, ranked 1-3 (best position among locations and devices on the latest check)'),
  top_10: Count.describe('Ranked 1-10'),
  top_100: Count.describe('Ranked 1-100 (the rest were not in the top 100)'),
  average_position: z.number().nullable().describe('Mean position of the keywords in the top 100; null when none is'),
  clicks: Count.describe('Search Console clicks over the month (the days a completed capture covers)'),
  impressions: Count.describe('Search Console impressions over the month'),
  ai_answers: Count.describe('AI Visibility answers captured in the month'),
  ai_present: Count.describe('Of those, answers that named the business or cited its site'),
  site_changes: Count.describe('Site changes the monitor detected in the month'),
  items_planned: Count.describe('Action items of the month (deleted ones left out)'),
  items_done: Count.describe('Of those, done'),
  items_carried: Count.describe('Of those, carried in unfinished from an earlier month'),
})
export type CompareMonthNumbers = z.infer<typeof CompareMonthNumbers>

export const CompareSummary = z.object({
  month: CompareMonthNumbers.describe('The reported month'),
  against: CompareMonthNumbers.describe('The month it is compared with'),
})
export type CompareSummary = z.infer<typeof CompareSummary>

export const CompareReportFile = z.object({
  path: z.string(),
  content_type: z.string(),
  bytes: z.number().int().min(0),
  sha256: z.string(),
})

/** A compare report filed (or filed again: the same report_id, the file replaced). */
export const CompareReportFiled = z.object({
  report_id: Id,
  client_id: Id,
  month: Month,
  against_month: Month,
  files: z.array(CompareReportFile),
  summary: CompareSummary,
})

export const compareReportsEventSchemas = { CompareReportFiled } as const
export type CompareReportEvent = { type: 'CompareReportFiled'; data: z.infer<typeof CompareReportFiled> }
