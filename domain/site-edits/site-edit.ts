import type { Aggregate, Evolving } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { RemoteReceipt } from '../publishing/site-publisher/receipt.js'
import type { SiteEditEvent } from './events.js'

/**
 * A site edit's life: stream `site_edit-<edit_id>`.
 *
 *   proposed ──apply_site_edit (published)──▶ applied ──rollback_site_edit──▶ rolled_back
 *      │ ▲
 *      └─┘ apply_site_edit (the publisher failed: attempt recorded, still proposed)
 *
 * Staging (prompted_edit or create_site_edit) makes a proposed edit. Applying is the approval: it records
 * approved_by with the publish. rolled_back is final: to publish the change again, stage a new edit.
 */
export const siteEditStream = (editId: number) => `site_edit-${editId}`

export type SiteEditStatus = 'proposed' | 'applied' | 'rolled_back'
export const SITE_EDIT_STATUSES: readonly SiteEditStatus[] = ['proposed', 'applied', 'rolled_back']

export interface SiteEditState {
  readonly exists: boolean
  readonly id: number
  readonly clientId: number
  readonly operation: string
  readonly pageUrl: string
  readonly pageId: number | null
  readonly payload: string
  readonly status: SiteEditStatus
  readonly approvedBy: string
  readonly beforeSnapshotId: number | null
  readonly afterSnapshotId: number | null
  /** What the apply changed on the client's site, for rollback (null: nothing outside the service). */
  readonly remote: RemoteReceipt | null
  /** The publisher that applied it (empty until applied): rollback goes back through the same one. */
  readonly appliedBy: string
  /** The organization the edit was staged in (its first event's metadata); null: no edit. */
  readonly orgId: number | null
}

export interface AppliedReceipt {
  readonly before_snapshot_id: number | null
  readonly after_snapshot_id: number | null
  /** What a site publisher changed on the client's site (null or absent: nothing outside the service). */
  readonly remote?: RemoteReceipt | null
}

export type SiteEditCommand =
  | {
      type: 'StageSiteEdit'
      edit_id: number
      client_id: number
      operation: string
      page_url: string
      page_id: number | null
      payload: string
      job_id: number | null
    }
  | { type: 'RecordApplied'; approved_by: string; publisher: string; receipt: AppliedReceipt }
  | { type: 'RecordApplyFailed'; approved_by: string; publisher: string; error: string }
  | { type: 'RecordRolledBack'; publisher: string; restored_snapshot_id: number | null }

export const initialSiteEditState = (): SiteEditState => ({
  exists: false,
  id: 0,
  clientId: 0,
  operation: '',
  pageUrl: '',
  pageId: null,
  payload: '',
  status: 'proposed',
  approvedBy: '',
  beforeSnapshotId: null,
  afterSnapshotId: null,
  remote: null,
  appliedBy: '',
  orgId: null,
})

function evolveSiteEdit(state: SiteEditState, event: Evolving<SiteEditEvent>): SiteEditState {
  switch (event.type) {
    case 'SiteEditStaged': {
      const d = event.data
      return {
        ...initialSiteEditState(),
        orgId: event.metadata?.org_id ?? state.orgId,
        exists: true,
        id: d.edit_id,
        clientId: d.client_id,
        operation: d.operation,
        pageUrl: d.page_url,
        pageId: d.page_id,
        payload: d.payload,
      }
    }
    case 'SiteEditApplied':
      return {
        ...state,
        status: 'applied',
        approvedBy: event.data.approved_by,
        beforeSnapshotId: event.data.before_snapshot_id,
        afterSnapshotId: event.data.after_snapshot_id,
        remote: event.data.remote ?? null,
        appliedBy: event.data.publisher,
      }
    case 'SiteEditApplyFailed':
      return state
    case 'SiteEditRolledBack':
      return { ...state, status: 'rolled_back' }
    default:
      return assertNever(event)
  }
}

/** Only a proposed edit can be applied (checked before publishing, and again when the result is recorded). */
export function assertApplicable(state: SiteEditState): void {
  if (state.status === 'applied')
    throw new DomainError('site_edit_already_applied', 'The site edit is already applied', `edit ${state.id} is applied`)
  if (state.status === 'rolled_back') {
    throw new DomainError(
      'site_edit_rolled_back',
      'The site edit was rolled back',
      `edit ${state.id} is rolled_back; rolled-back edits are final`,
    )
  }
}

/** Only an applied edit can be rolled back: a proposed one was never published, a rolled-back one already was undone. */
export function assertRollbackable(state: SiteEditState): void {
  if (state.status === 'proposed') {
    throw new DomainError(
      'site_edit_not_applied',
      'The site edit was never applied',
      `edit ${state.id} is proposed; there is nothing to roll back`,
    )
  }
  if (state.status === 'rolled_back') {
    throw new DomainError('site_edit_rolled_back', 'The site edit was rolled back', `edit ${state.id} is already rolled_back`)
  }
}

function decideSiteEdit(command: SiteEditCommand, state: SiteEditState): SiteEditEvent[] {
  if (command.type === 'StageSiteEdit') {
    if (state.exists) throw new DomainError('already_exists', 'Already exists', `site edit ${command.edit_id}`)
    const { type: _type, ...data } = command
    return [{ type: 'SiteEditStaged', data }]
  }
  if (!state.exists) throw new DomainError('not_found', 'Not found', `site edit ${state.id || '?'} not found`)
  const edit_id = state.id
  switch (command.type) {
    case 'RecordApplied':
      assertApplicable(state)
      return [
        { type: 'SiteEditApplied', data: { edit_id, approved_by: command.approved_by, publisher: command.publisher, ...command.receipt } },
      ]
    case 'RecordApplyFailed':
      assertApplicable(state)
      return [
        {
          type: 'SiteEditApplyFailed',
          data: { edit_id, approved_by: command.approved_by, publisher: command.publisher, error: command.error.slice(0, 2000) },
        },
      ]
    case 'RecordRolledBack':
      assertRollbackable(state)
      return [
        { type: 'SiteEditRolledBack', data: { edit_id, publisher: command.publisher, restored_snapshot_id: command.restored_snapshot_id } },
      ]
    default:
      return assertNever(command)
  }
}

export const siteEdit: Aggregate<SiteEditState, SiteEditCommand, SiteEditEvent> = {
  streamOf: siteEditStream,
  initialState: initialSiteEditState,
  evolve: evolveSiteEdit,
  decide: decideSiteEdit,
  orgOf: (state) => state.orgId,
  entity: 'site edit',
}
