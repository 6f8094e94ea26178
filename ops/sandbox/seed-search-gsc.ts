import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { queueGscCapture, recordGscRows, startGscCapture } from '../../commands/search/gsc/captures.js'
import { setGscProperty } from '../../commands/search/gsc/property.js'
import { addDays, dayOf, daysInRange } from '../../domain/search/gsc/dates.js'
import type { GscRow } from '../../domain/search/gsc/events.js'
import { noise, SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'

const DAY_MS = 86_400_000
/** The sandbox's URL-prefix property: the client's site as Search Console lists it. */
const PROPERTY = SANDBOX_CLIENT.websiteUrl
const SITE = SANDBOX_CLIENT.websiteUrl.replace(/\/$/, '')

/** The queries the site shows for, each with the pages Google shows for it and how strong the site is there. */
const QUERIES = [
  { query: 'drain cleaning austin', pages: ['/drain-cleaning/', '/'], strength: 0.9 },
  { query: 'hydro jetting austin tx', pages: ['/drain-cleaning/'], strength: 0.6 },
  { query: 'clogged main line repair', pages: ['/drain-cleaning/'], strength: 0.4 },
  { query: 'water heater repair round rock', pages: ['/water-heater-repair/'], strength: 0.7 },
  { query: 'tankless water heater installation austin', pages: ['/water-heater-repair/', '/'], strength: 0.35 },
  { query: 'emergency plumber austin', pages: ['/emergency-plumbing/', '/'], strength: 0.8 },
  { query: '24 hour plumber round rock', pages: ['/emergency-plumbing/'], strength: 0.5 },
  { query: 'burst pipe repair near me', pages: ['/emergency-plumbing/'], strength: 0.3 },
  { query: 'rapid rooter plumbing', pages: ['/'], strength: 1 },
  { query: 'how to unclog a bathroom sink', pages: ['/blog/unclog-a-bathroom-sink/'], strength: 0.45 },
] as const

/**
 * One day's rows: impressions grow over the weeks (the agency's work is paying off), positions improve a
 * little, weekends are quieter, and CTR follows position. Deterministic for the day.
 */
function rowsOf(date: string, weeksAgo: number): GscRow[] {
  const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()) ? 0.7 : 1
  const growth = 1 + 0.05 * (8 - Math.min(8, weeksAgo))
  const rows: GscRow[] = []
  for (const { query, pages, strength } of QUERIES) {
    for (const [rank, path] of pages.entries()) {
      const n = noise(`gsc|${date}|${query}|${path}`)
      const impressions = Math.round((15 + strength * 140 + n * 40) * weekend * growth * (rank === 0 ? 1 : 0.3))
      const position = Math.max(1, Math.round((1 + (1 - strength) * 14 + n * 3 + rank * 6 - (growth - 1) * 4) * 10) / 10)
      const ctrAtPosition = position < 2 ? 0.28 : position < 4 ? 0.12 : position < 8 ? 0.05 : 0.015
      const clicks = Math.round(impressions * ctrAtPosition * (0.8 + n * 0.4))
      rows.push({ query, page: `${SITE}${path}`, clicks, impressions, ctr: impressions === 0 ? 0 : clicks / impressions, position })
    }
  }
  // The API's order: most clicks first.
  return rows.sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions)
}

/**
 * The sandbox's fictional Search Console: the client's URL-prefix property, connected a month ago through a
 * service account with no real credentials recorded (and no cadence, so the capture worker never calls Google
 * for fiction), and two captures of 28 days each, taken four weeks apart as run_gsc_capture would: the later
 * one covers the default period and the earlier one the period before it, so get_gsc_snapshot compares the
 * two. Every event comes from the ordinary commands with the clock set back. Deterministic for the same day.
 */
export async function seedSandboxGsc(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const clocked = (at: Date): WriteDeps => ({ ...write, clock: () => at })
  const connectedAt = new Date(now.getTime() - 29 * DAY_MS)
  await setGscProperty(clocked(connectedAt), ctx, {
    callerOrgId: orgId,
    clientId,
    property: PROPERTY,
    credentials: {
      auth_type: 'service_account',
      service_account_email: 'rankrelay-gsc@rapid-rooter-sandbox.iam.gserviceaccount.com',
      sealed_credentials: null,
    },
    cadence: 'off',
  })
  const today = dayOf(now)
  for (const weeksBack of [4, 0]) {
    // Queued an hour before, but never on the day before: in the first hour after midnight UTC that would move
    // the capture's range back a day, and the default period would no longer be covered.
    const capturedAt = now.getTime() - weeksBack * 7 * DAY_MS
    const queuedAt = new Date(Math.max(capturedAt - 3_600_000, Date.parse(`${dayOf(new Date(capturedAt))}T00:00:00.000Z`)))
    const at = clocked(queuedAt)
    const queued = await queueGscCapture(at, ctx, { callerOrgId: orgId, clientId, trigger: 'manual' })
    if (queued.captureId === null || !queued.created) throw new Error('the sandbox capture was not queued')
    const ref = { orgId, captureId: queued.captureId }
    const end = addDays(dayOf(queuedAt), -3)
    const start = addDays(end, -27)
    let state = await startGscCapture(at, ctx, { ...ref, clientId, property: PROPERTY, range: { start, end } })
    for (let date = start; date <= end; date = addDays(date, 1)) {
      const weeksAgo = Math.floor((daysInRange(date, today) - 1) / 7)
      state = await recordGscRows(at, ctx, { ...ref, date, startRow: 0, rows: rowsOf(date, weeksAgo), dayComplete: true })
    }
    if (state.status !== 'completed') throw new Error(`the sandbox capture ended ${state.status}`)
  }
}
