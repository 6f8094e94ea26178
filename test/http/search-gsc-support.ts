/**
 * Shared by the Search Console tests: a test system whose processors read Search Console from a local
 * stand-in (test/support/stand-ins/search-console.ts), fictional Search Analytics rows for a property, and
 * the sums a read should answer for them, computed here independently of the code under test.
 */
import type { Test } from 'tap'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS, type SearchProviderSettings } from '../../processors/search/settings.js'
import { startSearchConsoleStandIn, type SearchConsoleStandIn, type SeededRow } from '../support/stand-ins/search-console.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, orgWithKey, type OrgWithKey } from './helpers.js'
import { QUICK_JOBS } from './jobs-helpers.js'
import { TEST_SERVICE_KEY } from './webhooks-helpers.js'

/** Today, for every Search Console test: the default capture is 2026-10-28 … 2026-11-24 (28 days ending 3 days ago). */
export const TODAY = '2026-11-27'
export const DEFAULT_RANGE = { start: '2026-10-28', end: '2026-11-24' } as const
export const PREVIOUS_RANGE = { start: '2026-09-30', end: '2026-10-27' } as const
export const DOMAIN_PROPERTY = 'sc-domain:rapidrooterplumbing.example'
const SITE = 'https://www.rapidrooterplumbing.example'

/** A clock that starts on TODAY at noon and runs at real speed (retry times are real). */
export function todayClock(): () => Date {
  const base = Date.parse(`${TODAY}T12:00:00.000Z`)
  const started = Date.now()
  return () => new Date(base + (Date.now() - started))
}

/** Provider settings that point at the stand-in, poll often and back off briefly, so retries happen within a test. */
export function searchSettings(standIn: SearchConsoleStandIn, overrides: Partial<SearchProviderSettings> = {}): SearchProviderSettings {
  return {
    ...DEFAULT_SEARCH_PROVIDER_SETTINGS,
    gsc: { baseUrl: standIn.baseUrl, tokenUrl: standIn.tokenUrl },
    timeoutMs: 5_000,
    maxAttempts: 3,
    backoffBaseMs: 2,
    requestsPerSecond: 1_000,
    pollMs: 40,
    ...overrides,
  }
}

export interface GscSetup {
  readonly standIn: SearchConsoleStandIn
  readonly ts: TestSystem
  readonly acme: OrgWithKey
  readonly clientId: number
}

export async function gscSetup(t: Test, overrides: Partial<SearchProviderSettings> = {}): Promise<GscSetup> {
  const standIn = await startSearchConsoleStandIn(t)
  const ts = await startTestSystem(t, {
    clock: todayClock(),
    runProcessors: true,
    search: searchSettings(standIn, overrides),
    webhooks: { serviceKey: TEST_SERVICE_KEY },
    jobs: QUICK_JOBS,
  })
  const acme = await orgWithKey(ts, 'Acme Agency')
  const clientId = await ts.call<number>('add_client', clientPayload('Rapid Rooter Plumbing'), acme.key)
  return { standIn, ts, acme, clientId }
}

const QUERIES = [
  { query: 'drain cleaning austin', pages: ['/drain-cleaning/', '/'] },
  { query: 'emergency plumber austin', pages: ['/emergency-plumbing/'] },
  { query: 'water heater repair round rock', pages: ['/water-heater-repair/', '/water-heaters/'] },
  { query: 'rapid rooter plumbing', pages: ['/'] },
  { query: 'how to unclog a drain', pages: ['/blog/unclog-a-drain/'] },
] as const

/** Deterministic numbers from a text: noise without randomness. */
function noise(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return ((h >>> 0) % 1000) / 1000
}

/** Every day of a range. */
export function daysOf(range: { start: string; end: string }): string[] {
  const days: string[] = []
  for (let d = new Date(`${range.start}T00:00:00Z`); d.toISOString().slice(0, 10) <= range.end; d = new Date(d.getTime() + 86_400_000)) {
    days.push(d.toISOString().slice(0, 10))
  }
  return days
}

/** Fictional rows of the property: each query × page on each day, with clicks, impressions and a position. */
export function fictionalRows(range: { start: string; end: string }): SeededRow[] {
  const rows: SeededRow[] = []
  for (const date of daysOf(range)) {
    for (const [q, { query, pages }] of QUERIES.entries()) {
      for (const [p, path] of pages.entries()) {
        const n = noise(`${date}|${query}|${path}`)
        const impressions = 20 + Math.round(n * 180) + q * 7
        rows.push({
          date,
          query,
          page: `${SITE}${path}`,
          impressions,
          clicks: Math.round((impressions * (0.02 + n * 0.08)) / (p + 1)),
          position: Math.round((1.5 + n * 12 + p * 4) * 10) / 10,
        })
      }
    }
  }
  return rows
}

export interface Sums {
  clicks: number
  impressions: number
  weighted: number
}

/** Metrics as the API documents them: CTR clicks/impressions, position impression-weighted (rounded as the reads round). */
export function metrics(s: Sums) {
  return {
    clicks: s.clicks,
    impressions: s.impressions,
    ctr: s.impressions === 0 ? 0 : Math.round((s.clicks / s.impressions) * 10_000) / 10_000,
    position: s.impressions === 0 ? null : Math.round((s.weighted / s.impressions) * 100) / 100,
  }
}

export function sumBy(rows: readonly SeededRow[], keyOf: (row: SeededRow) => string): Map<string, Sums> {
  const sums = new Map<string, Sums>()
  for (const row of rows) {
    const key = keyOf(row)
    const s = sums.get(key) ?? { clicks: 0, impressions: 0, weighted: 0 }
    s.clicks += row.clicks
    s.impressions += row.impressions
    s.weighted += row.position * row.impressions
    sums.set(key, s)
  }
  return sums
}

/** Polls (no timing asserted) until the condition holds; fails the test with the last value after a generous bound. */
export async function until<T>(t: Test, what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  let value = await read()
  while (!done(value)) {
    if (Date.now() > deadline) {
      t.fail(`gave up waiting: ${what}`, { value })
      return value
    }
    await new Promise((resolve) => setTimeout(resolve, 40))
    value = await read()
  }
  return value
}

/** The capture once it is no longer queued, running or retrying. */
export function finished(ts: TestSystem, key: string, captureId: number, t: Test) {
  return until(
    t,
    `capture ${captureId} finished`,
    () => ts.call<{ status: string }>('get_gsc_capture', { capture_id: captureId }, key),
    (c) => c.status === 'completed' || c.status === 'failed',
  )
}
