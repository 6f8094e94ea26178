import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql, type Kysely } from 'kysely'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import type { Caller } from '../caller.js'
import { ApiError, isErrorCode } from '../errors.js'
import { addOnSendStep } from './on-send-steps.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * Idempotency-Key (spec "Common rules" 1): a client that retries a POST with the same key gets the first
 * answer again instead of a second execution.
 *
 * Exactly-once comes from PostgreSQL, not from this process: the first request INSERTs an in-flight row under
 * the primary key (caller, key); every concurrent copy, on any API process, finds that row and answers 409
 * idempotency_in_flight (Retry-After) until the first one stores its response, and a replay afterwards. The
 * response is stored in onSend, before it is written to the socket, so a client that saw an answer and
 * retries always finds it.
 *
 * What is stored (and so replayed for 24 hours, with `Idempotency-Replayed: true`):
 * - 2xx and 3xx answers, and 4xx answers: they are the verdict on this exact request (invalid parameters,
 *   a slug taken, a missing record), so a retry of the same request gets the same verdict, as with Stripe.
 * - Not stored (the row is deleted so that a retry runs again): 5xx (our failure, or writes switched off:
 *   a retry later should be allowed to succeed), and the 4xx answers that say "retry": 408, 425, 429 and
 *   409 concurrency_conflict.
 * A crash mid-request leaves an in-flight row behind; once it is older than the in-flight timeout, the next
 * request with the same key and body takes it over (a new owner), so a key is never wedged. Expired rows are
 * overwritten in place by the next claim and deleted by a sweep that runs at most once a minute per process.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Opts a POST route into Idempotency-Key handling. `true` records every answer; a predicate decides per
     * request (the RPC route records writes only: a read has nothing to deduplicate, and replaying it would
     * serve stale data). The key is validated either way, so a read accepts it harmlessly.
     */
    idempotency?: boolean | ((request: FastifyRequest) => boolean)
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed'
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200

export interface IdempotencySettings {
  /** How long a completed answer is replayed (24 hours by the spec). */
  readonly ttlSeconds: number
  /** An in-flight row older than this is presumed orphaned by a crash and taken over. */
  readonly inFlightTimeoutSeconds: number
}

export const DEFAULT_IDEMPOTENCY_SETTINGS: IdempotencySettings = { ttlSeconds: 24 * 3600, inFlightTimeoutSeconds: 60 }

export interface IdempotencyDeps {
  readonly db: Kysely<WorkTables>
  readonly read: ReadDb
  readonly idempotency?: IdempotencySettings | undefined
}

/** Headers of the first answer that a replay repeats (the rest are per-response: request id, rate limits). */
const REPLAYED_HEADERS = ['content-type', 'x-read-your-writes', 'location', 'content-disposition'] as const

/** How long a concurrent copy is told to wait before asking again. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1
const SWEEP_INTERVAL_MS = 60_000
const SWEEP_BATCH = 1000

/** Printable ASCII without leading or trailing spaces: what a UUID, a ULID or any sane token is. */
const KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/** The request's Idempotency-Key, or undefined when it sent none; a malformed key is a coded 400. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER]
  if (value === undefined) return undefined
  const key = Array.isArray(value) ? value.join(', ') : value
  if (key.length === 0) throw new ApiError('idempotency_key_invalid', 'the Idempotency-Key header is empty')
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError(
      'idempotency_key_invalid',
      `the Idempotency-Key is ${key.length} characters; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are allowed`,
    )
  }
  if (!KEY_PATTERN.test(key))
    throw new ApiError('idempotency_key_invalid', 'the Idempotency-Key must be printable ASCII without surrounding spaces')
  return key
}

/** JSON with object keys sorted at every depth, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
  return `{${entries.join(',')}}`
}

/** What "the same request" means: method, path (with query) and the canonical body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body ?? {})}`)
    .digest('hex')
}

/** Whose key it is: idempotency keys of different API keys never collide. */
function callerScope(caller: Caller): string {
  return `${caller.actor.kind}:${caller.actor.id ?? ''}`
}

