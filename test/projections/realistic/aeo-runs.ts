import { checkInAgent } from '../../../commands/aeo/agents.js'
import { DEFAULT_AEO_SETTINGS } from '../../../commands/aeo/settings.js'
import { handleCommand, systemContext } from '../../../commands/command-handler.js'
import type { RecordedEvent } from '../../../commands/event-store/port.js'
import { questionSetStream } from '../../../domain/aeo/questions/question-set.js'
import { run } from '../../../domain/aeo/runs/run.js'
import { runQueueReads } from '../../../projections/aeo/runs/run-queue-reads.js'
import { recordCapture } from '../../http/aeo-runs-helpers.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt, readModelsCaughtUp } from '../../support/read-models.js'

const caps = (engines: string[], geo = 'any', max_per_day: number | null = null) => JSON.stringify({ engines, geo, max_per_day })

/**
 * The AI Visibility runs part of the realistic log: every write RPC of the part, through HTTP, on the
 * clients of `log` (keys: platform key unless given), including no-op repeats and foreign-org attempts.
 * Cadences (set, repeated, changed, disabled), enqueues (one client, every client), runs of a duplicate
 * question that a merge re-points, claims by an organization's device and the platform's server agent,
 * start, completion, failures (retried, then final), an expired claim, cancellation, and the agent events
 * (registered, capabilities changed, seen a few minutes later).
 */
export async function writeAeoRunsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters] = log.clientIds as [number, number]
  const [orgA] = log.orgIds as [number]

  await call('set_aeo_cadence', { client_id: plumbers, samples_per_month: 2, engines: ['claude', 'chatgpt'], geo_state: 'TX' }, keys.orgA)
  await call(
    'set_aeo_cadence',
    { client_id: plumbers, samples_per_month: 2, engines: ['claude', 'chatgpt-web'], geo_state: 'TX' },
    keys.orgA,
  ) // same
  await call('set_aeo_cadence', { client_id: heaters, samples_per_month: 3, engines: ['openai'] }, keys.orgA)
  const foreign = await ts.rpc('set_aeo_cadence', { client_id: plumbers, samples_per_month: 9, engines: ['claude'] }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign cadence answered ${foreign.statusCode}`)

  // A duplicate of a live question, recorded under an older normalization (as older versions wrote it), so
  // that runs are queued for it and then re-pointed by the merge.
  const questions = await call<{ id: number; prompt: string; active: boolean }[]>('get_aeo_queries', { client_id: plumbers }, keys.orgA)
  const original = questions.find((q) => q.active)!
  const stream = questionSetStream(plumbers)
  const recorded: RecordedEvent[] = []
  for await (const event of ts.system.store.readStream(stream)) recorded.push(event)
  const last = recorded[recorded.length - 1]!
  const duplicateId = await ts.system.write.ids.next('aeo_query')
  const appended = await ts.system.store.append(
    stream,
    [
      {
        type: 'AeoQuestionAdded',
        data: {
          client_id: plumbers,
          query_id: duplicateId,
          prompt: `${original.prompt.toUpperCase()}!`,
          prompt_key: `${original.prompt} (an older key)`,
          engine: 'claude',
          service: '',
          location: '',
          kind: 'custom',
          priority: 40,
          active: true,
          source: 'manual',
        },
        metadata: { ...(last.metadata as object) },
      },
    ],
    last.revision,
  )
  await readModelsAt(ts, appended.position)

  await call('enqueue_due_aeo_runs', { client_id: plumbers }, keys.orgA)
  await call('enqueue_due_aeo_runs', { client_id: plumbers }, keys.orgA) // nothing more due
  await call('enqueue_due_aeo_runs', {}, keys.orgA) // every enrolled client of org A
  await call('dedupe_aeo_queries', { client_id: plumbers }, keys.orgA) // re-points the duplicate's runs

  // An organization's device in Texas: claims, starts, completes one with its capture, fails one (retried).
  const device = await call<{ id: number; query_id: number; engine: string; month: string }[]>(
    'claim_aeo_runs',
    { agent_id: 'acme-laptop', capabilities_json: caps(['chatgpt-web'], 'TX', 200), limit: 2 },
    keys.orgA,
  )
  const [first, second] = device
  if (!first || !second) throw new Error(`the device claimed ${device.length} runs`)
  await call('start_aeo_run', { run_id: first.id, agent_id: 'acme-laptop' }, keys.orgA)
  const captureId = await recordCapture(ts, {
    orgId: orgA,
    clientId: plumbers,
    queryId: first.query_id,
    engine: first.engine,
    month: first.month,
    runId: first.id,
  })
  await call('complete_aeo_run', { run_id: first.id, agent_id: 'acme-laptop', capture_id: captureId }, keys.orgA)
  const refused = await ts.rpc('complete_aeo_run', { run_id: second.id, agent_id: 'someone-else', capture_id: captureId }, keys.orgA)
  if (refused.statusCode !== 409) throw new Error(`another agent's completion answered ${refused.statusCode}`)
  await call('fail_aeo_run', { run_id: second.id, agent_id: 'acme-laptop', error: 'captcha' }, keys.orgA)
  await call('claim_aeo_runs', { agent_id: 'acme-laptop', capabilities_json: caps(['chatgpt-web'], 'any', 200), limit: 1 }, keys.orgA) // capabilities changed

  // The platform's server agent: a run failed until no attempts are left, and a claim that expires.
  for (let i = 0; i < DEFAULT_AEO_SETTINGS.maxAttempts; i++) {
    const [run] = await call<{ id: number }[]>('claim_aeo_runs', { agent_id: 'server-api', capabilities_json: caps(['openai']), limit: 1 })
    if (!run) throw new Error('no openai run to claim')
    const result = await call<{ retry: boolean }>('fail_aeo_run', { run_id: run.id, agent_id: 'server-api', error: 'rate limited (429)' })
    if (!result.retry) break
  }
  const [stale] = await call<{ id: number; lease_expires_at: string }[]>('claim_aeo_runs', {
    agent_id: 'server-api',
    capabilities_json: caps(['claude']),
    limit: 1,
  })
  if (!stale) throw new Error('no claude run to claim')
  const expireAt = new Date(Date.parse(stale.lease_expires_at) + 1000).toISOString()
  await handleCommand(ts.system.write, {
    aggregate: run,
    id: stale.id,
    command: { type: 'ExpireClaim', now: expireAt, max_attempts: 3 },
    context: systemContext('aeo-scheduler'),
    visibleTo: null,
  })

  // Seen again a few minutes later.
  const later = {
    ...ts.system.write,
    clock: () => new Date(Date.now() + 5 * 60_000),
    db: ts.system.database.db,
    reads: runQueueReads(ts.system.read),
    settings: DEFAULT_AEO_SETTINGS,
  }
  await checkInAgent(
    later,
    systemContext('test'),
    { agent_id: 'server-api', agent_org_id: null },
    { engines: ['claude'], geo: 'any', max_per_day: null },
  )

  await call('cancel_aeo_runs', { client_id: heaters }, keys.orgA)
  await call('set_aeo_cadence', { client_id: heaters, samples_per_month: 3, engines: ['openai'], enabled: false }, keys.orgA)
  await readModelsCaughtUp(ts)
}
