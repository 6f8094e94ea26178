import { createRequire } from 'node:module'
import type { searchconsole_v1 } from '@googleapis/searchconsole'
import type { gaxios, JWT, OAuth2Client } from 'google-auth-library'
import type { GscSecret } from '../../../domain/search/gsc/credentials.js'
import { GSC_TEXT_MAX_LENGTH, type GscRow } from '../../../domain/search/gsc/events.js'
import { unacceptableTextReason } from '../../../domain/shared/values.js'
import { GOOGLE_TOKEN_URL } from '../settings.js'
import { GscProviderError, type ConnectSearchAnalytics, type DayPageRequest } from './search-analytics.js'

/**
 * The Google client libraries (~100 CommonJS modules) are loaded with the first Search Console use, not with
 * the app (most processes never make one); required, because classify and the connect function are synchronous.
 */
const requireFromHere = createRequire(import.meta.url)
const authLibrary = () => requireFromHere('google-auth-library') as typeof import('google-auth-library')
const searchconsoleLibrary = () => requireFromHere('@googleapis/searchconsole') as typeof import('@googleapis/searchconsole')

/** Read-only access to Search Console data: all a capture needs. */
export const GSC_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly'

export interface GoogleSearchAnalyticsSettings {
  /** GSC_BASE_URL: the API's root URL (Google's, or a test's stand-in). */
  readonly baseUrl: string
  /** GSC_TOKEN_URL: the OAuth 2.0 token endpoint. */
  readonly tokenUrl: string
  /** One call's deadline (the token request's too). */
  readonly timeoutMs: number
}

/**
 * The token endpoint for a service account. google-auth-library's JWT client signs its assertion and posts
 * it through its built-in token fetcher (formerly gtoken), which hard-codes https://oauth2.googleapis.com/token
 * and takes no option for another URL (OAuth2Client's `endpoints.oauth2TokenUrl` is not read on that path).
 * What it does use is the client's own gaxios transporter, and gaxios request interceptors are its public
 * way to adjust a request before it is sent: this one moves exactly that URL to GSC_TOKEN_URL and leaves every
 * other request alone. The assertion's `aud` stays Google's token URL, as Google (and the stand-in) require.
 */
function routeTokenRequests(client: JWT, tokenUrl: string): void {
  if (tokenUrl === GOOGLE_TOKEN_URL) return
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUrl)
      return options
    },
  })
}

function authClientOf(secret: GscSecret, settings: GoogleSearchAnalyticsSettings): JWT | OAuth2Client {
  const transporterOptions = { timeout: settings.timeoutMs }
  if (secret.type === 'service_account') {
    const client = new (authLibrary().JWT)({
      email: secret.client_email,
      key: secret.private_key,
      ...(secret.private_key_id === null ? {} : { keyId: secret.private_key_id }),
      // A scope makes the client exchange a signed assertion for an access token at the token endpoint.
      scopes: [GSC_SCOPE],
      transporterOptions,
    })
    routeTokenRequests(client, settings.tokenUrl)
    return client
  }
  const client = new (authLibrary().OAuth2Client)({
    clientId: secret.client_id,
    clientSecret: secret.client_secret,
    endpoints: { oauth2TokenUrl: settings.tokenUrl },
    transporterOptions,
  })
  client.setCredentials({ refresh_token: secret.refresh_token, scope: GSC_SCOPE })
  return client
}

/** A text Search Console returned, made storable: characters the log cannot hold replaced, cut to length. */
function storable(text: string): string {
  let clean = text
  // biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what PostgreSQL cannot store.
  if (unacceptableTextReason(clean) !== null) clean = clean.replace(/\u0000/g, '').replace(/[\uD800-\uDFFF]/g, '\uFFFD')
  return clean.length > GSC_TEXT_MAX_LENGTH ? clean.slice(0, GSC_TEXT_MAX_LENGTH) : clean
}

interface ApiRow {
  keys?: string[] | null
  clicks?: number | null
  impressions?: number | null
  ctr?: number | null
  position?: number | null
}

/** The API's rows as the capture records them (keys query, page, date, in the order asked). */
function rowsOf(rows: readonly ApiRow[] | null | undefined): GscRow[] {
  return (rows ?? []).map((row) => {
    const clicks = Math.max(0, Math.round(row.clicks ?? 0))
    const impressions = Math.max(0, Math.round(row.impressions ?? 0))
    return {
      query: storable(row.keys?.[0] ?? ''),
      page: storable(row.keys?.[1] ?? ''),
      clicks,
      impressions,
      ctr: Math.min(1, Math.max(0, row.ctr ?? (impressions === 0 ? 0 : clicks / impressions))),
      position: Math.max(0, row.position ?? 0),
    }
  })
}