/** A 4xx that tells the client to retry is not a verdict on the request: a retry must run again. */
function isStorable(status: number, payload: unknown): boolean {
  if (status >= 500) return false
  if (status === 408 || status === 425 || status === 429) return false
  if (status === 409 && errorCodeOf(payload) === 'concurrency_conflict') return false
  return true
}

function errorCodeOf(payload: unknown): string | undefined {
  try {
    const parsed = JSON.parse(typeof payload === 'string' ? payload : String(payload)) as { code?: unknown }
    return typeof parsed.code === 'string' && isErrorCode(parsed.code) ? parsed.code : undefined
  } catch {
    return undefined
  }
}

interface Claim {
  readonly caller: string
  readonly key: string
  readonly owner: string
}

interface StoredRow {
  state: 'in_flight' | 'completed'
  request_hash: string
  status: number | null
  headers: Record<string, string> | null
  body: string | null
}

type ClaimOutcome = { kind: 'claimed'; claim: Claim } | { kind: 'existing'; row: StoredRow }

/** The store: every statement is a single autocommitted one, so no connection is held while the route runs. */
export class IdempotencyStore {
  readonly #db: Kysely<WorkTables>
  readonly #settings: IdempotencySettings

  constructor(db: Kysely<WorkTables>, settings: IdempotencySettings = DEFAULT_IDEMPOTENCY_SETTINGS) {
    this.#db = db
    this.#settings = settings
  }

  /**
   * Takes the key for this request, or returns the row that holds it. The upsert also takes over an expired
   * row (any body: the old answer is gone) and an in-flight row of the same request older than the in-flight
   * timeout (its request died with its process).
   */
  async claim(caller: string, key: string, requestHash: string): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const owner = randomUUID()
      const { ttlSeconds, inFlightTimeoutSeconds } = this.#settings
      const claimed = await sql<{ owner: string }>`
        insert into idempotency_keys (caller, key, request_hash, state, owner, locked_at, expires_at)
        values (${caller}, ${key}, ${requestHash}, 'in_flight', ${owner}, now(), now() + make_interval(secs => ${ttlSeconds}))
        on conflict (caller, key) do update set
          request_hash = excluded.request_hash, state = 'in_flight', owner = excluded.owner, locked_at = now(),
          expires_at = excluded.expires_at, status = null, headers = null, body = null, completed_at = null
        where idempotency_keys.expires_at <= now()
           or (idempotency_keys.state = 'in_flight'
               and idempotency_keys.request_hash = excluded.request_hash
               and idempotency_keys.locked_at <= now() - make_interval(secs => ${inFlightTimeoutSeconds}))
        returning owner`.execute(this.#db)
      if (claimed.rows.length > 0) return { kind: 'claimed', claim: { caller, key, owner } }
      const existing = await sql<StoredRow>`
        select state, request_hash, status, headers, body from idempotency_keys
        where caller = ${caller} and key = ${key}`.execute(this.#db)
      const row = existing.rows[0]
      // Gone between the two statements (released after a 5xx, or swept): claim again.
      if (row) return { kind: 'existing', row }
    }
    throw new ApiError('idempotency_in_flight', 'the key changed hands repeatedly; retry')
  }

  /** Stores the answer to replay; only the claim's owner may (a taken-over claim is no longer ours). */
  async complete(claim: Claim, status: number, headers: Record<string, string>, body: string): Promise<boolean> {
    const result = await sql`
      update idempotency_keys
      set state = 'completed', status = ${status}, headers = ${JSON.stringify(headers)}::jsonb, body = ${body},
          completed_at = now(), expires_at = now() + make_interval(secs => ${this.#settings.ttlSeconds})
      where caller = ${claim.caller} and key = ${claim.key} and owner = ${claim.owner}`.execute(this.#db)
    return Number(result.numAffectedRows ?? 0) > 0
  }

  /** Forgets the claim, so that the next request with the key runs (after a 5xx or a "retry" answer). */
  async release(claim: Claim): Promise<void> {
    await sql`delete from idempotency_keys where caller = ${claim.caller} and key = ${claim.key} and owner = ${claim.owner}`.execute(
      this.#db,
    )
  }

  /** Deletes up to one batch of expired rows, oldest first; returns how many. */
  async sweep(): Promise<number> {
    const result = await sql`
      delete from idempotency_keys where ctid = any(array(
        select ctid from idempotency_keys where expires_at <= now() order by expires_at limit ${SWEEP_BATCH}))`.execute(this.#db)
    return Number(result.numAffectedRows ?? 0)
  }
}

function storedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name)
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return headers
}

