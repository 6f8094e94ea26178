import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type Kysely } from 'kysely'
import type { ReadDb } from '../../projections/tables.js'
import { callerOfKey } from '../auth/api-keys.js'
import { apiKeyTokenOf, callerOf, settleCaller } from '../auth/request-caller.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'
import { MCP_PATH } from '../mcp/protected-resource.js'
import type { RpcRegistry } from '../registry.js'
import type { RateLimitSettings } from '../settings.js'
import { Coalescer } from './coalesce.js'
import { addOnSendStep } from './on-send-steps.js'
import { KeyHashes } from './key-hashes.js'
import { keyCountStatement, lookUpAndCount, type KeyCount, type KeyHit } from './key-count.js'
import type { WorkTables } from '../../migrations/work-tables.js'

export interface RateLimitDeps {
  /** The public schema, where the shared counters live. */
  readonly db: Kysely<WorkTables>
  readonly read: ReadDb
  readonly registry: RpcRegistry
  readonly rateLimits: RateLimitSettings
}

/** Where a request stands in its window: what the X-RateLimit-* headers say. */
interface Standing {
  readonly limit: number
  readonly remaining: number
  /** Seconds until the window resets (also Retry-After on a 429). */
  readonly resetSeconds: number
  /** Where further calls of the request are counted (countMoreCalls): the window's counter row and its database. */
  readonly window: CountingWindow
}

interface CountingWindow {
  readonly db: Kysely<WorkTables>
  readonly bucket: string
  readonly minute: number
  /** "this key" or "this address", for the refusal's detail. */
  readonly who: string
}

const WINDOW_MS = 60_000

/** Each counted request's standing (requests of every app are distinct objects, so one map serves them all). */
const standings = new WeakMap<FastifyRequest, Standing>()

/**
 * Counts `extra` more calls of a request the limiter has already counted once (the further messages of an MCP
 * batch) against the same key's (or address's) window, so a batch of n calls costs what n REST calls cost: a
 * batch must not be a way around the per-key limit. If the window's count then exceeds the limit, throws 429
 * rate_limited (the headers and Retry-After follow): the caller refuses the whole request, none of its calls
 * having run, and the calls stay counted, as a refused REST call does. Does nothing for a request the limiter
 * did not count (outside /api/v1, or the counter was unavailable: the request goes on uncounted, as there).
 */
export async function countMoreCalls(request: FastifyRequest, extra: number, what: string): Promise<void> {
  const standing = standings.get(request)
  if (extra <= 0 || standing === undefined) return
  const { limit, resetSeconds, window } = standing
  let after: number
  try {
    const counts = await count(
      window.db,
      window.bucket,
      window.minute,
      Array.from({ length: extra }, () => ({ limit, usage: null, sweep: null })),
    )
    after = counts.at(-1)!
  } catch (error) {
    request.log.warn({ err: error }, 'rate limit counter unavailable; calls not counted')
    return
  }
  standings.set(request, { ...standing, remaining: Math.max(0, limit - after) })
  if (after > limit) {
    throw new ApiError(
      'rate_limited',
      `${window.who} is limited to ${limit} requests per minute, and ${what} counts ${extra + 1} calls: more than were left; the window resets in ${resetSeconds} s`,
    )
  }
}
/** Usage rows are kept a little longer than get_org_usage can ask for (366 days). */
const USAGE_RETENTION_DAYS = 400

/** /api/v1 and everything under it: the spec puts the headers on every /api/v1 response. */
export function isApiV1(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?')
}

/**
 * The OAuth endpoints that write to the log without any credential (registration, token, revocation and the
 * consent form): limited by client address like an unauthenticated API call, so a flood of registrations or
 * code guesses meets the same per-minute window.
 */
const OAUTH_WRITES = new Set(['/oauth/register', '/oauth/token', '/oauth/revoke', '/oauth/authorize'])
export function isOAuthWrite(method: string, url: string): boolean {
  return method === 'POST' && OAUTH_WRITES.has(url.split('?')[0]!)
}

/**
 * The single sign-on steps that write without a credential: starting an OIDC or SAML sign-in (a state or
 * request row), the OIDC callback and the SAML ACS (events), and the /login/sso form. Counted by client
 * address like the OAuth writes above.
 */
export function isSsoSignInWrite(method: string, url: string): boolean {
  const path = url.split('?')[0]!
  if (method === 'GET') return /^\/auth\/oidc\/[^/]+(\/callback)?$/.test(path) || /^\/saml\/[^/]+\/login$/.test(path)
  return method === 'POST' && (path === '/login/sso' || /^\/saml\/[^/]+\/acs$/.test(path))
}

