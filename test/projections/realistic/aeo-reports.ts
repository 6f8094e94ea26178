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
  await call(
    'update_organization_branding',
    { name: 'Acme Reports', accent_color: '#FF0066', logo_url: 'https://cdn.example.com/acme.png' },
    keys.orgA,
  )
  await call('update_organization_branding', { accent_color: '#00aa55', logo_url: null }, keys.orgA)
  await call('update_organization_branding', { accent_color: '#00AA55' }, keys.orgA) // no change
  await call('update_organization_branding', { name: 'Bravo White Label', org_id: orgB })

  const { months } = await call<{ months: string[] }>('get_aeo_summary', { client_id: plumbers }, keys.orgA)
  const latest = months.at(-1)
  if (!latest) throw new Error('the captures part of the log wrote no captures for the first client')
  for (const month of months) await call('file_aeo_report', { client_id: plumbers, month }, keys.orgA)
  await call('file_aeo_report', { client_id: plumbers, month: latest, org_id: orgA }) // filed again
  const foreign = await ts.rpc('file_aeo_report', { client_id: plumbers, month: latest }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign filing answered ${foreign.statusCode}`)
}