/**
 * Adds the Idempotency-Key hooks to the app. They act only on routes that opt in with
 * `config: { idempotency: true }` (or a predicate), so a new POST route (job creation) adds one line.
 */
export function registerIdempotency(app: FastifyInstance, deps: IdempotencyDeps): void {
  const store = new IdempotencyStore(deps.db, deps.idempotency ?? DEFAULT_IDEMPOTENCY_SETTINGS)
  const claims = new WeakMap<FastifyRequest, Claim>()
  let lastSweep = 0
  let sweeping: Promise<void> = Promise.resolve()

  const sweepNow = () => {
    const now = Date.now()
    if (now - lastSweep < SWEEP_INTERVAL_MS) return
    lastSweep = now
    sweeping = store.sweep().then(
      (deleted) => {
        if (deleted > 0) app.log.debug({ deleted }, 'expired idempotency records deleted')
      },
      (error: unknown) => app.log.warn({ err: error }, 'idempotency sweep failed'),
    )
  }

  // Most requests carry no Idempotency-Key: they pass synchronously, without a promise, a microtask turn or
  // building request.routeOptions (a new object on every access in fastify 5); the rest run `replayOrClaim`.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.headers[IDEMPOTENCY_KEY_HEADER] === undefined) return done()
    replayOrClaim(request, reply).then(() => done(), done)
  })
  async function replayOrClaim(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const opted = request.routeOptions.config?.idempotency
    if (!opted) return
    let caller: Caller
    try {
      caller = await callerOf(request, deps.read)
    } catch {
      return // not authenticated: the route answers 401, and nothing is recorded for nobody
    }
    const key = idempotencyKeyOf(request)!
    if (opted !== true && !opted(request)) return

    const fingerprint = requestFingerprint(request.method, request.url, request.body)
    const outcome = await store.claim(callerScope(caller), key, fingerprint)
    sweepNow()
    if (outcome.kind === 'claimed') {
      claims.set(request, outcome.claim)
      return
    }
    const row = outcome.row
    if (row.request_hash !== fingerprint) {
      throw new ApiError('idempotency_key_reused', `the Idempotency-Key ${JSON.stringify(key)} was first used with another request`)
    }
    if (row.state === 'in_flight' || row.status === null || row.body === null) {
      reply.header('Retry-After', String(IN_FLIGHT_RETRY_AFTER_SECONDS))
      throw new ApiError('idempotency_in_flight', `the first request with Idempotency-Key ${JSON.stringify(key)} is still running`)
    }
    reply.code(row.status)
    for (const [name, value] of Object.entries(row.headers ?? {})) reply.header(name, value)
    reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true')
    return reply.send(row.body)
  }

  // Stores a claimed request's answer (or releases the claim when the answer is not storable).
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: Claim): Promise<void> => {
    try {
      if (isStorable(reply.statusCode, payload) && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        const stored = await store.complete(claim, reply.statusCode, storedHeaders(reply), payload.toString())
        if (!stored) request.log.warn({ key: claim.key }, 'idempotency claim was taken over before the request finished')
      } else {
        await store.release(claim)
      }
    } catch (error) {
      // The answer still goes out; the in-flight row is taken over after the timeout.
      request.log.error({ err: error }, 'could not record the idempotent response')
    }
  }
  // A step of the app's one onSend hook (./on-send-steps.ts): asynchronous only for a claimed request.
  addOnSendStep(app, (request, reply, payload) => {
    const claim = claims.get(request)
    if (!claim) return undefined
    claims.delete(request)
    return record(request, reply, payload, claim)
  })

  // No release on an aborted connection: the route may still be running, and a retry must not run beside
  // it. onSend still stores its answer; if the process dies instead, the in-flight timeout frees the key.

  app.addHook('onClose', async () => {
    await sweeping
  })
}
