import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'
import type { Logger } from 'pino'
import { BUILT_IN_WRITER, builtInLines, planClientAdCopy, proposeAdCopySet } from '../../commands/ad-copy.js'
import { createApiKey } from '../../commands/api-keys.js'
import { addGeneratedKeywords } from '../../commands/keywords.js'
import { generateKeywords } from '../../domain/keywords/generate.js'
import { setCadence } from '../../commands/aeo/cadence.js'
import { ingestCapture } from '../../commands/aeo/captures.js'
import { loadClient } from '../../commands/clients.js'
import { generateClientQuestions, loadQuestionSet, updateQuestion } from '../../commands/aeo/questions.js'
import { withAdvisoryLock } from '../../commands/advisory-lock.js'
import { fileReport } from '../../commands/aeo/reports.js'
import { appendDecided } from '../../commands/append.js'
import { loadTracker, updateItemStatus } from '../../commands/aeo/tracker.js'
import { addClient, setClientStatus } from '../../commands/clients.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../../commands/command-handler.js'
import { decode } from '../../commands/event-store/decode.js'
import type { Position } from '../../commands/event-store/port.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { seedSandboxSite } from './seed-site-edits.js'
import { seedSandboxSearch } from './seed-search.js'
import { seedSandboxMonitoring } from './seed-monitoring.js'
import { seedSandboxPlanning } from './seed-planning.js'
import { seedSandboxPublishing } from './seed-publishing.js'
import { seedSandboxContent } from './seed-content.js'
import { seedSandboxCompareReport } from './seed-planning-compare-reports.js'
import { organizationStream, organization } from '../../domain/organizations/organization.js'
import { SCOPES } from '../../domain/api-keys/scopes.js'
import { apiKeyStream } from '../../domain/api-keys/api-key.js'
import { run, type AgentRef } from '../../domain/aeo/runs/run.js'
import type { ItemStatusValue } from '../../domain/aeo/tracker/tracker.js'
import { renderReportHtml } from '../../domain/aeo/reports/html.js'
import {
  DEACTIVATED_QUESTIONS,
  FIXTURE_VERSION,
  fixtureAnswer,
  fixtureMonths,
  ITEM_STATUS_PLAN,
  momentIn,
  SAMPLED_QUESTIONS,
  SAMPLES_PER_MONTH,
  SANDBOX_BRANDING,
  SANDBOX_CLIENT,
  SANDBOX_ENGINES,
  SANDBOX_ORG_NAME,
} from '../../domain/sandbox/fixture.js'
import { SANDBOX_KEY, SANDBOX_KEY_NAME } from '../../domain/sandbox/key.js'
import { SANDBOX_ACTOR_ID, sandbox, SANDBOX_STREAM, type SandboxCommand, type SandboxState } from '../../domain/sandbox/sandbox.js'
import { DomainError } from '../../domain/shared/errors.js'
import { loadReportInput } from '../../projections/aeo/reports/report-data.js'
import { visibleClient } from '../../projections/clients/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'

/**
 * Seeding and resetting the public sandbox. It lives in ops/ (the composition root) because it composes
 * every layer: commands for the events, the read models and their report queries to file a report the
 * way file_aeo_report does, the blob store, and the projections watermark to wait for what it wrote.
 */
export interface SandboxDeps {
  readonly write: WriteDeps
  readonly read: ReadDb
  readonly db: Kysely<WorkTables>
  readonly watermark: ProjectionWatermark
  readonly log: Logger
}

export interface SandboxOutcome {
  readonly orgId: number
  readonly clientId: number
  readonly retiredClientIds: readonly number[]
  readonly months: readonly string[]
  readonly created: boolean
}

/** How long the seeder waits for the projections (a report is filed from the read models). */
const READ_MODEL_WAIT_MS = 120_000
const LOCK_KEY = 'sandbox:reset'
const AGENT: Omit<AgentRef, 'agent_org_id'> = { agent_id: 'sandbox-server-agent' }

const context = (): CommandContext => ({
  actor: { kind: 'system', id: SANDBOX_ACTOR_ID },
  requestId: null,
  correlationId: randomUUID(),
  causationId: null,
})

