import { sql } from 'kysely'
import { CLIENT_LESS_STREAM_PREFIXES } from '../../../domain/monitoring/entity-changes/entity.js'
import type { ReadDb } from '../../tables.js'

/** One event of the client's changes, as the activity feed (org_activity) records it. */
export interface EntityChangeRow {
  event_id: string
  stream: string
  event_type: string
  actor_kind: string
  actor_id: string | null
  occurred_at: Date
  stream_revision: number
}

export interface EntityChangeWindow {
  readonly orgId: number
  readonly clientId: number
  /** Inclusive. */
  readonly from: Date
  /** Exclusive. */
  readonly to: Date
  /** Only these event types; null for all. */
  readonly types: readonly string[] | null
  readonly limit: number
  readonly offset: number
}

/**
 * The client's events in a time window, newest first (get_entity_changes): those that name the client, and
 * the later events of its records' streams that no longer do (CLIENT_LESS_STREAM_PREFIXES: a site edit
 * applied, a job finished). The window walks the organization's feed by (org_id, occurred_at), so its work is
 * bounded by the window, whatever the client's whole history.
 */
export async function entityChangeRows(db: ReadDb, window: EntityChangeWindow): Promise<EntityChangeRow[]> {
  if (window.types !== null && window.types.length === 0) return []
  const prefixes = CLIENT_LESS_STREAM_PREFIXES.map((p) => `${p}%`)
  let query = db
    .selectFrom('org_activity')
    .select(['event_id', 'stream', 'event_type', 'actor_kind', 'actor_id', 'occurred_at', 'stream_revision'])
    .where('org_id', '=', window.orgId)
    .where('occurred_at', '>=', window.from)
    .where('occurred_at', '<', window.to)
    .where((eb) =>
      eb.or([
        eb('client_id', '=', window.clientId),
        eb.and([
          eb('client_id', 'is', null),
          eb(
            'stream',
            'in',
            eb
              .selectFrom('org_activity as own')
              .select('own.stream')
              .where('own.client_id', '=', window.clientId)
              .where(sql<boolean>`own.stream like any(${prefixes}::text[])`),
          ),
        ]),
      ]),
    )
  if (window.types !== null) query = query.where('event_type', 'in', [...window.types])
  const rows = await query
    .orderBy('occurred_at', 'desc')
    .orderBy('stream_revision', 'desc')
    .orderBy('event_id')
    .limit(window.limit)
    .offset(window.offset)
    .execute()
  return rows.map((r) => ({ ...r, stream_revision: Number(r.stream_revision) }))
}
