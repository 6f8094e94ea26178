import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { MetaOptimizationEvent } from './events.js'

/**
 * A client's meta optimizations: stream `meta_optimizations-<client_id>`.
 *
 *   proposed ──stage──▶ staged ──(its site edit applied)──▶ applied ──(site edit rolled back)──▶ rolled_back
 *      └──────reject──────┴──▶ rejected
 *
 * Staging creates a site edit (operation meta_rewrite) for the page's title and description; applying is
 * apply_site_edit's (or apply_meta_optimization's) publish of that edit, recorded here when it happens. At
 * most one proposed or staged optimization per page, so two rewrites of one page never race each other.
 * What the site did is a fact: an applied edit is recorded even for an optimization rejected after staging.
 */
export const metaOptimizationsStream = (clientId: number) => `meta_optimizations-${clientId}`

export const META_OPTIMIZATION_STATUSES = ['proposed', 'staged', 'applied', 'rejected', 'rolled_back'] as const
export type MetaOptimizationStatus = (typeof META_OPTIMIZATION_STATUSES)[number]

export interface MetaOptimizationRecord {
  readonly id: number
  readonly pageId: number
  readonly insightId: number | null
  readonly status: MetaOptimizationStatus
  readonly editId: number | null
  /** When it was proposed (the event's time); '' when folded from a decided event without metadata. */
  readonly proposedAt: string
  /** What was proposed: the text a staged site edit publishes. */
  readonly proposal: MetaProposal
}

export interface MetaOptimizationSetState {
  readonly clientId: number
  readonly byId: ReadonlyMap<number, MetaOptimizationRecord>
}

export interface MetaProposal {
  readonly optimization_id: number
  readonly page_id: number
  readonly page_url: string
  readonly insight_id: number | null
  readonly query: string
  readonly location: string
  readonly current_title: string
  readonly current_description: string
  readonly proposed_title: string
  readonly proposed_description: string
  readonly writer: string
}

export type MetaOptimizationCommand =
  | { type: 'ProposeMetaOptimization'; client_id: number; proposal: MetaProposal }
  | { type: 'StageMetaOptimization'; client_id: number; optimization_id: number; edit_id: number }
  | { type: 'RecordMetaApplied'; client_id: number; optimization_id: number; edit_id: number }
  | { type: 'RecordMetaRolledBack'; client_id: number; optimization_id: number; edit_id: number }
  | { type: 'RejectMetaOptimization'; client_id: number; optimization_id: number; rejected_by: string; reason: string }

export const initialMetaOptimizationSetState = (): MetaOptimizationSetState => ({ clientId: 0, byId: new Map() })

const OPEN: ReadonlySet<MetaOptimizationStatus> = new Set(['proposed', 'staged'])

function patch(state: MetaOptimizationSetState, id: number, change: Partial<MetaOptimizationRecord>): MetaOptimizationSetState {
  const current = state.byId.get(id)
  if (!current) return state
  const byId = new Map(state.byId)
  byId.set(id, { ...current, ...change })
  return { ...state, byId }
}

function evolve(state: MetaOptimizationSetState, event: Evolving<MetaOptimizationEvent>): MetaOptimizationSetState {
  switch (event.type) {
    case 'MetaOptimizationProposed': {
      const { client_id, ...proposal } = event.data
      const byId = new Map(state.byId)
      byId.set(proposal.optimization_id, {
        id: proposal.optimization_id,
        pageId: proposal.page_id,
        insightId: proposal.insight_id,
        status: 'proposed',
        editId: null,
        proposedAt: event.metadata?.occurred_at ?? '',
        proposal,
      })
      return { clientId: client_id, byId }
    }
    case 'MetaOptimizationStaged':
      return patch(state, event.data.optimization_id, { status: 'staged', editId: event.data.edit_id })
    case 'MetaOptimizationApplied':
      return patch(state, event.data.optimization_id, { status: 'applied', editId: event.data.edit_id })
    case 'MetaOptimizationRolledBack':
      return patch(state, event.data.optimization_id, { status: 'rolled_back' })
    case 'MetaOptimizationRejected':
      return patch(state, event.data.optimization_id, { status: 'rejected' })
    default:
      return assertNever(event)
  }
}

