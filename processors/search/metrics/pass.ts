import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { systemContext } from '../../../commands/command-handler.js'
import { recordFetchedMetrics, recordFetchFailure } from '../../../commands/search/metrics.js'
import { MAX_KEYWORDS_PER_FETCH, type MetricsFailureCode, type MetricsLocation } from '../../../domain/search/metrics/events.js'
import { ACCOUNT_FAILURE_COOLDOWN_MS, FAILED_FETCH_RETRY_MS, isAccountFailure } from '../../../domain/search/metrics/failures.js'
import { metricsRows, type SentKeyword } from '../../../domain/search/metrics/results.js'
import { accountFailures } from '../../../projections/search/metrics/account-failures.js'
import { keywordsNeedingMetrics, type NeededKeyword } from '../../../projections/search/metrics/needing.js'
import type { ProcessorDeps } from '../../runtime.js'
import type { KeywordMetricsProvider } from './provider.js'
import { type RetryPolicy, withRetries } from './retries.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'

/** How long a pass waits for the read models to show a fetch it recorded, so the next pass never fetches it again. */
const READ_MODEL_WAIT_MS = 30_000
/** One pass at a time across every process sharing the database. */
const LOCK_KEY = 'processor:keyword-metrics'

export interface PassOptions {
  /** Phrases per provider task (DataForSEO's limit, 1000; tests use fewer). */
  readonly batchSize?: number
  /** The jitter's randomness (tests pass a fixed one). */
  readonly random?: () => number
}

export interface PassReport {
  /** False: another process held the pass (nothing was done). */
  readonly ran: boolean
  readonly fetches: number
  readonly failed: number
  /** Organizations left alone this pass: waiting out a 401/402, or the public sandbox. */
  readonly skippedOrgs: number[]
}

type Group = { orgId: number; location: MetricsLocation; keywords: NeededKeyword[] }

/** The needed phrases per organization, then per market, in the order keywordsNeedingMetrics ranked them. */
function groupsOf(needed: readonly NeededKeyword[]): Map<number, Group[]> {
  const byOrg = new Map<number, Map<number, Group>>()
  for (const k of needed) {
    const markets = byOrg.get(k.orgId) ?? new Map<number, Group>()
    byOrg.set(k.orgId, markets)
    const group = markets.get(k.location.location_code) ?? { orgId: k.orgId, location: k.location, keywords: [] }
    markets.set(k.location.location_code, group)
    group.keywords.push(k)
  }
  return new Map([...byOrg].map(([org, markets]) => [org, [...markets.values()]]))
}

/** Organizations the pass leaves alone: the sandbox (its keywords are fiction) and those waiting out a 401/402. */
async function orgsToSkip(deps: ProcessorDeps, now: Date): Promise<Set<number>> {
  const skip = new Set<number>()
  const sandboxOrg = await sandboxOrgId(deps.store)
  if (sandboxOrg !== null) skip.add(sandboxOrg)
  for (const f of await accountFailures(deps.read)) {
    if (f.refreshRequestedAfter === null && now.getTime() - f.at.getTime() < ACCOUNT_FAILURE_COOLDOWN_MS) skip.add(f.orgId)
  }
  return skip
}

/**
 * One fetch: the search volumes of up to 1000 phrases in one market (retried through outages), then their
 * difficulty (best effort: its failure leaves difficulty null and is noted), recorded as one fetch. Returns
 * the failure code when the fetch failed, null when it recorded rows, undefined when stopped before the end.
 */