/** The sandbox stream folded: which organization and key, and the current fixture's clients. */
export async function loadSandbox(write: WriteDeps): Promise<SandboxState & { lastSeededAt: Date | null }> {
  let state = sandbox.initialState()
  let lastSeededAt: Date | null = null
  for await (const recorded of write.store.readStream(SANDBOX_STREAM)) {
    const event = decode(recorded)
    state = sandbox.evolve(state, event as Parameters<typeof sandbox.evolve>[1])
    if (event.type === 'SandboxSeeded') lastSeededAt = new Date(event.metadata.occurred_at ?? event.recordedAt.toISOString())
  }
  return { ...state, lastSeededAt }
}

async function streamExists(write: WriteDeps, stream: string): Promise<boolean> {
  for await (const _event of write.store.readStream(stream, { maxCount: 1 })) return true
  return false
}

function sandboxCommand(write: WriteDeps, command: SandboxCommand, orgId: number) {
  return handleCommand(write, { aggregate: sandbox, id: null, command, context: context(), orgId })
}

/** A concurrent creator got there first: its outcome is as good as ours. */
function ignoreAlreadyExists(error: unknown): void {
  if (!(error instanceof DomainError && error.code === 'already_exists')) throw error
}

/**
 * Makes sure the sandbox organization and its published key exist. The first SandboxCreated (appended with
 * expected revision no_stream) claims the ids; each later step is checked against the log, so a creation
 * interrupted half way is completed by the next call instead of minting a second organization.
 */
async function ensureSandbox(deps: SandboxDeps): Promise<{ orgId: number; created: boolean }> {
  let state = await loadSandbox(deps.write)
  let created = false
  if (!state.exists) {
    const orgId = await deps.write.ids.next('organization')
    const keyId = await deps.write.ids.next('api_key')
    try {
      await sandboxCommand(deps.write, { type: 'CreateSandbox', org_id: orgId, key_id: keyId }, orgId)
      created = true
    } catch (error) {
      ignoreAlreadyExists(error)
    }
    state = await loadSandbox(deps.write)
  }
  const orgId = state.orgId!
  if (!(await streamExists(deps.write, organizationStream(orgId)))) {
    await handleCommand(deps.write, {
      aggregate: organization,
      id: orgId,
      command: { type: 'CreateOrganization', org_id: orgId, name: SANDBOX_ORG_NAME },
      context: context(),
      orgId,
    })
      .then(() =>
        handleCommand(deps.write, {
          aggregate: organization,
          id: orgId,
          command: { type: 'UpdateBranding', org_id: orgId, changes: { ...SANDBOX_BRANDING } },
          context: context(),
          orgId,
        }),
      )
      .catch(ignoreAlreadyExists)
  }
  if (!(await streamExists(deps.write, apiKeyStream(state.keyId!)))) {
    await createApiKey(deps.write, context(), {
      name: SANDBOX_KEY_NAME,
      notes: 'Published in the docs. Reads the sandbox organization only; writes and jobs answer 403 sandbox_read_only.',
      scopes: ['read'],
      orgId,
      createdByUserId: null,
      creator: { orgId: null, scopes: [...SCOPES] },
      plaintext: SANDBOX_KEY,
      keyId: state.keyId!,
    }).catch(ignoreAlreadyExists)
  }
  return { orgId, created }
}

async function caughtUp(deps: SandboxDeps, position?: Position | null): Promise<void> {
  const target = position === undefined ? await deps.write.store.headPosition() : position
  if (target === null) return
  if (!(await deps.watermark.waitFor(target, READ_MODEL_WAIT_MS))) {
    throw new Error('The read models did not catch up in time; is a projection runner running?')
  }
}

/**
 * Retires every client of the sandbox organization: each is deleted through the ordinary command (its slug
 * is freed and further writes are refused), its raw capture records and filed report files are removed,
 * and SandboxReset tells the projections to delete its read-model rows. Other organizations are untouched.
 */
