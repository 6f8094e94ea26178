import { metricsPass, metricsSettingsFor } from '../../processors/search-metrics-pass.js'
import { startDataForSeoKeywords } from '../../support/stand-ins/dataforseo-keywords.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The metrics part of the realistic log: a caller's numbers recorded (then one phrase again, and another
 * market), a refresh request, and the metrics processor's passes against the DataForSEO stand-in: one
 * refused with 402 (a failed fetch, rows with only an error for never-fetched phrases), then, after a
 * refresh, one that succeeds (the error cleared), a Labs refusal included.
 */
export async function writeKeywordMetricsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  await call(
    'record_keyword_metrics',
    {
      location_code: 2840,
      metrics: [
        {
          keyword: 'drain cleaning austin',
          search_volume: 880,
          cpc: 14.37,
          competition: 'high',
          competition_index: 78,
          difficulty: 23,
          monthly_searches: [{ year: 2026, month: 10, search_volume: 1000 }],
        },
        { keyword: 'Plumber near me', search_volume: 5400 },
      ],
    },
    keys.orgA,
  )
  await call(
    'record_keyword_metrics',
    { location_code: 2840, metrics: [{ keyword: 'drain cleaning austin', search_volume: 900 }] },
    keys.orgA,
  )
  await call(
    'record_keyword_metrics',
    { location_code: 2826, metrics: [{ keyword: 'drain cleaning austin', search_volume: 40 }] },
    keys.orgA,
  )
  await call('refresh_keyword_metrics', { client_id: plumbers }, keys.orgA)

  const standIn = await startDataForSeoKeywords()
  try {
    const pass = metricsPass(ts, metricsSettingsFor(standIn, { maxAttempts: 1 }))
    standIn.down('search_volume', 'payment_required')
    await pass()
    standIn.down('search_volume', null)
    standIn.down('difficulty', 'access_denied')
    // Later than the failure, so the refresh lifts the organization's cooldown.
    await new Promise((resolve) => setTimeout(resolve, 5))
    await call('refresh_keyword_metrics', { client_id: plumbers }, keys.orgA)
    await call('refresh_keyword_metrics', { client_id: bravo }, keys.orgB)
    await pass()
  } finally {
    await standIn.close()
  }
}
