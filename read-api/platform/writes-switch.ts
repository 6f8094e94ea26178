import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql, type Kysely } from 'kysely'
import { ApiError } from '../errors.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The writes switch: an operator turns writes off (maintenance, an incident, a migration) and every API
 * process refuses write RPCs and job creation with 503 writes_disabled, while reads keep working.
 *
 * The truth is one row of service_settings (key "writes"), so every API process on every machine agrees.
 * WRITES_ENABLED is only the initial value: the first process that finds no row writes it (insert … on
 * conflict do nothing), and from then on only `npm run ops -- writes off|on` changes it. That way a process
 * restarted with an old environment cannot silently undo an operator's flip.
 *
 * Each process reads the row at most once per REFRESH_MS (concurrent requests share one query) and only when
 * a write asks, so reads cost nothing and a flip is seen everywhere within about a second. Chosen over
 * LISTEN/NOTIFY: no dedicated connection to keep alive and re-establish, and a missed notification can't
 * leave a process on a stale value forever; one tiny primary-key read per second per process is free.
 */

export const WRITES_SETTING_KEY = 'writes'
/** How stale a process's view of the switch may be; the CLI waits this long before saying a flip is in effect. */
export const WRITES_REFRESH_MS = 1000
/** Sent with writes_disabled: a maintenance window is minutes, so a client polling every 30 s is polite. */
export const WRITES_DISABLED_RETRY_AFTER_SECONDS = 30

export interface WritesState {
  readonly enabled: boolean
  /** What the operator said when switching (shown in writes_disabled's detail), or null. */
  readonly reason: string | null
  /** Who switched: "ops cli", or "WRITES_ENABLED" for the initial value. */
  readonly changedBy: string
  readonly changedAt: Date
}

interface StoredValue {
  enabled?: unknown
  reason?: unknown
  changed_by?: unknown
}

function fromRow(row: { value: StoredValue; updated_at: Date }): WritesState {
  return {
    // Fail open only on a value that says so: anything unreadable counts as off, an operator's intent to stop.
    enabled: row.value.enabled === true,
    reason: typeof row.value.reason === 'string' ? row.value.reason : null,
    changedBy: typeof row.value.changed_by === 'string' ? row.value.changed_by : 'unknown',
    changedAt: new Date(row.updated_at),
  }
}

/** The durable state, or null when nobody has set it yet. */
export async function readWritesState(db: Kysely<WorkTables>): Promise<WritesState | null> {
  const { rows } = await sql<{ value: StoredValue; updated_at: Date }>`
    select value, updated_at from service_settings where key = ${WRITES_SETTING_KEY}`.execute(db)
  return rows[0] ? fromRow(rows[0]) : null
}

/** Switches writes on or off for every process (the ops CLI). */
export async function setWritesState(
  db: Kysely<WorkTables>,
  enabled: boolean,
  options: { reason?: string | null; changedBy: string },
): Promise<WritesState> {
  const value = JSON.stringify({ enabled, reason: options.reason ?? null, changed_by: options.changedBy })
  const { rows } = await sql<{ value: StoredValue; updated_at: Date }>`
    insert into service_settings (key, value, updated_at) values (${WRITES_SETTING_KEY}, ${value}::jsonb, now())
    on conflict (key) do update set value = excluded.value, updated_at = now()
    returning value, updated_at`.execute(db)
  return fromRow(rows[0]!)
}

/** Reads the state, writing the initial value first when there is none (the first process decides). */
export async function ensureWritesState(db: Kysely<WorkTables>, initial: boolean): Promise<WritesState> {
  const existing = await readWritesState(db)
  if (existing) return existing
  const value = JSON.stringify({ enabled: initial, reason: null, changed_by: 'WRITES_ENABLED' })
  await sql`
    insert into service_settings (key, value, updated_at) values (${WRITES_SETTING_KEY}, ${value}::jsonb, now())
    on conflict (key) do nothing`.execute(db)
  return (await readWritesState(db))!
}

