/**
 * A local stand-in for Google's OAuth 2.0 token endpoint and the Search Console API (Search Analytics), on
 * 127.0.0.1, speaking their published wire formats:
 *
 * - `POST /token` (RFC 6749, form-encoded): the JWT bearer grant of a service account
 *   (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, `assertion=<RS256 JWT>`: header, claims iss,
 *   scope, aud = https://oauth2.googleapis.com/token, iat, exp within an hour, and the signature checked
 *   against the public key of the account's key) and the refresh-token grant of an OAuth client. Success is
 *   `{access_token, expires_in, token_type: "Bearer", scope}`; refusals are `{error, error_description}`
 *   with 400 invalid_grant or 401 invalid_client, as Google answers them.
 * - `POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query`: the Search Analytics request
 *   (startDate, endDate, dimensions, rowLimit 1–25,000, startRow, type, dataState, aggregationType) over the
 *   rows the test seeded, grouped by the requested dimensions, sorted by clicks (then impressions) and paged
 *   by startRow; the answer is `{rows: [{keys, clicks, impressions, ctr, position}], responseAggregationType}`
 *   with `rows` left out when there are none. Errors use Google's JSON error body
 *   (`{error: {code, message, errors: [{message, domain, reason}], status}}`): 401 UNAUTHENTICATED for a
 *   missing, unknown or expired bearer token, 403 PERMISSION_DENIED for a principal that is not a user of
 *   the property, 400 INVALID_ARGUMENT for a malformed request; 429 and 5xx on demand (`failApi`).
 *
 * Every request is recorded, so tests can count calls and read what the client sent.
 */
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** The audience a service account's assertion must name: Google's token endpoint, whatever URL it was posted to. */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token'
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const READ_SCOPES = ['https://www.googleapis.com/auth/webmasters.readonly', 'https://www.googleapis.com/auth/webmasters']
const QUERY_PATH = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/
const DIMENSIONS = ['query', 'page', 'date', 'country', 'device', 'searchAppearance'] as const
type Dimension = (typeof DIMENSIONS)[number]

export interface StandInRequest {
  readonly method: string
  readonly path: string
  readonly headers: http.IncomingHttpHeaders
  /** The parsed body: form fields for the token endpoint, JSON for the API. */
  readonly body: any
}

/** One day's row of a property as Search Console keeps it (country and device default to usa and DESKTOP). */
export interface SeededRow {
  readonly date: string
  readonly query: string
  readonly page: string
  readonly clicks: number
  readonly impressions: number
  readonly position: number
  readonly country?: string
  readonly device?: string
}

/** A service account's JSON key file, as the Google Cloud console downloads it. */
export type ServiceAccountKeyFile = {
  type: 'service_account'
  project_id: string
  private_key_id: string
  private_key: string
  client_email: string
  client_id: string
  auth_uri: string
  token_uri: string
  auth_provider_x509_cert_url: string
  client_x509_cert_url: string
  universe_domain: string
}

export interface OAuthGrantCredentials {
  type: 'oauth'
  client_id: string
  client_secret: string
  refresh_token: string
}

/** A reply the test forces on the next requests to one endpoint, before any other rule. */
export interface ForcedReply {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body?: unknown
}

export interface SearchConsoleStandIn {
  readonly origin: string
  /** The token endpoint to configure as GSC_TOKEN_URL. */
  readonly tokenUrl: string
  /** The API root to configure as GSC_BASE_URL. */
  readonly baseUrl: string
  readonly requests: StandInRequest[]
  /** The requests to the Search Analytics endpoint, in order. */
  apiCalls(): StandInRequest[]
  /** The requests to the token endpoint, in order. */
  tokenCalls(): StandInRequest[]
  /** A new service account with a fresh RSA key; its key file is what an agency pastes into set_gsc_property. */
  createServiceAccount(name: string): ServiceAccountKeyFile
  /** Deletes a service account key: later assertions signed with it are refused (invalid_grant). */
  deleteServiceAccountKey(clientEmail: string): void
  /** An OAuth client with a user's refresh token (consent given for webmasters.readonly). */
  createOAuthGrant(user: string): OAuthGrantCredentials
  /** The user revoked the grant: its refresh token is refused and its access tokens stop working. */
  revokeOAuthGrant(refreshToken: string): void
  /** Adds a principal (a service account address or an OAuth user) as a user of the property. */
  addUser(siteUrl: string, principal: string): void
  removeUser(siteUrl: string, principal: string): void
  /** Rows the property has (kept per day; added to what it had). */
  seedRows(siteUrl: string, rows: readonly SeededRow[]): void
  /** The next `count` Search Analytics requests answer `reply` (after authentication, before everything else). */
  failApi(count: number, reply: ForcedReply): void
  /** The next `count` token requests answer `reply`. */
  failToken(count: number, reply: ForcedReply): void
  /** Holds the Search Analytics answers (those `which` picks; default all) until `release` is called (to stop a worker mid-capture). */
  holdApi(which?: (request: StandInRequest) => boolean): { release(): void; readonly waiting: () => number }
  close(): Promise<void>
}

