import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope } from '../caller.js'
import { ApiError } from '../errors.js'

export interface EventRouteDeps {
  readonly read: ReadDb
  /** The database itself (public schema): webhook_events, the dispatcher's numbered event list. */
  readonly db: Kysely<any>
}

export const EVENTS_DEFAULT_LIMIT = 100
export const EVENTS_MAX_LIMIT = 1000

/** Cursors are opaque to clients (`v1.<event number>` in base64url), so the numbering can change behind them. */
export const encodeCursor = (number: number) => Buffer.from(`v1.${number}`).toString('base64url')

export function decodeCursor(cursor: string): number {
  const match = /^v1\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match || cursor.length > 40) throw new ApiError('events_cursor_invalid', 'after must be a next_cursor from a previous answer')
  return Number(match[1])
}

/**
 * GET /api/v1/events?after=<cursor>&limit=<n>: the organization's webhook-visible events in log order, each
 * with exactly the body a webhook delivery carries (same `id`), so a subscriber that was down replays from its
 * last cursor and deduplicates by id. Pings are not events of the organization and are not listed. An
 * organization key reads its own organization; a platform key passes org_id. Read scope.
 */
export async function eventRoutes(app: FastifyInstance, deps: EventRouteDeps): Promise<void> {
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/v1/events', async (request) => {
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const q = request.query
    for (const key of Object.keys(q)) {
      if (!['after', 'limit', 'org_id'].includes(key)) throw new ApiError('validation_failed', `unknown query parameter ${key}; use after, limit and (platform keys) org_id`)
    }
    let orgId = caller.orgId
    if (q.org_id !== undefined) {
      if (!/^\d{1,15}$/.test(q.org_id)) throw new ApiError('validation_failed', 'org_id: expected an id')
      const requested = Number(q.org_id)
      if (caller.orgId !== null && requested !== caller.orgId) throw new ApiError('not_found', `organization ${requested} not found`)
      orgId = requested
    }
    if (orgId === null) throw new ApiError('org_id_required')
    let limit = EVENTS_DEFAULT_LIMIT
    if (q.limit !== undefined) {
      if (!/^\d{1,5}$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > EVENTS_MAX_LIMIT) {
        throw new ApiError('validation_failed', `limit: 1 to ${EVENTS_MAX_LIMIT}`)
      }
      limit = Number(q.limit)
    }
    const after = q.after === undefined || q.after === '' ? 0 : decodeCursor(q.after)
    const rows = await deps.db
      .selectFrom('webhook_events')
      .select(['number', 'name', 'client_id', 'data', 'created_at'])
      .where('in_feed', '=', true)
      .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
      .where('number', '>', after)
      .orderBy('number')
      .limit(limit + 1)
      .execute()
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      events: page.map((r) => ({
        id: Number(r.number),
        event: r.name,
        created_at: new Date(r.created_at).toISOString(),
        org_id: orgId,
        client_id: r.client_id === null ? null : Number(r.client_id),
        data: r.data,
      })),
      next_cursor: last ? encodeCursor(Number(last.number)) : (q.after || null),
      has_more: rows.length > limit,
    }
  })
}