/** The proposed or staged optimization of the page, if any. */
export function openForPage(state: MetaOptimizationSetState, pageId: number): MetaOptimizationRecord | undefined {
  for (const record of state.byId.values()) if (record.pageId === pageId && OPEN.has(record.status)) return record
  return undefined
}

/** Optimizations of the page proposed at or after `since` (ISO time), whatever became of them. */
export function proposedSince(state: MetaOptimizationSetState, pageId: number, since: string): number {
  let count = 0
  for (const record of state.byId.values()) if (record.pageId === pageId && record.proposedAt >= since) count++
  return count
}

function existing(state: MetaOptimizationSetState, clientId: number, id: number): MetaOptimizationRecord {
  const record = state.byId.get(id)
  if (!record || state.clientId !== clientId) throw new NotFoundError('meta optimization', id)
  return record
}

function notOpen(record: MetaOptimizationRecord, action: string): DomainError {
  return new DomainError(
    'meta_optimization_not_open',
    'Only a proposed or staged meta optimization can be staged or rejected',
    `meta optimization ${record.id} is ${record.status}; it cannot be ${action}`,
  )
}

function decide(command: MetaOptimizationCommand, state: MetaOptimizationSetState): MetaOptimizationEvent[] {
  const client_id = command.client_id
  switch (command.type) {
    case 'ProposeMetaOptimization': {
      const p = command.proposal
      if (state.byId.has(p.optimization_id))
        throw new DomainError('already_exists', 'Already exists', `meta optimization ${p.optimization_id}`)
      const open = openForPage(state, p.page_id)
      if (open) {
        throw new DomainError(
          'meta_optimization_open',
          'The page already has an open meta optimization',
          `page ${p.page_id} has meta optimization ${open.id} (${open.status}); reject it or apply it first`,
        )
      }
      return [{ type: 'MetaOptimizationProposed', data: { ...p, client_id } }]
    }
    case 'StageMetaOptimization': {
      const record = existing(state, client_id, command.optimization_id)
      if (record.status === 'staged' && record.editId === command.edit_id) return []
      if (record.status !== 'proposed') throw notOpen(record, 'staged')
      return [{ type: 'MetaOptimizationStaged', data: { optimization_id: record.id, client_id, edit_id: command.edit_id } }]
    }
    case 'RecordMetaApplied': {
      const record = existing(state, client_id, command.optimization_id)
      // Only the edit staged for it counts; applied again (a redelivered event, the RPC and the follower both) changes nothing.
      if (record.editId !== command.edit_id || record.status === 'applied') return []
      return [{ type: 'MetaOptimizationApplied', data: { optimization_id: record.id, client_id, edit_id: command.edit_id } }]
    }
    case 'RecordMetaRolledBack': {
      const record = existing(state, client_id, command.optimization_id)
      if (record.editId !== command.edit_id || record.status !== 'applied') return []
      return [{ type: 'MetaOptimizationRolledBack', data: { optimization_id: record.id, client_id, edit_id: command.edit_id } }]
    }
    case 'RejectMetaOptimization': {
      const record = existing(state, client_id, command.optimization_id)
      if (record.status === 'rejected') return []
      if (!OPEN.has(record.status)) throw notOpen(record, 'rejected')
      const rejected_by = command.rejected_by.trim()
      if (rejected_by === '')
        throw new DomainError('validation_failed', 'rejected_by must not be empty', 'rejected_by: name who rejects it')
      return [
        {
          type: 'MetaOptimizationRejected',
          data: {
            optimization_id: record.id,
            client_id,
            rejected_by: rejected_by.slice(0, 200),
            reason: command.reason.trim().slice(0, 2000),
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const metaOptimizationSet: Aggregate<MetaOptimizationSetState, MetaOptimizationCommand, MetaOptimizationEvent> = {
  streamOf: metaOptimizationsStream,
  initialState: initialMetaOptimizationSetState,
  evolve,
  decide,
}