async function retireClients(deps: SandboxDeps, orgId: number, state: SandboxState): Promise<number[]> {
  await caughtUp(deps)
  const rows = await deps.read.selectFrom('clients').select(['id', 'status']).where('org_id', '=', orgId).execute()
  const retired = [...new Set([...state.clientIds, ...rows.map((r) => r.id)])]
  if (retired.length === 0 && state.seeds === 0) return []
  for (const row of rows) {
    if (row.status !== 'deleted') await setClientStatus(deps.write, context(), { callerOrgId: orgId, clientId: row.id, status: 'deleted' })
  }
  if (retired.length > 0) {
    const reports = await deps.read
      .selectFrom('aeo_reports')
      .select('path')
      .where('org_id', '=', orgId)
      .where(sql<boolean>`client_id = any(${sql.val(retired)}::bigint[])`)
      .execute()
    const compareReports = await deps.read
      .selectFrom('compare_reports')
      .select('path')
      .where('org_id', '=', orgId)
      .where(sql<boolean>`client_id = any(${sql.val(retired)}::bigint[])`)
      .execute()
    // Client images: every version's files, under images/<org>/<client>/ (commands/content/images.ts).
    const images = await deps.db
      .selectFrom('files')
      .select('path')
      .where('org_id', '=', orgId)
      .where(sql<boolean>`path like any(${sql.val(retired.map((id) => `images/${orgId}/${id}/%`))}::text[])`)
      .execute()
    const blobs = new PostgresBlobStore(deps.db, deps.write.clock)
    for (const report of [...reports, ...compareReports, ...images]) await blobs.delete(report.path)
    await deps.db
      .deleteFrom('aeo_capture_records')
      .where('org_id', '=', orgId)
      .where(sql<boolean>`client_id = any(${sql.val(retired)}::bigint[])`)
      .execute()
  }
  const outcome = await sandboxCommand(deps.write, { type: 'ResetSandbox', also_retire: retired }, orgId)
  const event = outcome.events[0]
  return event?.type === 'SandboxReset' ? event.data.retired_client_ids : []
}

/**
 * Seeds the fixture: the client with services and locations, its generated questions (a few deactivated),
 * a cadence, then month by month runs queued, claimed, answered and completed with realistic answers,
 * tracker items moved through statuses, and last month's report filed. Every event comes from the ordinary
 * commands and domain decisions with a clock set into the past, so the history reads like a real one.
 */
