import { DEFAULT_RANK_DEVICES, utcDay } from '../../../domain/search/rank-checks/cadence.js'
import {
  clientChecks,
  type CheckCounts,
  type CheckPlan,
  type ClientChecksCommand,
  type ClientChecksState,
  type OpenCheck,
} from '../../../domain/search/rank-checks/client-checks.js'
import type { RankCheckError, RankCheckEvent, RankFrequency, RankProviderName } from '../../../domain/search/rank-checks/events.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import { loadRankCadence } from './cadence.js'

type Outcome = CommandOutcome<ClientChecksState, RankCheckEvent>

/** The client's checks, folded from its stream. */
export function loadClientChecks(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ClientChecksState> {
  return loadState(deps.store, clientChecks, clientId)
}

export interface QueuedCheck {
  /** The open check: the one queued now, or the one already open. */
  readonly checkId: number
  /** false: a check was open already (or, for the cadence, none was due) and nothing was queued. */
  readonly created: boolean
  readonly position: Position | null
}

/**
 * Queues a check of the client for today (UTC, by the clock given), covering the cadence's devices (both
 * without one). One check is open per client at a time: with one open, it is returned and nothing is
 * queued. `due` (the cadence's scheduler): queue only when that frequency is due. Returns null when the
 * cadence had nothing due and no check is open.
 */
export async function queueRankCheck(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; trigger: 'manual' | 'cadence'; due?: RankFrequency },
): Promise<QueuedCheck | null> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const before = await loadClientChecks(deps, owner.id)
  if (before.open) return { checkId: before.open.checkId, created: false, position: null }
  const cadence = await loadRankCadence(deps, owner.id)
  const devices: readonly RankDevice[] = cadence.exists ? cadence.devices : DEFAULT_RANK_DEVICES
  const checkId = await deps.ids.next('rank_check')
  const command: ClientChecksCommand = {
    type: 'QueueRankCheck',
    client_id: owner.id,
    check_id: checkId,
    date: utcDay(deps.clock()),
    trigger: input.trigger,
    devices,
    ...(input.due ? { due: input.due } : {}),
  }
  const outcome = await handleCommand(deps, { aggregate: clientChecks, id: owner.id, command, context, orgId: owner.orgId })
  // Another caller may have opened one between the look and the append: that one is the answer.
  const open = outcome.state.open
  if (!open) return null
  return { checkId: open.checkId, created: open.checkId === checkId && outcome.events.length > 0, position: outcome.position }
}

/** The commands of the worker running a check: each names the check's client and is decided on its stream. */
function onClient(deps: WriteDeps, context: CommandContext, clientId: number, command: ClientChecksCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: clientChecks, id: clientId, command, context })
}

/** Takes the check (queued, or abandoned by a worker whose lease ran out); DomainError rank_check_held when another holds it. */
export async function startRankCheck(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    clientId: number
    checkId: number
    leaseMs: number
    worker: string
    provider: RankProviderName
    tasksRecorded: number
    plan: CheckPlan
  },
): Promise<{ open: OpenCheck | null; events: readonly RankCheckEvent[] }> {
  const now = deps.clock()
  const outcome = await onClient(deps, context, input.clientId, {
    type: 'StartRankCheck',
    check_id: input.checkId,
    now: now.toISOString(),
    lease_until: new Date(now.getTime() + input.leaseMs).toISOString(),
    worker: input.worker,
    provider: input.provider,
    tasks_recorded: input.tasksRecorded,
    plan: input.plan,
  })
  return { open: outcome.state.open, events: outcome.events }
}

/** The holder's progress and heartbeat: its lease moves `leaseMs` on from now. */
export async function reportRankCheckProgress(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; checkId: number; attempt: number; leaseMs: number } & CheckCounts,
): Promise<void> {
  const { clientId, checkId, attempt, leaseMs, ...counts } = input
  const lease_until = new Date(deps.clock().getTime() + leaseMs).toISOString()
  await onClient(deps, context, clientId, { type: 'ReportRankCheckProgress', check_id: checkId, attempt, lease_until, ...counts })
}

export async function failRankCheckTask(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    clientId: number
    checkId: number
    attempt: number
    keywordId: number
    locationId: number | null
    device: RankDevice
    error: RankCheckError
    tries: number
  },
): Promise<void> {
  await onClient(deps, context, input.clientId, {
    type: 'FailRankCheckTask',
    check_id: input.checkId,
    attempt: input.attempt,
    keyword_id: input.keywordId,
    location_id: input.locationId,
    device: input.device,
    error: input.error,
    tries: input.tries,
  })
}

export async function completeRankCheck(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; checkId: number; attempt: number } & CheckCounts,
): Promise<Position | null> {
  const { clientId, checkId, attempt, ...counts } = input
  return (await onClient(deps, context, clientId, { type: 'CompleteRankCheck', check_id: checkId, attempt, ...counts })).position
}

/** Fails the check: by its holder (`attempt`), or with `attempt` null while it is queued or abandoned. */
export async function failRankCheck(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; checkId: number; attempt: number | null; error: RankCheckError } & CheckCounts,
): Promise<Position | null> {
  const { clientId, checkId, attempt, error, ...counts } = input
  const command: ClientChecksCommand = {
    type: 'FailRankCheck',
    check_id: checkId,
    attempt,
    now: deps.clock().toISOString(),
    error,
    ...counts,
  }
  return (await onClient(deps, context, clientId, command)).position
}