/**
 * The sign-in forms that write without a credential: /login (a refused password is an event, and five lock the
 * account), the invite pages and the password-reset pages. Counted by client address like the writes above,
 * so one address cannot try passwords across many accounts faster than the per-minute window (the per-account
 * lock-out stops guessing at one account; this stops spraying).
 */
export function isSignInFormWrite(method: string, url: string): boolean {
  if (method !== 'POST') return false
  const path = url.split('?')[0]!
  return (
    path === '/login' || path === '/password-reset' || /^\/password-reset\/[^/]+$/.test(path) || /^\/invite\/[^/]+(\/confirm)?$/.test(path)
  )
}

/**
 * What a call is metered as: the RPC name for a registered method (an unknown name is one bucket, so a caller
 * cannot mint usage rows by inventing names), otherwise the HTTP method and route pattern.
 */
export function meteredMethod(request: FastifyRequest, registry: RpcRegistry): string | null {
  const route = request.routeOptions.url
  // The MCP endpoint meters what each message does (read-api/mcp/metering.ts), once its body is parsed.
  if (route === MCP_PATH && request.method === 'POST') return null
  if (route === '/api/v1/rpc/:method') {
    const name = (request.params as { method?: string }).method ?? ''
    return registry.get(name) ? name : '(unknown method)'
  }
  return route ? `${request.method} ${route}` : '(no route)'
}

/** The UTC day of an instant, as PostgreSQL's date input takes it. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** One request to count: its limit, and what to meter if it is let through. */
interface Hit {
  readonly limit: number
  readonly usage: { day: string; actorKind: string; actorId: string; orgId: number | null; method: string } | null
  /** Set: sweep old windows and usage rows (the first request this process sees in a new minute). */
  readonly sweep: { day: string } | null
}

/**
 * Counts requests of one bucket against its current minute and, for each authenticated call that is let
 * through, against its organization's usage; sweeps old windows when asked. One statement for all the requests
 * given (read-api/platform/coalesce.ts gathers the ones that arrive while the previous statement runs), so one
 * round trip and one update of the bucket's row per batch. Returns each request's count in this window, itself
 * included, as if they had been counted one by one in the order given: the i-th (1-based) of n gets
 * `count after the batch - n + i`, and is metered only if that is within its limit. Other processes' batches
 * interleave atomically on the same row, so the window is still shared by every API process.
 *
 * The statement commits with synchronous_commit off: every request of a busy key updates the same row, and
 * holding that row lock through a WAL flush would serialize the key's requests on disk latency. A crash can
 * lose the last fraction of a second of counts, which a rate limit and a usage meter can afford.
 */
async function count(db: Kysely<WorkTables>, bucket: string, minute: number, hits: readonly Hit[]): Promise<number[]> {
  const n = hits.length
  const metered = hits.flatMap((h, i) => (h.usage ? [{ ...h.usage, ord: i + 1, limit: h.limit }] : []))
  const sweep = hits.find((h) => h.sweep !== null)?.sweep ?? null
  const result = await sql<{ count: number }>`
    with async_commit as (select set_config('synchronous_commit', 'off', true)),
    hit as (
      insert into rate_limit_windows (bucket, window_minute, count) values (${bucket}, ${minute}::bigint, ${n}::int)
      on conflict (bucket, window_minute) do update set count = rate_limit_windows.count + excluded.count
      returning count
    ),
    calls as (
      select * from unnest(
        ${metered.map((m) => m.day)}::date[], ${metered.map((m) => m.actorKind)}::text[], ${metered.map((m) => m.actorId)}::text[],
        ${metered.map((m) => m.orgId)}::bigint[], ${metered.map((m) => m.method)}::text[], ${metered.map((m) => m.ord)}::int[],
        ${metered.map((m) => m.limit)}::int[]
      ) as c(day, actor_kind, actor_id, org_id, method, ord, lim)
    ),
    metered as (
      insert into api_usage_daily (day, actor_kind, actor_id, org_id, method, calls)
      select c.day, c.actor_kind, c.actor_id, min(c.org_id), c.method, count(*)
      from calls c, hit where hit.count - ${n}::int + c.ord <= c.lim
      group by c.day, c.actor_kind, c.actor_id, c.method
      on conflict (day, actor_kind, actor_id, method) do update set calls = api_usage_daily.calls + excluded.calls
    ),
    swept_windows as (
      delete from rate_limit_windows where ${sweep !== null} and window_minute < ${minute - 1}::bigint
    ),
    swept_usage as (
      delete from api_usage_daily where ${sweep !== null} and day < ${sweep?.day ?? null}::date - ${USAGE_RETENTION_DAYS}::int
    )
    select hit.count from hit, async_commit`.execute(db)
  const after = Number(result.rows[0]!.count)
  return hits.map((_, i) => after - n + i + 1)
}