async function seedFixture(
  deps: SandboxDeps,
  orgId: number,
  now: Date,
): Promise<{ clientId: number; months: string[]; position: Position | null }> {
  const months = fixtureMonths(now)
  // The client joined on the first day of the history, before any capture.
  let at = new Date(Math.min(Date.parse(`${months[0]}-01T09:00:00Z`), now.getTime() - 120_000))
  const write: WriteDeps = { ...deps.write, clock: () => at }
  const ctx = context()
  const { clientId } = await addClient(write, ctx, {
    orgId,
    name: SANDBOX_CLIENT.name,
    websiteUrl: SANDBOX_CLIENT.websiteUrl,
    slug: SANDBOX_CLIENT.slug,
    status: 'active',
    services: SANDBOX_CLIENT.services.map((s) => ({ ...s })),
    locations: SANDBOX_CLIENT.locations.map((l) => ({ ...l })),
    settings: { ...SANDBOX_CLIENT.settings },
  })
  const caller = { callerOrgId: orgId, clientId }
  await generateClientQuestions(write, ctx, caller)
  const questions = [...(await loadQuestionSet(write, clientId)).questions]
    .filter((q) => !q.deleted)
    .sort((a, b) => b.priority - a.priority || a.id - b.id)
  for (const q of questions.slice(-DEACTIVATED_QUESTIONS)) {
    await updateQuestion(write, ctx, { ...caller, queryId: q.id, changes: { active: false } })
  }
  // The agency samples its best questions across every service (round robin), so each service has a trend.
  const byService = new Map<string, typeof questions>()
  for (const q of questions.slice(0, questions.length - DEACTIVATED_QUESTIONS))
    byService.set(q.service, [...(byService.get(q.service) ?? []), q])
  const sampled: typeof questions = []
  for (let round = 0; sampled.length < SAMPLED_QUESTIONS && round < questions.length; round++) {
    for (const list of byService.values()) if (list[round] && sampled.length < SAMPLED_QUESTIONS) sampled.push(list[round]!)
  }
  // The cadence is recorded paused from the start: a live scheduler sweeps enrolled clients at any moment,
  // and an enabled sandbox cadence, even for the seconds seeding takes, could spend real engine calls on
  // fiction. The runs below are queued as manual enqueues (enqueue_due_aeo_runs) instead.
  await setCadence(write, ctx, {
    ...caller,
    samplesPerMonth: SAMPLES_PER_MONTH,
    engines: [...SANDBOX_ENGINES],
    geoState: 'TX',
    enabled: false,
  })
  // Keywords and a proposed ad copy set, as keyword_generation and ad_copy jobs (built-in writers) leave them.
  const client = await loadClient(write.store, clientId)
  const keywordCandidates = generateKeywords({
    services: client.services.map((s) => s.name),
    locations: client.locations,
    questions: questions.filter((q) => q.active),
    max: 60,
  })
  await addGeneratedKeywords(write, ctx, {
    ...caller,
    candidates: keywordCandidates.map((c) => ({ keyword: c.keyword, source: c.source, service: c.service, location: c.location })),
  })
  const { owner, plan: adPlan } = await planClientAdCopy(write.store, caller)
  await proposeAdCopySet(write, ctx, {
    owner,
    jobId: null,
    groups: adPlan.groups.map((group) => ({ group, lines: builtInLines(owner, group), writer: BUILT_IN_WRITER })),
  })

  const agent: AgentRef = { ...AGENT, agent_org_id: orgId }
  const captureDeps = { ...write, db: deps.db }
  const plan = [...ITEM_STATUS_PLAN]
  for (const [monthIndex, month] of months.entries()) {
    // Early in the current month the agency files last month's report, as file_aeo_report would: rendered from the read models.
    if (monthIndex === months.length - 1) {
      at = new Date(Math.min(now.getTime() - 90_000, Date.parse(`${month}-01T10:00:00Z`)))
      await caughtUp(deps)
      const reportMonth = months[monthIndex - 1]!
      const client = await visibleClient(deps.read, orgId, clientId)
      const { input } = await loadReportInput(deps.read, client, reportMonth, at)
      if (input)
        await fileReport(write, new PostgresBlobStore(deps.db, write.clock), ctx, {
          orgId,
          clientId,
          month: reportMonth,
          html: renderReportHtml(input),
        })
    }
    const pairs = sampled.flatMap((q) => SANDBOX_ENGINES.map((engine) => ({ q, engine })))
    for (const [k, { q, engine }] of pairs.entries()) {
      at = momentIn(month, k, pairs.length + 1, now)
      const runId = await write.ids.next('aeo_run')
      const queued = run.decide(
        {
          type: 'QueueRun',
          run_id: runId,
          client_id: clientId,
          query_id: q.id,
          engine,
          month,
          geo_state: 'TX',
          priority: q.priority,
          sample: 1,
          reason: 'enqueue',
        },
        run.initialState(),
      )
      await appendDecided(write, ctx, run.streamOf(runId), queued, 'no_stream', orgId)
      const lease = new Date(at.getTime() + 15 * 60_000).toISOString()
      await handleCommand(write, {
        aggregate: run,
        id: runId,
        command: { type: 'ClaimRun', agent, lease_expires_at: lease, now: at.toISOString() },
        context: ctx,
        visibleTo: orgId,
      })
      await handleCommand(write, { aggregate: run, id: runId, command: { type: 'StartRun', agent }, context: ctx, visibleTo: orgId })
      const answer = fixtureAnswer({ prompt: q.prompt, service: q.service, location: q.location, engine, monthIndex, month })
      const { captureId } = await ingestCapture(captureDeps, ctx, {
        callerOrgId: orgId,
        clientId,
        queryId: q.id,
        engine,
        answerText: answer.answerText,
        citations: answer.citations,
        month,
        runId,
        recordJson: { engine, model: engine === 'claude' ? 'claude-sonnet (sandbox)' : 'gpt (sandbox)', output_text: answer.answerText },
        model: engine === 'claude' ? 'claude-sonnet (sandbox)' : 'gpt (sandbox)',
        surface: 'api',
        searched: true,
      })
      await handleCommand(write, {
        aggregate: run,
        id: runId,
        command: { type: 'CompleteRun', agent, capture_id: captureId },
        context: ctx,
        visibleTo: orgId,
      })
    }
    // The agency works the action list as the months go by: two status changes after the second and third months.
    if (monthIndex === 1 || monthIndex === 2) {
      at = momentIn(month, pairs.length, pairs.length + 1, now)
      const items = [...(await loadTracker(write.store, clientId)).items.values()].sort((a, b) => a.itemId - b.itemId)
      for (const step of plan.splice(0, 2)) {
        // A dismissal goes to market-driven or directory work (tier X or C) when there is some; the rest to any open item.
        const open = items.filter((i) => i.status === 'open')
        const item =
          step.status === 'dismissed'
            ? (open.find((i) => i.tier === 'X' || i.tier === 'C') ?? open[0])
            : (open.find((i) => i.tier === 'A' || i.tier === 'B') ?? open[0])
        if (!item) continue
        await updateItemStatus(write, ctx, { ...caller, itemId: item.itemId, status: step.status as ItemStatusValue, note: step.note })
        items.splice(items.indexOf(item), 1)
      }
    }
  }

  at = now
  await seedSandboxSite(write, ctx, orgId, clientId, SANDBOX_CLIENT.websiteUrl)
  // The site as the monitor saw it (crawled pages and snapshots) before what search derives from its pages:
  // the intents are classified from each page's newest snapshot, so a crawl seeded after them left them stale.
  await seedSandboxMonitoring(write, ctx, orgId, clientId)
  await seedSandboxSearch(write, ctx, orgId, clientId)
  // The month's plan is made from what search and AI Visibility found, so it comes after them.
  await seedSandboxPlanning(write, ctx, orgId, clientId)
  await seedSandboxPublishing(write, ctx, orgId, clientId)
  await seedSandboxContent(write, ctx, orgId, clientId, new PostgresBlobStore(deps.db, write.clock))
  // The month's compare report is rendered from the read models, like the AI Visibility report above.
  await caughtUp(deps)
  await seedSandboxCompareReport({ ...deps, write }, ctx, orgId, clientId, months.at(-1)!)
  const seeded = await sandboxCommand(
    write,
    { type: 'RecordSeed', client_ids: [clientId], months, fixture_version: FIXTURE_VERSION },
    orgId,
  )
  return { clientId, months, position: seeded.position }
}

