import { DomainError, NotFoundError } from '../domain/shared/errors.js'
import type { Actor } from '../domain/shared/event.js'
import { assertApplicable, assertRollbackable, siteEdit, type SiteEditCommand, type SiteEditState } from '../domain/site-edits/site-edit.js'
import { appendDecided } from './append.js'
import { assertNotInCooldown, setCooldown } from './monitoring/cooldowns.js'
import { handleCommand, loadStateAt, type CommandContext, type WriteDeps } from './command-handler.js'
import { WrongExpectedRevisionError, type Position } from './event-store/port.js'
import { SitePublishError, type EditToPublish, type SitePublisher } from './site-edits-publisher.js'

export interface StageInput {
  readonly orgId: number
  readonly clientId: number
  readonly operation: string
  readonly pageUrl: string
  readonly pageId: number | null
  readonly payload: string
  readonly jobId: number | null
}

/** create_site_edit and prompted_edit: a new proposed edit. The caller has checked the client (and page). */
export async function stageSiteEdit(
  deps: WriteDeps,
  context: CommandContext,
  input: StageInput,
): Promise<{ editId: number; position: Position }> {
  const editId = await deps.ids.next('site_edit')
  // A new stream (its id was just allocated): nothing to read, the append only has to be first.
  const events = siteEdit.decide(
    {
      type: 'StageSiteEdit',
      edit_id: editId,
      client_id: input.clientId,
      operation: input.operation,
      page_url: input.pageUrl,
      page_id: input.pageId,
      payload: input.payload,
      job_id: input.jobId,
    },
    siteEdit.initialState(),
  )
  const result = await appendDecided(deps, context, siteEdit.streamOf(editId), events, 'no_stream', input.orgId)
  return { editId, position: result.position }
}

interface LoadedEdit {
  readonly state: SiteEditState
  readonly orgId: number
  readonly revision: bigint
}

/**
 * The edit folded from its stream, with the revision it was folded at: the outcome of a publish is recorded
 * against it. Another organization's edit (visibleTo set) answers like a missing one.
 */
async function loadEdit(deps: WriteDeps, editId: number, visibleTo: number | null): Promise<LoadedEdit> {
  const { state, revision } = await loadStateAt(deps.store, siteEdit, editId)
  if (!state.exists || state.orgId === null || revision === undefined || (visibleTo !== null && state.orgId !== visibleTo)) {
    throw new NotFoundError('site edit', editId)
  }
  return { state, orgId: state.orgId, revision }
}

/**
 * Records the outcome of a publish or restore against the revision it was decided at: the publish already
 * happened, so a concurrent apply is not decided again but answered as a conflict.
 */
async function record(deps: WriteDeps, context: CommandContext, loaded: LoadedEdit, command: SiteEditCommand): Promise<Position | null> {
  try {
    const outcome = await handleCommand(deps, { aggregate: siteEdit, id: loaded.state.id, command, context, expected: loaded.revision })
    return outcome.position
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) {
      throw new DomainError(
        'concurrency_conflict',
        'The record changed concurrently',
        `site edit ${loaded.state.id} was applied or rolled back by another request at the same time`,
      )
    }
    throw error
  }
}

const toPublish = (loaded: LoadedEdit): EditToPublish => ({
  editId: loaded.state.id,
  orgId: loaded.orgId,
  clientId: loaded.state.clientId,
  operation: loaded.state.operation,
  pageUrl: loaded.state.pageUrl,
  pageId: loaded.state.pageId,
  payload: loaded.state.payload,
})

/** Who approved an apply that named nobody: the caller, as `<actor kind>:<actor id>`. */
export const actorLabel = (actor: Actor) => `${actor.kind}:${actor.id ?? ''}`

const publishError = (error: SitePublishError, editId: number) =>
  new DomainError(error.code, error.message, `site edit ${editId}: ${error.message}`)

/**
 * apply_site_edit: approves and publishes a proposed edit through the publisher, then records
 * SiteEditApplied (with approved_by and the snapshots before and after). A publisher failure records
 * SiteEditApplyFailed (the edit stays proposed; the attempt counts) and answers its code. A client in a
 * cooldown that holds publishing back answers client_in_cooldown (409) before anything is published; an
 * apply puts the client in the `publish` cooldown.
 */
export async function applySiteEdit(
  deps: WriteDeps,
  context: CommandContext,
  publisher: SitePublisher,
  input: { editId: number; visibleTo: number | null; approvedBy: string },
): Promise<{ position: Position | null }> {
  const loaded = await loadEdit(deps, input.editId, input.visibleTo)
  assertApplicable(loaded.state)
  await assertNotInCooldown(deps, loaded.state.clientId, 'publish') // 409 client_in_cooldown: nothing is published
  const approved_by = input.approvedBy.trim() || actorLabel(context.actor)
  let receipt
  try {
    receipt = await publisher.publish(toPublish(loaded), context, deps)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const by = error instanceof SitePublishError ? (error.publisher ?? publisher.name) : publisher.name
    await record(deps, context, loaded, { type: 'RecordApplyFailed', approved_by, publisher: by, error: message })
    if (error instanceof SitePublishError) throw publishError(error, input.editId)
    throw error
  }
  const { publisher: by = publisher.name, ...published } = receipt
  const applied = await record(deps, context, loaded, { type: 'RecordApplied', approved_by, publisher: by, receipt: published })
  // The site just changed: scans wait a while (domain/monitoring/cooldowns/reasons.ts says what publish holds back).
  const cooldown = await setCooldown(deps, context, { callerOrgId: null, clientId: loaded.state.clientId, reason: 'publish' })
  return { position: cooldown.position ?? applied }
}

/**
 * rollback_site_edit: restores the content from before an applied edit through the publisher, then records
 * SiteEditRolledBack. An edit never applied answers site_edit_not_applied (409) and nothing is published.
 */
export async function rollbackSiteEdit(
  deps: WriteDeps,
  context: CommandContext,
  publisher: SitePublisher,
  input: { editId: number; visibleTo: number | null },
): Promise<{ position: Position | null }> {
  const loaded = await loadEdit(deps, input.editId, input.visibleTo)
  assertRollbackable(loaded.state)
  let restored
  try {
    restored = await publisher.restore(
      toPublish(loaded),
      {
        before_snapshot_id: loaded.state.beforeSnapshotId,
        after_snapshot_id: loaded.state.afterSnapshotId,
        remote: loaded.state.remote,
        publisher: loaded.state.appliedBy,
      },
      context,
      deps,
    )
  } catch (error) {
    if (error instanceof SitePublishError) throw publishError(error, input.editId)
    throw error
  }
  return {
    position: await record(deps, context, loaded, {
      type: 'RecordRolledBack',
      publisher: restored.publisher ?? publisher.name,
      restored_snapshot_id: restored.restored_snapshot_id,
    }),
  }
}