export interface WritesSwitchOptions {
  /** WRITES_ENABLED: the initial value, or undefined when the setting was not given (then true). */
  readonly initial?: boolean | undefined
  readonly refreshMs?: number
  readonly log?: FastifyBaseLogger
}

/** One process's cached view of the switch. */
export class WritesSwitch {
  readonly #db: Kysely<WorkTables>
  readonly #initial: boolean
  readonly #initialGiven: boolean
  readonly #refreshMs: number
  readonly #log: FastifyBaseLogger | undefined
  #cached: { state: WritesState; at: number } | null = null
  #pending: Promise<WritesState> | null = null
  #warned = false

  constructor(db: Kysely<WorkTables>, options: WritesSwitchOptions = {}) {
    this.#db = db
    this.#initial = options.initial ?? true
    this.#initialGiven = options.initial !== undefined
    this.#refreshMs = options.refreshMs ?? WRITES_REFRESH_MS
    this.#log = options.log
  }

  /** The current state, at most refreshMs old. Throws when the database can't be read (the request fails). */
  async state(): Promise<WritesState> {
    const cached = this.#cached
    if (cached && Date.now() - cached.at < this.#refreshMs) return cached.state
    // Aged from when the query started, not when it answered: then a flip committed before the CLI's wait
    // began is seen by every process once the wait is over, however slow the query was.
    const started = Date.now()
    this.#pending ??= ensureWritesState(this.#db, this.#initial).then(
      (state) => {
        this.#cached = { state, at: started }
        this.#pending = null
        this.#warnOnce(state)
        return state
      },
      (error: unknown) => {
        this.#pending = null
        throw error
      },
    )
    return this.#pending
  }

  /** Forgets the cached value (this process flipped the switch itself). */
  invalidate(): void {
    this.#cached = null
  }

  #warnOnce(state: WritesState): void {
    if (this.#warned || !this.#initialGiven || state.enabled === this.#initial) return
    this.#warned = true
    this.#log?.warn(
      {
        writes_enabled_setting: this.#initial,
        writes_enabled: state.enabled,
        changed_by: state.changedBy,
        changed_at: state.changedAt.toISOString(),
      },
      'WRITES_ENABLED is only the initial value; the switch in the database says otherwise and wins (npm run ops -- writes on|off)',
    )
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's view of the writes switch (see read-api/platform/writes-switch.ts). */
    writesSwitch: WritesSwitch
  }
}

export interface WritesSwitchDeps {
  readonly db: Kysely<WorkTables>
  /** WRITES_ENABLED (undefined: not set, writes start enabled). */
  readonly writesEnabled?: boolean | undefined
}

/** Makes the switch available to every route as `app.writesSwitch` (register before the routes). */
export function registerWritesSwitch(app: FastifyInstance, deps: WritesSwitchDeps): void {
  app.decorate('writesSwitch', new WritesSwitch(deps.db, { initial: deps.writesEnabled, log: app.log }))
}

/**
 * For write RPCs and job creation: 503 writes_disabled (Retry-After) while the operator has writes off.
 * Call it after authentication and the scope check, so that a caller learns about its own mistakes first.
 */
export async function requireWritesEnabled(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = await request.server.writesSwitch.state()
  if (state.enabled) return
  reply.header('Retry-After', String(WRITES_DISABLED_RETRY_AFTER_SECONDS))
  throw new ApiError(
    'writes_disabled',
    `writes have been switched off since ${state.changedAt.toISOString()}${state.reason ? `: ${state.reason}` : ''}`,
  )
}

/** For GET /api/v1/health: whether writes are accepted, and since when. */
export async function writesHealth(app: FastifyInstance): Promise<{ enabled: boolean; since: string; reason: string | null }> {
  const state = await app.writesSwitch.state()
  return { enabled: state.enabled, since: state.changedAt.toISOString(), reason: state.reason }
}
