import { NotFoundError } from '../../domain/shared/errors.js'
import type { ReadDb } from '../tables.js'

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

const WEBHOOK_COLUMNS = [
  'id',
  'org_id',
  'url',
  'events',
  'description',
  'active',
  'disabled_reason',
  'failure_count',
  'last_success_at',
  'last_failure_at',
  'secret_hint',
  'created_at',
  'updated_at',
  'deleted_at',
] as const

function webhookView(row: any) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    active: row.active,
    disabled_reason: row.disabled_reason,
    failure_count: row.failure_count,
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    secret_hint: row.secret_hint,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The organization's webhooks (null: every organization's), oldest first; deleted ones are gone. */
export async function webhooksOf(read: ReadDb, orgId: number | null) {
  let query = read.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('deleted_at', 'is', null).orderBy('id')
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return (await query.execute()).map(webhookView)
}

/** One webhook visible to the organization; another organization's answers exactly like a missing one. */
export async function webhookOf(read: ReadDb, orgId: number | null, webhookId: number, options: { includeDeleted?: boolean } = {}) {
  let query = read.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('id', '=', webhookId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  if (!options.includeDeleted) query = query.where('deleted_at', 'is', null)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('webhook', webhookId)
  return webhookView(row)
}

/** A delivery visible to the organization (undefined: missing or another organization's). */
export async function deliveryOf(read: ReadDb, orgId: number | null, deliveryId: number) {
  let query = read.selectFrom('webhook_delivery_records').select(['id', 'webhook_id', 'event_number']).where('id', '=', deliveryId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query.executeTakeFirst()
}

/** Deliveries newest first, each with its attempts oldest first. */
export async function deliveriesOf(
  read: ReadDb,
  input: { orgId: number | null; webhookId: number | undefined; limit: number; offset: number },
) {
  let query = read.selectFrom('webhook_delivery_records').selectAll().orderBy('id', 'desc').limit(input.limit).offset(input.offset)
  if (input.orgId !== null) query = query.where('org_id', '=', input.orgId)
  if (input.webhookId !== undefined) query = query.where('webhook_id', '=', input.webhookId)
  const rows = await query.execute()
  if (rows.length === 0) return []
  const attempts = await read
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute()
  const byDelivery = new Map<number, typeof attempts>()
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a])
  return rows.map((r) => ({
    id: r.id,
    webhook_id: r.webhook_id,
    event: r.event,
    event_number: r.event_number,
    client_id: r.client_id,
    requested: r.requested as 'ping' | 'redelivery' | null,
    status: r.status as 'retrying' | 'succeeded' | 'failed',
    attempts: r.attempts,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    next_attempt_at: iso(r.next_attempt_at),
    created_at: r.first_attempt_at.toISOString(),
    last_attempt_at: r.last_attempt_at.toISOString(),
    attempt_log: (byDelivery.get(r.id) ?? []).map((a) => ({
      attempt: a.attempt,
      succeeded: a.succeeded,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      attempted_at: a.attempted_at.toISOString(),
    })),
  }))
}