async function fetchOne(
  deps: ProcessorDeps,
  provider: KeywordMetricsProvider,
  group: Group,
  keywords: readonly NeededKeyword[],
  signal: AbortSignal,
  policy: RetryPolicy,
): Promise<MetricsFailureCode | null | undefined> {
  const context = systemContext('keyword-metrics')
  const fetchId = randomUUID()
  const sent: SentKeyword[] = keywords.map((k) => ({ keyword_key: k.keywordKey, keyword: k.keyword }))
  const request = { keywords: sent.map((k) => k.keyword_key), location: group.location }
  const volumes = await withRetries(policy, signal, async () => {
    const answer = await provider.searchVolume(request, signal)
    return { value: answer.results, costUsd: answer.costUsd }
  })
  // Stopping (shutdown) is not the provider's failure: nothing is recorded, the phrases are still needed.
  if (signal.aborted) return undefined
  if (!volumes.ok) {
    const { position } = await recordFetchFailure(deps.write, context, {
      orgId: group.orgId,
      fetchId,
      location: group.location,
      keywords: sent,
      error: volumes.error,
      attempts: volumes.attempts,
      providerCalls: volumes.attempts,
      costUsd: volumes.costUsd > 0 ? volumes.costUsd : null,
    })
    if (position) await deps.watermark.waitFor(position, READ_MODEL_WAIT_MS)
    deps.log.warn({ org_id: group.orgId, fetch_id: fetchId, error: volumes.error }, 'keyword metrics fetch failed')
    return volumes.error.code
  }
  const difficulty = await withRetries(policy, signal, async () => {
    const answer = await provider.difficulty(request, signal)
    return { value: answer.results, costUsd: answer.costUsd }
  })
  if (signal.aborted) return undefined
  const cost = volumes.costUsd + difficulty.costUsd
  const { position } = await recordFetchedMetrics(deps.write, context, {
    orgId: group.orgId,
    fetchId,
    source: 'dataforseo',
    location: group.location,
    rows: metricsRows(sent, volumes.value, difficulty.ok ? difficulty.value : null),
    summary: {
      difficulty: difficulty.ok ? 'fetched' : 'unavailable',
      difficulty_error: difficulty.ok ? null : difficulty.error,
      attempts: volumes.attempts,
      provider_calls: volumes.attempts + difficulty.attempts,
      cost_usd: cost > 0 ? Math.round(cost * 1e6) / 1e6 : null,
      last_error: volumes.lastError,
    },
  })
  if (position) await deps.watermark.waitFor(position, READ_MODEL_WAIT_MS)
  return null
}

/**
 * One pass of the metrics processor: every organization's phrases that need metrics (missing, stale, or
 * asked for), fetched from the provider one task per market and 1000 phrases, one task at a time (the
 * provider's limiters space them). An organization whose fetch fails on credentials or billing is not asked
 * again this pass, nor for the cooldown after (unless someone asks for a refresh), so a wrong password is
 * one failed call per organization per hour, never a loop; phrases whose fetch failed otherwise wait a
 * quarter of an hour (FAILED_FETCH_RETRY_MS). Held by one process at a time.
 */
export async function runKeywordMetricsPass(
  deps: ProcessorDeps,
  provider: KeywordMetricsProvider,
  signal: AbortSignal,
  options: PassOptions = {},
): Promise<PassReport> {
  return deps.db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended(${LOCK_KEY}, 0)) as locked`.execute(conn)
    if (!rows[0]?.locked) return { ran: false, fetches: 0, failed: 0, skippedOrgs: [] }
    try {
      return await pass(deps, provider, signal, options)
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${LOCK_KEY}, 0))`.execute(conn).catch(() => {})
    }
  })
}

async function pass(deps: ProcessorDeps, provider: KeywordMetricsProvider, signal: AbortSignal, options: PassOptions): Promise<PassReport> {
  const now = deps.write.clock()
  const batchSize = Math.min(MAX_KEYWORDS_PER_FETCH, Math.max(1, options.batchSize ?? MAX_KEYWORDS_PER_FETCH))
  const policy: RetryPolicy = {
    maxAttempts: deps.search.maxAttempts,
    backoffBaseMs: deps.search.backoffBaseMs,
    ...(options.random ? { random: options.random } : {}),
  }
  const skip = await orgsToSkip(deps, now)
  const needed = await keywordsNeedingMetrics(deps.read, {
    orgId: null,
    now,
    maxAgeDays: deps.search.metricsMaxAgeDays,
    fetchableOnly: true,
    failedBefore: new Date(now.getTime() - FAILED_FETCH_RETRY_MS),
  })
  const report = { ran: true, fetches: 0, failed: 0, skippedOrgs: [] as number[] }
  for (const [orgId, groups] of groupsOf(needed)) {
    if (skip.has(orgId)) {
      report.skippedOrgs.push(orgId)
      continue
    }
    if (!(await fetchOrg(deps, provider, groups, batchSize, signal, policy, report))) break
  }
  return report
}

/** An organization's tasks, market by market; false when the pass was stopped. */
async function fetchOrg(
  deps: ProcessorDeps,
  provider: KeywordMetricsProvider,
  groups: readonly Group[],
  batchSize: number,
  signal: AbortSignal,
  policy: RetryPolicy,
  report: { fetches: number; failed: number },
): Promise<boolean> {
  for (const group of groups) {
    for (let i = 0; i < group.keywords.length; i += batchSize) {
      if (signal.aborted) return false
      const outcome = await fetchOne(deps, provider, group, group.keywords.slice(i, i + batchSize), signal, policy)
      if (outcome === undefined) return false
      report.fetches++
      if (outcome === null) continue
      report.failed++
      // Credentials or billing: the organization's other tasks would fail alike; they wait for the cooldown.
      if (isAccountFailure(outcome)) return true
    }
  }
  return true
}
