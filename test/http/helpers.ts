/**
 * Helpers shared by the HTTP tests in this folder: the error envelope, event counts (to prove that a
 * refused request changed nothing), and organizations with keys whose ids the tests need.
 */
import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { TestSystem } from '../support/system.js'

export interface Envelope {
  error: string
  code: string
  detail?: string
  hint?: string
  request_id?: string
}

const ENVELOPE_KEYS = new Set(['error', 'code', 'detail', 'hint', 'request_id'])

/** The slice of a tap Test that the helpers assert with. */
export type Assert = Pick<Test, 'equal' | 'ok' | 'fail'>

/**
 * Asserts an error response: status, JSON content type, the envelope {error, code, detail?, hint?, request_id}
 * with string values and no other keys, request_id the response's X-Request-Id, and the code. Returns the
 * parsed body.
 */
export function expectError(t: Assert, response: LightMyRequestResponse, status: number, code: string, what = ''): Envelope {
  const label = what ? `${what}: ` : ''
  t.equal(response.statusCode, status, `${label}status ${status} (body ${response.body.slice(0, 300)})`)
  t.ok(String(response.headers['content-type'] ?? '').startsWith('application/json'), `${label}JSON content type`)
  let body: Envelope
  try {
    body = response.json() as Envelope
  } catch {
    t.fail(`${label}body is not JSON: ${response.body.slice(0, 200)}`)
    return { error: '', code: '' }
  }
  t.equal(body.code, code, `${label}code ${code}`)
  t.equal(typeof body.error, 'string', `${label}error is a string`)
  t.ok(body.error.length > 0, `${label}error is not empty`)
  const extra = Object.keys(body).filter((k) => !ENVELOPE_KEYS.has(k))
  t.equal(extra.join(','), '', `${label}no keys beyond the envelope`)
  if (body.detail !== undefined) t.equal(typeof body.detail, 'string', `${label}detail is a string`)
  if (body.hint !== undefined) t.equal(typeof body.hint, 'string', `${label}hint is a string`)
  // A replay (Idempotency-Replayed) repeats the first answer's body, and so that request's id.
  if (response.headers['idempotency-replayed'] === 'true') t.equal(typeof body.request_id, 'string', `${label}request_id is a string`)
  else t.equal(body.request_id, response.headers['x-request-id'], `${label}request_id is the response's X-Request-Id`)
  return body
}

/**
 * The body with every occurrence of the given ids in `detail` replaced and without request_id (each request
 * has its own), for "same as missing" checks.
 */
export function withoutIds(body: Envelope, ids: readonly number[], placeholder = '<id>'): Envelope {
  const { request_id: _requestId, ...rest } = body
  if (rest.detail === undefined) return rest
  let detail = rest.detail
  for (const id of ids) detail = detail.replace(new RegExp(`\\b${id}\\b`, 'g'), placeholder)
  return { ...rest, detail }
}

/** How many events the log holds (es_events), read straight from the database. */
export async function eventCount(ts: TestSystem): Promise<number> {
  const { rows } = await ts.database.pool.query<{ n: number }>('select count(*)::int as n from es_events')
  return rows[0]!.n
}

/** The events of one stream, oldest first, straight from the log table. */
export async function streamEvents(ts: TestSystem, stream: string): Promise<{ type: string; data: any; metadata: any }[]> {
  const { rows } = await ts.database.pool.query<{ type: string; data: any; metadata: any }>(
    'select type, data, metadata from es_events where stream_name = $1 order by stream_revision',
    [stream],
  )
  return rows
}

export interface OrgWithKey {
  orgId: number
  key: string
  keyId: number
}

/** An organization and a key for it (every scope unless given), minted by the platform key. */
export async function orgWithKey(ts: TestSystem, name: string, scopes = 'read,write,jobs'): Promise<OrgWithKey> {
  const orgId = await ts.call<number>('create_organization', { name })
  const created = await ts.call<{ id: number; key: string }>('create_api_key', { name: `${name} key`, org_id: orgId, scopes })
  return { orgId, key: created.key, keyId: created.id }
}

/** Another key for an existing organization, minted by the platform key. */
export async function keyFor(
  ts: TestSystem,
  orgId: number | null,
  scopes: string,
  name = `key ${scopes}`,
): Promise<{ key: string; id: number }> {
  const created = await ts.call<{ id: number; key: string }>('create_api_key', { name, org_id: orgId, scopes })
  return { key: created.key, id: created.id }
}

/** A minimal valid client payload for add_client. */
export function clientPayload(name: string, extra: Record<string, unknown> = {}): { client: Record<string, unknown> } {
  return { client: { name, website_url: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`, ...extra } }
}

/** POST an RPC with arbitrary raw payload and headers (for malformed bodies and content types). */
export function rawRpc(
  ts: TestSystem,
  method: string,
  payload: string | Buffer | undefined,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return ts.app.inject({
    method: 'POST',
    url: `/api/v1/rpc/${method}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  })
}
