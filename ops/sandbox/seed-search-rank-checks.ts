import { loadClient } from '../../commands/clients.js'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { decode } from '../../commands/event-store/decode.js'
import { loadKeywordSet } from '../../commands/keywords.js'
import { setRankCadence } from '../../commands/search/rank-checks/cadence.js'
import {
  completeRankCheck,
  failRankCheck,
  queueRankCheck,
  reportRankCheckProgress,
  startRankCheck,
} from '../../commands/search/rank-checks/checks.js'
import { recordKeywordRanks } from '../../commands/search/ranks.js'
import { DEFAULT_RANK_DEVICES, utcDay } from '../../domain/search/rank-checks/cadence.js'
import { checkPlan, pendingTasks } from '../../domain/search/rank-checks/plan.js'
import { rankDayStream } from '../../domain/search/ranks/rank-day.js'
import { MAX_RANK_POSITION, NO_SERP_FEATURES, type RankRow } from '../../domain/search/ranks/rank-row.js'

const DAY_MS = 86_400_000
const LEASE_MS = 60_000

/** The ranks the imported history holds for `date` (the ranks part seeds ninety days up to yesterday). */
async function ranksOfDay(write: WriteDeps, clientId: number, date: string): Promise<RankRow[]> {
  const rows: RankRow[] = []
  for await (const recorded of write.store.readStream(rankDayStream({ clientId, date }))) {
    const event = decode(recorded)
    if (event.type === 'KeywordRanksRecorded') rows.push(...event.data.rows)
  }
  return rows
}

/**
 * The sandbox's fictional rank checks for its client, after its imported rank history (which ends yesterday):
 * a weekly cadence on both devices, set yesterday evening once the history was imported; today's scheduled check, failed at its first search
 * because the agency's DataForSEO balance ran out (402, rank_provider_payment_required); and the check the
 * agency ran by hand once it had paid, which searched every keyword at each of the client's locations on both
 * devices and recorded today's ranks (yesterday's page, a place lower at the second location). The
 * processors never queue checks for the sandbox (its cadence is fiction). Deterministic for the same history
 * and day.
 */
export async function seedSandboxRankChecks(write: WriteDeps, ctx: CommandContext, _orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const today = utcDay(now)
  const dayStart = Date.parse(`${today}T00:00:00Z`)
  // Today's events fall between midnight (UTC) and now, however early in the day the sandbox is seeded.
  const span = Math.min(now.getTime() - dayStart, 2 * 3_600_000)
  const at = (share: number) => new Date(now.getTime() - span + Math.round(span * share))
  const clocked = (time: Date): WriteDeps => ({ ...write, clock: () => time })

  await setRankCadence(clocked(new Date(dayStart - DAY_MS + 17 * 3_600_000)), ctx, {
    callerOrgId: null,
    clientId,
    frequency: 'weekly',
    devices: DEFAULT_RANK_DEVICES,
  })

  const client = await loadClient(write.store, clientId)
  const keywordIds = (await loadKeywordSet(write, clientId)).keywords.filter((k) => !k.deleted).map((k) => k.id)
  const plan = checkPlan(
    keywordIds,
    client.locations.map((l) => l.id),
    DEFAULT_RANK_DEVICES,
  )
  const worker = 'sandbox'

  // The scheduled check: its first search is refused for payment.
  const scheduled = await queueRankCheck(clocked(at(0.1)), ctx, { callerOrgId: null, clientId, trigger: 'cadence', due: 'weekly' })
  if (!scheduled?.created) return // already seeded today (the cadence is not due)
  const taken = await startRankCheck(clocked(at(0.1)), ctx, {
    clientId,
    checkId: scheduled.checkId,
    leaseMs: LEASE_MS,
    worker,
    provider: 'dataforseo',
    tasksRecorded: 0,
    plan,
  })
  await failRankCheck(clocked(at(0.12)), ctx, {
    clientId,
    checkId: scheduled.checkId,
    attempt: taken.open!.attempt,
    error: { code: 'rank_provider_payment_required', message: 'HTTP 402: Payment Required. (40200)' },
    tasks_done: 0,
    tasks_failed: 0,
    calls: 1,
    retries: 0,
  })

  // Topped up, the agency runs it again: every search answered, today's ranks recorded.
  const manual = await queueRankCheck(clocked(at(0.6)), ctx, { callerOrgId: null, clientId, trigger: 'manual' })
  const run = await startRankCheck(clocked(at(0.6)), ctx, {
    clientId,
    checkId: manual!.checkId,
    leaseMs: LEASE_MS,
    worker,
    provider: 'dataforseo',
    tasksRecorded: 0,
    plan,
  })
  const attempt = run.open!.attempt
  const yesterday = new Map(
    (await ranksOfDay(write, clientId, utcDay(new Date(dayStart - DAY_MS)))).map((r) => [`${r.keyword_id}|${r.device}`, r]),
  )
  const rows = pendingTasks(plan, today, new Set()).map((task): RankRow => {
    const seen = yesterday.get(`${task.keyword_id}|${task.device}`)
    // At the location yesterday's rank was taken at, the same; at another, a place lower.
    const elsewhere = seen !== undefined && seen.location_id !== task.location_id
    const position = seen === undefined || seen.position === null ? null : Math.min(MAX_RANK_POSITION, seen.position + (elsewhere ? 1 : 0))
    return {
      ...task,
      date: today,
      position,
      url: position === null ? null : (seen?.url ?? null),
      page_id: position === null ? null : (seen?.page_id ?? null),
      competitors: seen?.competitors ?? [],
      serp_features: seen?.serp_features ?? NO_SERP_FEATURES,
      source: 'dataforseo',
    }
  })
  const half = Math.ceil(rows.length / 2)
  await recordKeywordRanks(clocked(at(0.7)), ctx, { clientId, rows: rows.slice(0, half), checkId: manual!.checkId, overwrite: false })
  await reportRankCheckProgress(clocked(at(0.7)), ctx, {
    clientId,
    checkId: manual!.checkId,
    attempt,
    leaseMs: LEASE_MS,
    tasks_done: half,
    tasks_failed: 0,
    calls: half + 1,
    retries: 1,
  })
  if (rows.length > half) {
    await recordKeywordRanks(clocked(at(0.8)), ctx, { clientId, rows: rows.slice(half), checkId: manual!.checkId, overwrite: false })
  }
  await completeRankCheck(clocked(at(0.8)), ctx, {
    clientId,
    checkId: manual!.checkId,
    attempt,
    tasks_done: rows.length,
    tasks_failed: 0,
    calls: rows.length - half,
    retries: 0,
  })
}
