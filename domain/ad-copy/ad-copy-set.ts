import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { AdCopyEvent, AdGroup } from './events.js'
import { limitProblem } from './limits.js'

/**
 * An ad copy set: stream `ad_copy_set-<set_id>`. Proposed whole (by an ad_copy job), then signed off once:
 *
 *   proposed ──approve (approved_by)──▶ approved
 *      └──────reject (rejected_by)───▶ rejected
 *
 * Only a proposed set may be approved or rejected (spec: "only a proposed set may be approved"); approved
 * and rejected are final, so a second approval is refused rather than overwriting who signed it off. A
 * rejected set stays readable; a new ad_copy job proposes a fresh set.
 */
export const adCopySetStream = (setId: number) => `ad_copy_set-${setId}`

export type AdCopySetStatus = 'proposed' | 'approved' | 'rejected'
export const AD_COPY_SET_STATUSES: readonly AdCopySetStatus[] = ['proposed', 'approved', 'rejected']

/** The most ad groups one set holds: a proposal a person can review, and one bounded event. */
export const MAX_AD_GROUPS = 100

export interface AdCopySetState {
  readonly exists: boolean
  readonly id: number
  readonly clientId: number
  readonly status: AdCopySetStatus
  readonly approvedBy: string | null
  readonly groupCount: number
}

export type AdCopySetCommand =
  | { type: 'ProposeSet'; set_id: number; client_id: number; job_id: number | null; ad_groups: readonly AdGroup[] }
  | { type: 'ApproveSet'; client_id: number; approved_by: string }
  | { type: 'RejectSet'; client_id: number; rejected_by: string; reason: string }

const initialState = (): AdCopySetState => ({ exists: false, id: 0, clientId: 0, status: 'proposed', approvedBy: null, groupCount: 0 })

function evolve(state: AdCopySetState, event: AdCopyEvent): AdCopySetState {
  switch (event.type) {
    case 'AdCopySetProposed':
      return {
        ...initialState(),
        exists: true,
        id: event.data.set_id,
        clientId: event.data.client_id,
        groupCount: event.data.ad_groups.length,
      }
    case 'AdCopySetApproved':
      return { ...state, status: 'approved', approvedBy: event.data.approved_by }
    case 'AdCopySetRejected':
      return { ...state, status: 'rejected' }
    default:
      return assertNever(event)
  }
}

/** "approved_by" / "rejected_by": who signs off must be named, trimmed, non-empty. */
function signer(field: string, value: string): string {
  const name = value.trim()
  if (name === '') throw new DomainError('validation_failed', `${field} must not be empty`, `${field}: name who signs the set off`)
  return name
}

function assertProposed(state: AdCopySetState, action: string): void {
  if (state.status !== 'proposed') {
    throw new DomainError(
      'ad_copy_set_not_proposed',
      'Only a proposed ad copy set can be approved or rejected',
      `set ${state.id} is ${state.status}; it cannot be ${action}`,
    )
  }
}

function decide(command: AdCopySetCommand, state: AdCopySetState): AdCopyEvent[] {
  if (command.type === 'ProposeSet') {
    if (state.exists) throw new DomainError('already_exists', 'Already exists', `ad copy set ${command.set_id}`)
    if (command.ad_groups.length === 0)
      throw new DomainError('ad_copy_limits', 'An ad copy set needs at least one ad group', `set ${command.set_id}`)
    if (command.ad_groups.length > MAX_AD_GROUPS) {
      throw new DomainError(
        'ad_copy_limits',
        `An ad copy set has at most ${MAX_AD_GROUPS} ad groups`,
        `${command.ad_groups.length} ad groups`,
      )
    }
    for (const group of command.ad_groups) {
      const problem = limitProblem(group)
      if (problem) throw new DomainError('ad_copy_limits', 'An ad group breaks the Google Ads limits', `${group.name}: ${problem}`)
    }
    return [
      {
        type: 'AdCopySetProposed',
        data: { set_id: command.set_id, client_id: command.client_id, job_id: command.job_id, ad_groups: [...command.ad_groups] },
      },
    ]
  }
  // A set of another client answers like a missing one: the pair (set_id, client_id) names the set.
  if (!state.exists || state.clientId !== command.client_id) throw new NotFoundError('ad copy set', state.id || '?')
  switch (command.type) {
    case 'ApproveSet': {
      const approved_by = signer('approved_by', command.approved_by)
      assertProposed(state, 'approved')
      return [{ type: 'AdCopySetApproved', data: { set_id: state.id, client_id: state.clientId, approved_by } }]
    }
    case 'RejectSet': {
      const rejected_by = signer('rejected_by', command.rejected_by)
      assertProposed(state, 'rejected')
      return [
        { type: 'AdCopySetRejected', data: { set_id: state.id, client_id: state.clientId, rejected_by, reason: command.reason.trim() } },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const adCopySet: Aggregate<AdCopySetState, AdCopySetCommand, AdCopyEvent> = {
  streamOf: adCopySetStream,
  initialState,
  evolve,
  decide,
}
