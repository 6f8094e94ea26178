import { generateKeyPairSync } from 'node:crypto'
import { systemContext } from '../../../commands/command-handler.js'
import { failGscCapture, failGscCaptureAttempt, recordGscRows, startGscCapture } from '../../../commands/search/gsc/captures.js'
import { addDays, dayOf } from '../../../domain/search/gsc/dates.js'
import type { GscRow } from '../../../domain/search/gsc/events.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

interface Capture {
  id: number
  client_id: number
  property: string
  start_date: string
  end_date: string
}

const row = (query: string, page: string, clicks: number, impressions: number, position: number): GscRow => ({
  query,
  page,
  clicks,
  impressions,
  ctr: impressions === 0 ? 0 : clicks / impressions,
  position,
})

/**
 * The Search Console part of the realistic log: properties connected through HTTP (a service account, then
 * an OAuth grant replacing it; another organization's), captures queued (a repeat answering the open one),
 * and the capture worker's commands as it records them: a capture recorded over two days in pages with a
 * row the API gave twice, an attempt failing on an outage and resuming, a capture failing on refused
 * credentials, a property removed and connected again.
 */
export async function writeGscLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const [orgA, orgB] = log.orgIds as [number, number]
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const serviceAccount = {
    type: 'service_account',
    project_id: 'acme-seo',
    private_key_id: '5b1f0c2d',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'rankrelay@acme-seo.iam.gserviceaccount.com',
  }
  const oauth = {
    type: 'oauth',
    client_id: '1234-abc.apps.googleusercontent.com',
    client_secret: 'GOCSPX-realistic',
    refresh_token: '1//0realistic',
  }
  const property = 'sc-domain:acmeplumbing.example'
  await call('set_gsc_property', { client_id: plumbers, property, credentials: serviceAccount, cadence: 'off' }, keys.orgA)
  await call('set_gsc_property', { client_id: plumbers, property, credentials: oauth, cadence: 'weekly' }, keys.orgA)
  await call('set_gsc_property', { client_id: heaters, property: 'https://heaters.example', credentials: serviceAccount }, keys.orgA)
  await call(
    'set_gsc_property',
    { client_id: bravo, property: 'sc-domain:bravo-dental.example', credentials: oauth, cadence: 'off' },
    keys.orgB,
  )

  const end = addDays(dayOf(ts.system.write.clock()), -3)
  const start = addDays(end, -1)
  const first = (await call<{ capture: Capture }>('run_gsc_capture', { client_id: plumbers, start_date: start, end_date: end }, keys.orgA))
    .capture
  await call('run_gsc_capture', { client_id: plumbers }, keys.orgA) // the open one answers
  const worker = systemContext('gsc-capture-worker')
  const write = ts.system.write
  const ref = { orgId: orgA, captureId: first.id }
  const range = { start: first.start_date, end: first.end_date }
  await startGscCapture(write, worker, { ...ref, clientId: plumbers, property, range })
  const day1 = [
    row('drain cleaning austin', 'https://acmeplumbing.example/drain-cleaning/', 12, 240, 3.2),
    row('drain cleaning austin', 'https://acmeplumbing.example/', 1, 90, 8.5),
    row('acme plumbing', 'https://acmeplumbing.example/', 30, 41, 1),
  ]
  await recordGscRows(write, worker, { ...ref, date: start, startRow: 0, rows: day1.slice(0, 2), dayComplete: false })
  // The next page repeats a row the API already gave (its order shifted): left out.
  await recordGscRows(write, worker, { ...ref, date: start, startRow: 2, rows: [day1[1]!, day1[2]!], dayComplete: true })
  await failGscCaptureAttempt(write, worker, {
    ...ref,
    error: { code: 'gsc_unavailable', message: 'Search Console failed (HTTP 503): The service is currently unavailable.' },
    retryAt: new Date(write.clock().getTime() + 60_000),
  })
  await startGscCapture(write, worker, { ...ref, clientId: plumbers, property, range })
  await recordGscRows(write, worker, {
    ...ref,
    date: end,
    startRow: 0,
    rows: [
      row('drain cleaning austin', 'https://acmeplumbing.example/drain-cleaning/', 9, 200, 3.6),
      row('emergency plumber', 'https://acmeplumbing.example/', 0, 15, 24.1),
    ],
    dayComplete: true,
  })

  // Another organization's capture: the grant was revoked, so the token endpoint refuses it.
  const refused = (await call<{ capture: Capture }>('run_gsc_capture', { client_id: bravo }, keys.orgB)).capture
  const bravoRef = { orgId: orgB, captureId: refused.id }
  await startGscCapture(write, worker, {
    ...bravoRef,
    clientId: bravo,
    property: refused.property,
    range: { start: refused.start_date, end: refused.end_date },
  })
  await failGscCapture(write, worker, {
    ...bravoRef,
    clientId: bravo,
    error: { code: 'gsc_unauthorized', message: 'Google refused the credentials (invalid_grant: Token has been expired or revoked.)' },
  })

  await call('remove_gsc_property', { client_id: heaters }, keys.orgA)
  await call('remove_gsc_property', { client_id: heaters }, keys.orgA) // already removed
  await call(
    'set_gsc_property',
    { client_id: heaters, property: 'https://www.heaters.example/', credentials: serviceAccount, cadence: 'off' },
    keys.orgA,
  )
  const foreign = await ts.rpc('remove_gsc_property', { client_id: plumbers }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign remove answered ${foreign.statusCode}`)
}
