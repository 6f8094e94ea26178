/**
 * Shared by the insights tests: a fictional plumbing client (keywords, pages with content, links between
 * them) and helpers that record its ranks through record_keyword_ranks and its Search Console rows through
 * the capture commands a Search Console worker uses.
 */
import { systemContext } from '../../commands/command-handler.js'
import { recordGscRows, startGscCapture } from '../../commands/search/gsc/captures.js'
import type { TestSystem } from '../support/system.js'
import { clientPayload } from './helpers.js'

export const SITE = 'https://www.rapidrooterplumbing.example'

export interface Site {
  readonly clientId: number
  readonly keywords: { drain: number; drainAustin: number; emergency: number; heater: number; sewer: number }
  readonly pages: { home: number; drain: number; emergency: number; heaterRepair: number; heaters: number }
}

/**
 * The client, its keywords (every one but "sewer line repair" linked to a page) and its pages; the drain
 * cleaning page's content carries a title tag and a meta description, as a site's HTML does.
 */
export async function seedSite(ts: TestSystem, key: string, name = 'Rapid Rooter Plumbing'): Promise<Site> {
  const call = ts.call
  const clientId = await call<number>(
    'add_client',
    clientPayload(name, { website_url: SITE, services: ['Drain cleaning', 'Emergency plumbing'], locations: ['Austin, TX'] }),
    key,
  )
  const keyword = (text: string, service = '', location = '') =>
    call<number>('add_keyword', { keyword: { client_id: clientId, keyword: text, service, location } }, key)
  const page = (path: string, title: string) =>
    call<number>('add_page', { page: { client_id: clientId, url: `${SITE}${path}`, title } }, key)
  const keywords = {
    drain: await keyword('drain cleaning', 'Drain cleaning', 'Austin, TX'),
    drainAustin: await keyword('drain cleaning austin'),
    emergency: await keyword('emergency plumber austin'),
    heater: await keyword('water heater repair round rock'),
    sewer: await keyword('sewer line repair'),
  }
  const pages = {
    home: await page('/', 'Rapid Rooter Plumbing'),
    drain: await page('/drain-cleaning/', 'Drain Cleaning'),
    emergency: await page('/emergency-plumbing/', 'Emergency Plumbing'),
    heaterRepair: await page('/water-heater-repair/', 'Water Heater Repair'),
    heaters: await page('/water-heaters/', 'Water Heaters'),
  }
  await call(
    'add_snapshot',
    {
      snapshot: {
        page_id: pages.drain,
        title: 'Drain Cleaning',
        content:
          '<title>Drain Cleaning</title>\n<meta name="description" content="We clean drains. Licensed plumbers.">\n<h1>Drain cleaning</h1><p>Clogged drain? We clear it.</p>',
      },
    },
    key,
  )
  const link = (keyword_id: number, page_id: number) => call('associate_keyword_page', { keyword_id, page_id }, key)
  await link(keywords.drain, pages.drain)
  await link(keywords.drainAustin, pages.drain)
  await link(keywords.emergency, pages.emergency)
  await link(keywords.heater, pages.heaterRepair)
  return { clientId, keywords, pages }
}

export interface Rank {
  keyword_id: number
  date: string
  position: number | null
  url?: string | null
  device?: 'desktop' | 'mobile'
  location_id?: number | null
  serp_features?: Record<string, boolean>
}

export async function recordRanks(ts: TestSystem, key: string, clientId: number, ranks: readonly Rank[]): Promise<void> {
  await ts.call(
    'record_keyword_ranks',
    {
      client_id: clientId,
      ranks: ranks.map((r) => ({ device: 'desktop', location_id: null, url: null, ...r })),
    },
    key,
  )
}

export interface GscRowInput {
  date: string
  query: string
  page: string
  clicks: number
  impressions: number
  position: number
}

/**
 * Search Console rows as a capture records them: the property connected (an OAuth grant, never used here:
 * no worker runs), a capture of the range queued, then its days recorded by the worker's commands. Every day
 * of the range is recorded (days without rows as empty), so the capture completes.
 */
export async function recordGscCapture(
  ts: TestSystem,
  key: string,
  orgId: number,
  clientId: number,
  range: { start: string; end: string },
  rows: readonly GscRowInput[],
): Promise<number> {
  await ts.call(
    'set_gsc_property',
    {
      client_id: clientId,
      property: 'sc-domain:rapidrooterplumbing.example',
      credentials: { type: 'oauth', client_id: 'rankrelay.apps.example', client_secret: 'not-a-secret', refresh_token: 'not-a-token' },
      cadence: 'off',
    },
    key,
  )
  const queued = await ts.call<{ capture: { id: number } }>(
    'run_gsc_capture',
    { client_id: clientId, start_date: range.start, end_date: range.end },
    key,
  )
  const captureId = queued.capture.id
  const worker = systemContext('gsc-worker')
  const ref = { orgId, captureId }
  await startGscCapture(ts.system.write, worker, {
    ...ref,
    clientId,
    property: 'sc-domain:rapidrooterplumbing.example',
    range,
  })
  for (let day = range.start; day <= range.end; day = nextDay(day)) {
    const dayRows = rows
      .filter((r) => r.date === day)
      .map(({ query, page, clicks, impressions, position }) => ({
        query,
        page,
        clicks,
        impressions,
        ctr: impressions ? clicks / impressions : 0,
        position,
      }))
    await recordGscRows(ts.system.write, worker, { ...ref, date: day, startRow: 0, rows: dayRows, dayComplete: true })
  }
  return captureId
}

export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

/** Polls (no timing asserted) until `done` holds; throws with the last value after a generous bound. */
export async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  let value = await read()
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}; last: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}