/** Google's JSON error body for the API. */
export function googleApiError(code: number, status: string, message: string, reason: string, domain = 'global'): ForcedReply {
  return { status: code, body: { error: { code, message, errors: [{ message, domain, reason }], status } } }
}

export const API_ERRORS = {
  unauthenticated: googleApiError(
    401,
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    'authError',
  ),
  quota: googleApiError(429, 'RESOURCE_EXHAUSTED', 'Search Analytics load quota exceeded.', 'quotaExceeded', 'usageLimits'),
  backend: googleApiError(500, 'INTERNAL', 'Internal error encountered.', 'backendError'),
  unavailable: googleApiError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError'),
} as const

function forbidden(siteUrl: string): ForcedReply {
  return googleApiError(
    403,
    'PERMISSION_DENIED',
    `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`,
    'forbidden',
  )
}

function invalidArgument(message: string): ForcedReply {
  return googleApiError(400, 'INVALID_ARGUMENT', message, 'invalid')
}

const base64url = (value: string) => Buffer.from(value, 'base64url')

interface Principal {
  readonly name: string
  readonly scope: string
  readonly expiresAt: number
  readonly refreshToken?: string
}

export async function startSearchConsoleStandIn(t: { teardown(fn: () => unknown): void }): Promise<SearchConsoleStandIn> {
  const requests: StandInRequest[] = []
  const serviceAccounts = new Map<string, { publicKey: KeyObject; deleted: boolean }>()
  const oauthClients = new Map<string, { secret: string }>()
  const refreshTokens = new Map<string, { clientId: string; user: string; revoked: boolean }>()
  const accessTokens = new Map<string, Principal>()
  const users = new Map<string, Set<string>>()
  const data = new Map<string, SeededRow[]>()
  const forced = { api: [] as ForcedReply[], token: [] as ForcedReply[] }
  let held: { waiting: (() => void)[]; which: (request: StandInRequest) => boolean } | null = null

  const issue = (name: string, scope: string, refreshToken?: string) => {
    const token = `ya29.${randomBytes(24).toString('base64url')}`
    accessTokens.set(token, { name, scope, expiresAt: Date.now() + 3599_000, ...(refreshToken ? { refreshToken } : {}) })
    return { status: 200, body: { access_token: token, expires_in: 3599, scope, token_type: 'Bearer' } }
  }
  const tokenError = (status: number, error: string, description: string): ForcedReply => ({
    status,
    body: { error, error_description: description },
  })

  function jwtGrant(assertion: string | undefined): ForcedReply {
    const parts = (assertion ?? '').split('.')
    if (parts.length !== 3) return tokenError(400, 'invalid_request', 'Invalid JWT: not a compact JWS')
    let header: any
    let claims: any
    try {
      header = JSON.parse(base64url(parts[0]!).toString('utf8'))
      claims = JSON.parse(base64url(parts[1]!).toString('utf8'))
    } catch {
      return tokenError(400, 'invalid_grant', 'Invalid JWT: the header or claim set is not JSON')
    }
    if (header.alg !== 'RS256') return tokenError(400, 'invalid_grant', `Invalid JWT: unsupported algorithm ${header.alg}`)
    const account = serviceAccounts.get(claims.iss)
    if (!account) return tokenError(400, 'invalid_grant', 'Invalid grant: account not found')
    const verifier = createVerify('RSA-SHA256')
    verifier.update(`${parts[0]}.${parts[1]}`)
    if (account.deleted || !verifier.verify(account.publicKey, base64url(parts[2]!))) {
      return tokenError(400, 'invalid_grant', 'Invalid JWT Signature.')
    }
    const now = Math.floor(Date.now() / 1000)
    if (claims.aud !== GOOGLE_TOKEN_AUDIENCE) return tokenError(400, 'invalid_grant', 'Invalid JWT: audience is not the token endpoint')
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp - claims.iat > 3600 || claims.exp < now - 60) {
      return tokenError(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      )
    }
    const scopes = String(claims.scope ?? '').split(' ')
    if (!scopes.some((s) => READ_SCOPES.includes(s)))
      return tokenError(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.')
    return issue(claims.iss, String(claims.scope))
  }

  function refreshGrant(form: Record<string, string>): ForcedReply {
    const client = oauthClients.get(form.client_id ?? '')
    if (!client || client.secret !== form.client_secret) return tokenError(401, 'invalid_client', 'Unauthorized')
    const grant = refreshTokens.get(form.refresh_token ?? '')
    if (!grant || grant.revoked || grant.clientId !== form.client_id)
      return tokenError(400, 'invalid_grant', 'Token has been expired or revoked.')
    return issue(grant.user, READ_SCOPES[0]!, form.refresh_token)
  }

  function query(siteUrl: string, body: any): ForcedReply {
    if (typeof body !== 'object' || body === null) return invalidArgument('Invalid JSON payload received.')
    const { startDate, endDate } = body
    const day = /^\d{4}-\d{2}-\d{2}$/
    if (typeof startDate !== 'string' || !day.test(startDate)) return invalidArgument('startDate is required, as YYYY-MM-DD.')
    if (typeof endDate !== 'string' || !day.test(endDate)) return invalidArgument('endDate is required, as YYYY-MM-DD.')
    if (endDate < startDate) return invalidArgument('endDate must be greater than or equal to startDate.')
    const rowLimit = body.rowLimit ?? 1000
    if (!Number.isInteger(rowLimit) || rowLimit < 1 || rowLimit > 25000) return invalidArgument('rowLimit must be between 1 and 25000.')
    const startRow = body.startRow ?? 0
    if (!Number.isInteger(startRow) || startRow < 0) return invalidArgument('startRow must be a non-negative integer.')
    const dimensions: Dimension[] = body.dimensions ?? []
    if (!Array.isArray(dimensions) || dimensions.some((d) => !(DIMENSIONS as readonly string[]).includes(d))) {
      return invalidArgument(`Unknown dimension in ${JSON.stringify(body.dimensions)}.`)
    }
    if ((body.type ?? body.searchType ?? 'web') !== 'web') return { status: 200, body: { responseAggregationType: 'auto' } }
    const groups = new Map<string, { keys: string[]; clicks: number; impressions: number; weighted: number }>()
    for (const row of data.get(siteUrl) ?? []) {
      if (row.date < startDate || row.date > endDate) continue
      const values: Record<Dimension, string> = {
        query: row.query,
        page: row.page,
        date: row.date,
        country: row.country ?? 'usa',
        device: row.device ?? 'DESKTOP',
        searchAppearance: 'WEB_LIGHT_RESULTS',
      }
      const keys = dimensions.map((d) => values[d])
      const id = JSON.stringify(keys)
      const group = groups.get(id) ?? { keys, clicks: 0, impressions: 0, weighted: 0 }
      group.clicks += row.clicks
      group.impressions += row.impressions
      group.weighted += row.position * row.impressions
      groups.set(id, group)
    }
    // Search Analytics sorts by clicks; ties are ordered here by impressions and then keys, so paging is stable.
    const sorted = [...groups.values()].sort(
      (a, b) => b.clicks - a.clicks || b.impressions - a.impressions || JSON.stringify(a.keys).localeCompare(JSON.stringify(b.keys)),
    )
    const page = sorted.slice(startRow, startRow + rowLimit).map((g) => ({
      ...(dimensions.length > 0 ? { keys: g.keys } : {}),
      clicks: g.clicks,
      impressions: g.impressions,
      ctr: g.impressions === 0 ? 0 : g.clicks / g.impressions,
      position: g.impressions === 0 ? 0 : g.weighted / g.impressions,
    }))
    const aggregation = dimensions.includes('page') ? 'byPage' : 'byProperty'
    return {
      status: 200,
      body: page.length > 0 ? { rows: page, responseAggregationType: aggregation } : { responseAggregationType: aggregation },
    }
  }

  function authorize(headers: http.IncomingHttpHeaders): Principal | null {
    const match = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))
    const principal = match ? accessTokens.get(match[1]!) : undefined
    if (!principal || principal.expiresAt < Date.now()) return null
    if (principal.refreshToken && refreshTokens.get(principal.refreshToken)?.revoked) return null
    return principal
  }

  async function answer(request: StandInRequest): Promise<ForcedReply> {
    if (request.method === 'POST' && request.path === '/token') {
      const reply = forced.token.shift()
      if (reply) return reply
      const form = request.body as Record<string, string>
      if (form.grant_type === JWT_BEARER) return jwtGrant(form.assertion)
      if (form.grant_type === 'refresh_token') return refreshGrant(form)
      return tokenError(400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`)
    }
    const match = QUERY_PATH.exec(request.path)
    if (request.method === 'POST' && match) {
      const principal = authorize(request.headers)
      if (!principal) return API_ERRORS.unauthenticated
      const siteUrl = decodeURIComponent(match[1]!)
      const reply = forced.api.shift()
      if (reply) return reply
      if (!users.get(siteUrl)?.has(principal.name)) return forbidden(siteUrl)
      if (held?.which(request)) await new Promise<void>((resolve) => held?.waiting.push(resolve) ?? resolve())
      return query(siteUrl, request.body)
    }
    return googleApiError(404, 'NOT_FOUND', `Not Found: ${request.method} ${request.path}`, 'notFound')
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const type = String(req.headers['content-type'] ?? '')
      let body: unknown = raw
      if (type.startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw))
      else if (raw !== '') {
        try {
          body = JSON.parse(raw)
        } catch {
          body = raw
        }
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const request: StandInRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body }
      requests.push(request)
      const reply = await answer(request)
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8', ...reply.headers })
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  const close = () =>
    new Promise<void>((resolve) => {
      for (const resume of held?.waiting ?? []) resume()
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t.teardown(close)
  let accounts = 0

  return {
    origin,
    tokenUrl: `${origin}/token`,
    baseUrl: `${origin}/`,
    requests,
    apiCalls: () => requests.filter((r) => QUERY_PATH.test(r.path)),
    tokenCalls: () => requests.filter((r) => r.path === '/token'),
    createServiceAccount(name) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      const project = 'rankrelay-test'
      const email = `${name}@${project}.iam.gserviceaccount.com`
      serviceAccounts.set(email, { publicKey: createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), deleted: false })
      accounts++
      return {
        type: 'service_account',
        project_id: project,
        private_key_id: randomBytes(20).toString('hex'),
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: email,
        client_id: String(100_000_000_000_000_000_000n + BigInt(accounts)),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: GOOGLE_TOKEN_AUDIENCE,
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
        universe_domain: 'googleapis.com',
      }
    },
    deleteServiceAccountKey(clientEmail) {
      const account = serviceAccounts.get(clientEmail)
      if (account) serviceAccounts.set(clientEmail, { ...account, deleted: true })
    },
    createOAuthGrant(user) {
      const clientId = `${randomBytes(6).toString('hex')}-${randomBytes(8).toString('hex')}.apps.googleusercontent.com`
      const secret = `GOCSPX-${randomBytes(18).toString('base64url')}`
      const refreshToken = `1//0${randomBytes(30).toString('base64url')}`
      oauthClients.set(clientId, { secret })
      refreshTokens.set(refreshToken, { clientId, user, revoked: false })
      return { type: 'oauth', client_id: clientId, client_secret: secret, refresh_token: refreshToken }
    },
    revokeOAuthGrant(refreshToken) {
      const grant = refreshTokens.get(refreshToken)
      if (grant) refreshTokens.set(refreshToken, { ...grant, revoked: true })
    },
    addUser(siteUrl, principal) {
      users.set(siteUrl, new Set([...(users.get(siteUrl) ?? []), principal]))
    },
    removeUser(siteUrl, principal) {
      users.get(siteUrl)?.delete(principal)
    },
    seedRows(siteUrl, rows) {
      data.set(siteUrl, [...(data.get(siteUrl) ?? []), ...rows])
    },
    failApi(count, reply) {
      for (let i = 0; i < count; i++) forced.api.push(reply)
    },
    failToken(count, reply) {
      for (let i = 0; i < count; i++) forced.token.push(reply)
    },
    holdApi(which = () => true) {
      const state = { waiting: [] as (() => void)[], which }
      held = state
      return {
        release() {
          held = null
          for (const resume of state.waiting.splice(0)) resume()
        },
        waiting: () => state.waiting.length,
      }
    },
    close,
  }
}