/**
 * Meters calls a route counts itself (MCP: one per JSON-RPC message, named for what it runs), for a request the
 * rate limit let through. Like the counter, it commits asynchronously, and a failure only costs the count.
 */
export async function meterCalls(
  db: Kysely<WorkTables>,
  request: FastifyRequest,
  caller: Caller,
  methods: readonly string[],
  now: () => number = Date.now,
): Promise<void> {
  if (methods.length === 0) return
  try {
    await sql`
      with async_commit as (select set_config('synchronous_commit', 'off', true))
      insert into api_usage_daily (day, actor_kind, actor_id, org_id, method, calls)
      select ${utcDay(now())}::date, ${caller.actor.kind}, ${String(caller.actor.id)}, ${caller.orgId}::bigint, m.method, count(*)
        from unnest(${methods}::text[]) as m(method), async_commit
       group by m.method
      on conflict (day, actor_kind, actor_id, method) do update set calls = api_usage_daily.calls + excluded.calls`.execute(db)
  } catch (error) {
    request.log.warn({ err: error }, 'usage meter unavailable; calls not metered')
  }
}

/**
 * Rate limits and usage metering for every /api/v1 request, in one onRequest hook: the request is counted
 * against its key's (or, without a valid key, its client address's) per-minute window in PostgreSQL, so
 * every API process counts against the same limit. Over the limit it answers 429 rate_limited with
 * Retry-After; every /api/v1 response, errors included, carries X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset (seconds until the window resets). The OAuth endpoints that write without a credential
 * (POST /oauth/register, /oauth/token, /oauth/revoke, /oauth/authorize) and the SSO sign-in steps (GET
 * /auth/oidc/<provider>[/callback], GET /saml/<key>/login, POST /saml/<key>/acs, POST /login/sso) and the
 * sign-in forms (POST /login, /invite/<token>[/confirm], /password-reset[/<token>]) are counted by address the
 * same way. Health is counted like any other call (by address when
 * it carries no key): it reads the database, and a probe every few seconds is far below any sane limit.
 *
 * If the counter cannot be written (the database is down), the request goes on uncounted and without the
 * headers: the limiter must not turn a database hiccup into an outage of its own, and health must still be
 * able to say "unavailable".
 */
