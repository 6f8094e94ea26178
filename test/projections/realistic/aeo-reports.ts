import { randomUUID } from 'node:crypto'
import { aeoReportsStream, REPORT_CONTENT_TYPE, reportPath } from '../../../domain/aeo/reports/report.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The AI Visibility reports part of the realistic log: every write RPC of the part, through HTTP, on the
 * clients of `log` (keys: platform key unless given), including no-op repeats and foreign-org attempts.
 * Branding set, changed, cleared, repeated (no-op) and set by a platform key; a report filed for every month
 * with captures (written by the captures part's log before this one), one month filed twice, and a foreign
 * filing refused.
 */
export async function writeAeoReportsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [orgA, orgB] = log.orgIds as [number, number]
  const [plumbers] = log.clientIds as [number]
  await call('update_organization_branding', { name: 'Acme Reports', accent_color: '#FF0066', logo_url: 'https://cdn.example.com/acme.png' }, keys.orgA)
  await call('update_organization_branding', { accent_color: '#00aa55', logo_url: null }, keys.orgA)
  await call('update_organization_branding', { accent_color: '#00AA55' }, keys.orgA) // no change
  await call('update_organization_branding', { name: 'Bravo White Label', org_id: orgB })

  const { months } = await call<{ months: string[] }>('get_aeo_summary', { client_id: plumbers }, keys.orgA)
  for (const month of months) await call('file_aeo_report', { client_id: plumbers, month }, keys.orgA)
  if (months.length > 0) await call('file_aeo_report', { client_id: plumbers, month: months.at(-1), org_id: orgA }) // filed again
  if (months.length === 0) {
    // No captures yet (the captures part's log has not landed): the filing is appended as file_aeo_report
    // records it, so the projector still sees one. Goes when captures are in the log.
    await ts.system.store.append(
      aeoReportsStream(plumbers),
      [
        {
          type: 'AeoReportFiled',
          data: { client_id: plumbers, month: '2026-01', files: [{ path: reportPath(orgA, plumbers, '2026-01'), content_type: REPORT_CONTENT_TYPE, bytes: 1234, sha256: 'a'.repeat(64) }] },
          metadata: {
            org_id: orgA,
            actor: { kind: 'system', id: 'realistic-log' },
            correlation_id: randomUUID(),
            causation_id: null,
            request_id: null,
            occurred_at: new Date().toISOString(),
            schema_version: 1,
          },
        },
      ],
      'any',
    )
  }
  const foreign = await ts.rpc('file_aeo_report', { client_id: plumbers, month: months.at(-1) ?? '2026-01' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign filing answered ${foreign.statusCode}`)
}