/**
 * `sandbox reset` (and the first seed): creates the sandbox if needed, retires the current fixture and
 * seeds a fresh one (new ids, history relative to `now`), and returns once the read models show it. One
 * at a time across every process (a PostgreSQL advisory lock).
 */
export async function resetSandbox(deps: SandboxDeps, now?: Date): Promise<SandboxOutcome> {
  return (await resetLocked(deps, now, () => true))!
}

/**
 * For the processors role, on start and then periodically: seeds the sandbox when it was never seeded,
 * and resets it when `due(lastSeededAt)` says so. Decided under the lock, so two processes never reset
 * one after the other. Null when nothing was due.
 */
export async function resetSandboxIfDue(deps: SandboxDeps, due: (lastSeededAt: Date) => boolean): Promise<SandboxOutcome | null> {
  return resetLocked(deps, undefined, (state) => state.seeds === 0 || state.lastSeededAt === null || due(state.lastSeededAt))
}

async function resetLocked(
  deps: SandboxDeps,
  now: Date | undefined,
  wanted: (state: Awaited<ReturnType<typeof loadSandbox>>) => boolean,
): Promise<SandboxOutcome | null> {
  // One reset (or seed) at a time, cluster-wide.
  return withAdvisoryLock(deps.db, LOCK_KEY, async () => {
    if (!wanted(await loadSandbox(deps.write))) return null
    const { orgId, created } = await ensureSandbox(deps)
    const state = await loadSandbox(deps.write)
    const retiredClientIds = await retireClients(deps, orgId, state)
    const seeded = await seedFixture(deps, orgId, now ?? deps.write.clock())
    await caughtUp(deps, seeded.position)
    deps.log.info({ orgId, clientId: seeded.clientId, retired: retiredClientIds.length }, 'sandbox seeded')
    return { orgId, clientId: seeded.clientId, retiredClientIds, months: seeded.months, created }
  })
}