function retryAfterOf(error: gaxios.GaxiosError): number | undefined {
  const header = error.response?.headers?.get?.('retry-after')
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/**
 * A failure of a token request or an API call, as the capture records it. The token endpoint answers
 * OAuth errors (`{error, error_description}`: invalid_grant for a deleted key or a revoked grant,
 * invalid_client for a wrong secret), the API Google's JSON errors (`{error: {code, message, status}}`).
 */
export function classify(error: unknown, tokenUrl: string): GscProviderError {
  if (error instanceof GscProviderError) return error
  if (!(error instanceof authLibrary().gaxios.GaxiosError)) {
    return new GscProviderError('gsc_unavailable', `Search Console could not be reached: ${messageOf(error)}`, true)
  }
  const status = error.status ?? error.response?.status
  const url = String(error.config?.url ?? '')
  const data = error.response?.data as { error?: unknown; error_description?: unknown } | undefined
  const fromTokenEndpoint = url === GOOGLE_TOKEN_URL || url.startsWith(tokenUrl)
  if (status === undefined) {
    return new GscProviderError('gsc_unavailable', `Search Console did not answer: ${messageOf(error)}`, true)
  }
  if (status === 429) {
    return new GscProviderError(
      'gsc_rate_limited',
      `Search Console quota exceeded (HTTP 429): ${apiMessage(data, error)}`,
      true,
      status,
      retryAfterOf(error),
    )
  }
  if (status >= 500 || status === 408) {
    return new GscProviderError(
      'gsc_unavailable',
      `Search Console failed (HTTP ${status}): ${apiMessage(data, error)}`,
      true,
      status,
      retryAfterOf(error),
    )
  }
  if (fromTokenEndpoint) {
    const description = typeof data?.error_description === 'string' ? `: ${data.error_description}` : ''
    const code = typeof data?.error === 'string' ? data.error : `HTTP ${status}`
    return new GscProviderError('gsc_unauthorized', `Google refused the credentials (${code}${description})`, false, status)
  }
  if (status === 401)
    return new GscProviderError('gsc_unauthorized', `Search Console refused the credentials: ${apiMessage(data, error)}`, false, status)
  if (status === 403) return new GscProviderError('gsc_forbidden', apiMessage(data, error), false, status)
  return new GscProviderError(
    'gsc_request_refused',
    `Search Console refused the request (HTTP ${status}): ${apiMessage(data, error)}`,
    false,
    status,
  )
}

function apiMessage(data: { error?: unknown } | undefined, error: Error): string {
  const inner = data?.error
  if (inner && typeof inner === 'object' && typeof (inner as { message?: unknown }).message === 'string')
    return (inner as { message: string }).message
  return error.message
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Search Analytics through the official client: `searchanalytics.query` on the property with dimensions
 * query, page and date for one day, `rowLimit` and `startRow` for paging, final data only (the API's
 * default), web search. The client's own retries are off (boundedCall retries, rate-limited); a token is
 * fetched (and refreshed) by google-auth-library at the configured token endpoint.
 */
export function googleSearchAnalytics(settings: GoogleSearchAnalyticsSettings): ConnectSearchAnalytics {
  return (secret) => {
    const auth = authClientOf(secret, settings)
    // The same client class, from the google-auth-library this package depends on; googleapis-common types it
    // from the copy it pins, which TypeScript sees as another class. It only calls the client's public methods.
    const api = searchconsoleLibrary().searchconsole({
      version: 'v1',
      auth: auth as unknown as NonNullable<searchconsole_v1.Options['auth']>,
      rootUrl: settings.baseUrl,
    })
    return {
      async dayPage(request: DayPageRequest, signal: AbortSignal) {
        try {
          const response = await api.searchanalytics.query(
            {
              siteUrl: request.property,
              requestBody: {
                startDate: request.date,
                endDate: request.date,
                dimensions: ['query', 'page', 'date'],
                type: 'web',
                dataState: 'final',
                rowLimit: request.rowLimit,
                startRow: request.startRow,
              },
            },
            { retry: false, timeout: settings.timeoutMs, signal },
          )
          return rowsOf(response.data.rows)
        } catch (error) {
          if (signal.aborted) throw error
          throw classify(error, settings.tokenUrl)
        }
      },
    }
  }
}