export function installRateLimits(app: FastifyInstance, deps: RateLimitDeps): void {
  const now = deps.rateLimits.now ?? Date.now
  // Old windows are swept by the first request this process sees in each new minute, inside that request's
  // own statement: no timer and no extra round trip.
  let sweptMinute = -1
  // The UTC day of the current minute, formatted once a minute rather than on every request.
  let dayMinute = -1
  let day = ''
  const dayOf = (minute: number) => {
    if (minute !== dayMinute) {
      day = utcDay(minute * WINDOW_MS)
      dayMinute = minute
    }
    return day
  }
  // Concurrent requests of one bucket in one minute share a statement (group commit).
  const counter = new Coalescer<string, Hit, number>((key, hits) => {
    const at = key.lastIndexOf('|')
    return count(deps.db, key.slice(0, at), Number(key.slice(at + 1)), hits)
  })

  // Requests with an API key: the key lookup and the count in one statement, gathered per key and minute.
  const keyCount = keyCountStatement(deps.read)
  const keyHashes = new KeyHashes()
  const keyCounter = new Coalescer<string, KeyHit, { row: KeyCount['row']; verdict: Promise<Caller>; count: number | undefined }>(
    async (key, hits) => {
      const at = key.lastIndexOf('|')
      const counted = await lookUpAndCount(
        deps.db,
        keyCount,
        {
          keyHash: key.slice(0, at),
          minute: Number(key.slice(at + 1)),
          defaultLimit: deps.rateLimits.defaultPerMinute,
          retentionDays: USAGE_RETENTION_DAYS,
        },
        hits,
      )
      // One caller for the whole batch (the same key row): it is immutable, and parsing its scopes once per
      // statement rather than once per request is work saved on every keyed request.
      // (A row it refuses is left to each request, which then fails as before.)
      let caller: Caller | undefined
      try {
        caller = counted.row ? callerOfKey(counted.row, counted.row.key_hash) : undefined
      } catch {
        caller = undefined
      }
      // The verdict every request of the batch hands to its route (settleCaller), also built once per statement.
      const verdict = caller ? Promise.resolve(caller) : (async () => callerOfKey(counted.row, key.slice(0, at)))()
      // A refusal (unknown or revoked key) is handled by each request that awaits it; marked handled here too,
      // so that it never counts as an unhandled rejection in the turns before the first request picks it up.
      verdict.catch(() => undefined)
      return hits.map((_, i) => ({ row: counted.row, verdict, count: counted.counts[i] }))
    },
  )

  app.addHook('onRequest', async (request) => {
    // /api/v1 first: no credential-less write lives under it, so an API call skips the path checks below.
    const apiV1 = isApiV1(request.url)
    const oauth =
      !apiV1 &&
      (isOAuthWrite(request.method, request.url) ||
        isSsoSignInWrite(request.method, request.url) ||
        isSignInFormWrite(request.method, request.url))
    if (!apiV1 && !oauth) return
    const at = now()
    const minute = Math.floor(at / WINDOW_MS)
    const sweep = minute !== sweptMinute
    sweptMinute = minute
    const method = meteredMethod(request, deps.registry)
    let caller: Caller | null = null
    let used: number | undefined
    const token = oauth ? undefined : apiKeyTokenOf(request)
    if (token !== undefined) {
      try {
        const day = dayOf(minute)
        const counted = await keyCounter.submit(`${keyHashes.of(token)}|${minute}`, { day, method, sweep: sweep ? { day } : null })
        // The route's callerOf(request) answers this verdict: no second lookup.
        settleCaller(request, counted.verdict)
        if (counted.row) {
          caller = await counted.verdict
          used = counted.count
        }
      } catch (error) {
        // The database is unavailable: as below, the request goes on uncounted; the route looks the key up itself.
        if (sweep) sweptMinute = -1
        request.log.warn({ err: error }, 'rate limit counter unavailable; request not counted')
        return
      }
    } else {
      try {
        // An OAuth endpoint is never called with an API credential: it counts by address.
        if (!oauth) caller = await callerOf(request, deps.read)
      } catch {
        // Not authenticated: limited by address here; the route answers 401 if it needs a caller.
      }
    }
    const limit = caller?.rateLimitPerMinute ?? deps.rateLimits.defaultPerMinute
    // The same row the key's statement counts in (`api_key:<id>`), or the address's.
    const bucket = caller ? `${caller.actor.kind}:${caller.actor.id}` : `ip:${request.ip}`
    try {
      // An unknown or revoked key counted nothing in its statement: it is counted by address, like no key.
      used ??= await counter.submit(`${bucket}|${minute}`, {
        limit,
        usage:
          caller && method !== null
            ? {
                day: dayOf(minute),
                actorKind: caller.actor.kind,
                actorId: String(caller.actor.id),
                orgId: caller.orgId,
                method,
              }
            : null,
        sweep: sweep && token === undefined ? { day: dayOf(minute) } : null,
      })
    } catch (error) {
      if (sweep) sweptMinute = -1
      request.log.warn({ err: error }, 'rate limit counter unavailable; request not counted')
      return
    }
    const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * WINDOW_MS - at) / 1000))
    const who = caller ? 'this key' : 'this address'
    // The window is plain data, not a closure over the request: a WeakMap value that holds its own key is an
    // ephemeron cycle V8's collector must resolve for every request (measured: get_client's p99 at 64
    // connections went from about 11 to 19 ms with a per-request closure here).
    standings.set(request, { limit, remaining: Math.max(0, limit - used), resetSeconds, window: { db: deps.db, bucket, minute, who } })
    if (used > limit)
      throw new ApiError('rate_limited', `${who} is limited to ${limit} requests per minute; the window resets in ${resetSeconds} s`)
  })

  addOnSendStep(app, (request, reply) => {
    const standing = standings.get(request)
    if (standing) {
      reply.header('X-RateLimit-Limit', standing.limit)
      reply.header('X-RateLimit-Remaining', standing.remaining)
      reply.header('X-RateLimit-Reset', standing.resetSeconds)
      // A 429 of another limit (the sandbox's one export per 10 minutes) keeps its own Retry-After.
      if (reply.statusCode === 429 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', standing.resetSeconds)
    }
  })
}
