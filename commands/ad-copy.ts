import { adCopySet, type AdCopySetCommand, type AdCopySetState } from '../domain/ad-copy/ad-copy-set.js'
import type { AdCopyEvent, AdGroup } from '../domain/ad-copy/events.js'
import type { AdLines } from '../domain/ad-copy/limits.js'
import { adGroupKeywords, adGroupName, planAdGroups, type AdGroupPlan, type PlannedGroup } from '../domain/ad-copy/plan.js'
import { writeAdGroup } from '../domain/ad-copy/writer.js'
import type { ClientState } from '../domain/clients/client.js'
import { writableClient } from './aeo/capture-facts.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from './command-handler.js'
import type { EventStore } from './event-store/port.js'

type Outcome = CommandOutcome<AdCopySetState, AdCopyEvent>
type Caller = { readonly callerOrgId: number | null }

/** The writer name recorded for lines the built-in writer (domain/ad-copy/writer.ts) wrote. */
export const BUILT_IN_WRITER = 'built-in'

export async function loadAdCopySet(store: EventStore, setId: number): Promise<AdCopySetState> {
  return loadState(store, adCopySet, setId)
}

/** Every event of a set carries its client's organization (auditors replay by org_id). */
function run(deps: WriteDeps, context: CommandContext, owner: ClientState, setId: number, command: AdCopySetCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: adCopySet, id: setId, command, context, orgId: owner.orgId })
}

/**
 * The client (visible, not deleted) and the ad groups an ad_copy job writes for it (planAdGroups: services
 * default to the client's, areas to its locations; an unknown service fails naming it).
 */
export async function planClientAdCopy(
  store: EventStore,
  input: Caller & { clientId: number; services?: readonly string[] | undefined; areas?: readonly string[] | undefined },
): Promise<{ owner: ClientState; plan: AdGroupPlan }> {
  const owner = await writableClient(store, input.clientId, input.callerOrgId)
  const plan = planAdGroups({
    services: owner.services.map((s) => ({ name: s.name, description: s.description })),
    locations: owner.locations.map((l) => l.name),
    requestedServices: input.services,
    requestedAreas: input.areas,
  })
  return { owner, plan }
}

/** The built-in writer's lines for one planned group of the client's. */
export function builtInLines(owner: ClientState, group: PlannedGroup): AdLines {
  return writeAdGroup({ clientName: owner.name, websiteUrl: owner.websiteUrl, service: group.service, area: group.area })
}

export interface WrittenGroup {
  readonly group: PlannedGroup
  readonly lines: AdLines
  /** BUILT_IN_WRITER, or the language model's name. */
  readonly writer: string
}

/**
 * Records a proposed set of the written groups (ids allocated here). The aggregate checks every group
 * against the Google Ads limits again, so nothing outside them is stored whoever wrote it.
 */
export async function proposeAdCopySet(
  deps: WriteDeps,
  context: CommandContext,
  input: { owner: ClientState; jobId: number | null; groups: readonly WrittenGroup[] },
): Promise<Outcome & { setId: number; groups: AdGroup[] }> {
  const setId = await deps.ids.next('ad_copy_set')
  const groupIds = await deps.ids.nextMany('ad_copy_ad_group', input.groups.length)
  const groups = input.groups.map(
    (g, i): AdGroup => ({
      ad_group_id: groupIds[i]!,
      name: adGroupName(g.group),
      service: g.group.service.name,
      area: g.group.area,
      headlines: [...g.lines.headlines],
      descriptions: [...g.lines.descriptions],
      keywords: adGroupKeywords(g.group),
      final_url: input.owner.websiteUrl,
      writer: g.writer,
    }),
  )
  const outcome = await run(deps, context, input.owner, setId, {
    type: 'ProposeSet',
    set_id: setId,
    client_id: input.owner.id,
    job_id: input.jobId,
    ad_groups: groups,
  })
  return { ...outcome, setId, groups }
}

/** approve_ad_copy_set: only a proposed set of this client; approved_by non-empty and recorded. */
export async function approveAdCopySet(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; setId: number; approvedBy: string },
): Promise<Outcome> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  return run(deps, context, owner, input.setId, { type: 'ApproveSet', client_id: input.clientId, approved_by: input.approvedBy })
}

/** reject_ad_copy_set: only a proposed set of this client; rejected_by non-empty and recorded with the reason. */
export async function rejectAdCopySet(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; setId: number; rejectedBy: string; reason: string },
): Promise<Outcome> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  return run(deps, context, owner, input.setId, {
    type: 'RejectSet',
    client_id: input.clientId,
    rejected_by: input.rejectedBy,
    reason: input.reason,
  })
}
