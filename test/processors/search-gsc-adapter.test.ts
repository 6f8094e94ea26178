/**
 * The Search Analytics adapter (@googleapis/searchconsole with google-auth-library) against the local
 * stand-in: a service account's signed assertion exchanged at GSC_TOKEN_URL (the assertion still names
 * Google's token endpoint as its audience), an OAuth grant's refresh token, the request the API receives, the
 * rows it answers normalized, and every failure classified as a capture records it: refusals (401, 403,
 * invalid_grant, invalid_client) not retryable, outages (5xx, 429, timeouts) retryable. boundedCall retries
 * only what may mend, up to its limit.
 */
import t, { type Test } from 'tap'
import { GOOGLE_TOKEN_URL } from '../../processors/search/settings.js'
import { boundedCall, RateLimiter } from '../../processors/search/gsc/bounded-call.js'
import { googleSearchAnalytics } from '../../processors/search/gsc/google-search-analytics.js'
import { GscProviderError } from '../../processors/search/gsc/search-analytics.js'
import { API_ERRORS, GOOGLE_TOKEN_AUDIENCE, startSearchConsoleStandIn } from '../support/stand-ins/search-console.js'
import { secretOf } from '../../domain/search/gsc/credentials.js'

const SITE = 'https://www.rapidrooterplumbing.example/'
const page = { property: SITE, date: '2026-11-20', startRow: 0, rowLimit: 25_000 }
const signal = new AbortController().signal

async function setup(t: Test, timeoutMs = 5_000) {
  const standIn = await startSearchConsoleStandIn(t)
  const connect = googleSearchAnalytics({ baseUrl: standIn.baseUrl, tokenUrl: standIn.tokenUrl, timeoutMs })
  const account = standIn.createServiceAccount('rankrelay-gsc')
  standIn.addUser(SITE, account.client_email)
  standIn.seedRows(SITE, [
    { date: '2026-11-20', query: 'drain cleaning austin', page: `${SITE}drain-cleaning/`, clicks: 12, impressions: 300, position: 3.4 },
    { date: '2026-11-20', query: 'drain cleaning austin', page: SITE, clicks: 2, impressions: 100, position: 9.1, device: 'MOBILE' },
    { date: '2026-11-20', query: 'drain cleaning austin', page: SITE, clicks: 1, impressions: 100, position: 7.1 },
    { date: '2026-11-20', query: 'plumber\u0000 near me', page: SITE, clicks: 0, impressions: 40, position: 22 },
    { date: '2026-11-21', query: 'another day', page: SITE, clicks: 50, impressions: 60, position: 1 },
  ])
  return { standIn, connect, account }
}

async function failure(promise: Promise<unknown>): Promise<GscProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof GscProviderError)) throw new Error(`expected a GscProviderError, got ${String(error)}`)
  return error
}

t.test('a service account: a signed assertion at GSC_TOKEN_URL, then the day’s rows', async (t) => {
  const { standIn, connect, account } = await setup(t)
  const source = connect(secretOf(account))
  const rows = await source.dayPage(page, signal)
  t.same(
    rows,
    [
      { query: 'drain cleaning austin', page: `${SITE}drain-cleaning/`, clicks: 12, impressions: 300, ctr: 0.04, position: 3.4 },
      { query: 'drain cleaning austin', page: SITE, clicks: 3, impressions: 200, ctr: 0.015, position: 8.1 },
      { query: 'plumber near me', page: SITE, clicks: 0, impressions: 40, ctr: 0, position: 22 },
    ],
    'query × page of the day, devices summed, a NUL the log cannot hold removed',
  )
  const [token] = standIn.tokenCalls()
  t.equal(token!.body.grant_type, 'urn:ietf:params:oauth:grant-type:jwt-bearer')
  const claims = JSON.parse(Buffer.from(token!.body.assertion.split('.')[1], 'base64url').toString('utf8'))
  t.match(claims, { iss: account.client_email, aud: GOOGLE_TOKEN_AUDIENCE, scope: 'https://www.googleapis.com/auth/webmasters.readonly' })
  t.equal(GOOGLE_TOKEN_AUDIENCE, GOOGLE_TOKEN_URL, "the audience is Google's token endpoint though the request went to the stand-in")
  const [call] = standIn.apiCalls()
  t.match(call, {
    path: `/webmasters/v3/sites/${encodeURIComponent(SITE)}/searchAnalytics/query`,
    headers: { authorization: /^Bearer ya29\./ },
    body: {
      startDate: '2026-11-20',
      endDate: '2026-11-20',
      dimensions: ['query', 'page', 'date'],
      rowLimit: 25000,
      startRow: 0,
      type: 'web',
      dataState: 'final',
    },
  })
  await source.dayPage({ ...page, startRow: 1, rowLimit: 1 }, signal)
  t.equal(standIn.tokenCalls().length, 1, 'the token is reused while it is valid')
  t.same((await source.dayPage({ ...page, startRow: 3 }, signal)).length, 0, 'past the last row: none (the API leaves rows out)')
})

t.test('an OAuth grant: the refresh-token grant at GSC_TOKEN_URL', async (t) => {
  const { standIn, connect } = await setup(t)
  const grant = standIn.createOAuthGrant('owner@agency.example')
  standIn.addUser(SITE, 'owner@agency.example')
  const rows = await connect(secretOf(grant)).dayPage(page, signal)
  t.equal(rows.length, 3)
  t.match(standIn.tokenCalls()[0]!.body, {
    grant_type: 'refresh_token',
    client_id: grant.client_id,
    client_secret: grant.client_secret,
    refresh_token: grant.refresh_token,
  })
})

t.test(
  'refusals are not retryable: a deleted key, a revoked grant, a wrong secret, a 401, a property the account may not read',
  async (t) => {
    const { standIn, connect, account } = await setup(t)
    standIn.deleteServiceAccountKey(account.client_email)
    let error = await failure(connect(secretOf(account)).dayPage(page, signal))
    t.match(error, { code: 'gsc_unauthorized', retryable: false, status: 400, message: /invalid_grant: Invalid JWT Signature/ })

    const grant = standIn.createOAuthGrant('owner@agency.example')
    standIn.revokeOAuthGrant(grant.refresh_token)
    error = await failure(connect(secretOf(grant)).dayPage(page, signal))
    t.match(error, { code: 'gsc_unauthorized', retryable: false, message: /Token has been expired or revoked/ })
    error = await failure(
      connect(secretOf({ ...standIn.createOAuthGrant('x@agency.example'), client_secret: 'wrong' })).dayPage(page, signal),
    )
    t.match(error, { code: 'gsc_unauthorized', retryable: false, status: 401, message: /invalid_client/ })

    const other = standIn.createServiceAccount('not-a-user')
    error = await failure(connect(secretOf(other)).dayPage(page, signal))
    t.match(error, {
      code: 'gsc_forbidden',
      retryable: false,
      status: 403,
      message: `User does not have sufficient permission for site '${SITE}'. See also: https://support.google.com/webmasters/answer/2451999.`,
    })

    const fresh = standIn.createServiceAccount('fresh')
    standIn.addUser(SITE, fresh.client_email)
    standIn.failApi(1, API_ERRORS.unauthenticated)
    error = await failure(connect(secretOf(fresh)).dayPage(page, signal))
    t.match(error, { code: 'gsc_unauthorized', retryable: false, status: 401 })
    standIn.failApi(1, { status: 400, body: { error: { code: 400, message: 'Invalid siteUrl', status: 'INVALID_ARGUMENT' } } })
    error = await failure(connect(secretOf(fresh)).dayPage(page, signal))
    t.match(error, { code: 'gsc_request_refused', retryable: false, status: 400 })
  },
)

t.test('outages are retryable: 5xx, 429 (with Retry-After), a token endpoint down, a timeout', async (t) => {
  const { standIn, connect, account } = await setup(t, 300)
  const source = connect(secretOf(account))
  standIn.failApi(1, API_ERRORS.backend)
  t.match(await failure(source.dayPage(page, signal)), { code: 'gsc_unavailable', retryable: true, status: 500 })
  standIn.failApi(1, { ...API_ERRORS.quota, headers: { 'retry-after': '7' } })
  t.match(await failure(source.dayPage(page, signal)), { code: 'gsc_rate_limited', retryable: true, status: 429, retryAfterMs: 7000 })
  const held = standIn.holdApi()
  t.match(
    await failure(source.dayPage(page, signal)),
    { code: 'gsc_unavailable', retryable: true, status: undefined },
    'no answer within the timeout',
  )
  held.release()
  t.equal((await source.dayPage(page, signal)).length, 3, 'answers again')

  const other = standIn.createServiceAccount('second')
  standIn.addUser(SITE, other.client_email)
  standIn.failToken(10, API_ERRORS.unavailable)
  t.match(await failure(connect(secretOf(other)).dayPage(page, signal)), { code: 'gsc_unavailable', retryable: true, status: 503 })
})

t.test('boundedCall: retries what may mend up to its limit, a refusal never', async (t) => {
  const { standIn, connect, account } = await setup(t)
  const source = connect(secretOf(account))
  const limiter = new RateLimiter(1000)
  const retries: number[] = []
  const policy = {
    maxAttempts: 3,
    backoffBaseMs: 1,
    limiter,
    signal,
    onRetry: (_e: GscProviderError, attempt: number) => retries.push(attempt),
  }
  standIn.failApi(2, API_ERRORS.backend)
  const before = standIn.apiCalls().length
  t.equal((await boundedCall(() => source.dayPage(page, signal), policy)).length, 3, 'the third try answers')
  t.equal(standIn.apiCalls().length - before, 3)
  t.same(retries, [1, 2])
  standIn.failApi(3, API_ERRORS.unavailable)
  t.match(
    await failure(boundedCall(() => source.dayPage(page, signal), policy)),
    { code: 'gsc_unavailable' },
    'the last error, after three tries',
  )
  const other = standIn.createServiceAccount('outsider')
  const calls = standIn.apiCalls().length
  t.match(await failure(boundedCall(() => connect(secretOf(other)).dayPage(page, signal), policy)), { code: 'gsc_forbidden' })
  t.equal(standIn.apiCalls().length - calls, 1, 'a 403 is asked once')
  standIn.failApi(1, { ...API_ERRORS.quota, headers: { 'retry-after': '3600' } })
  t.match(
    await failure(boundedCall(() => source.dayPage(page, signal), policy)),
    { code: 'gsc_rate_limited' },
    'a Retry-After beyond a minute fails the attempt instead of holding it',
  )
})

t.test('the rate limiter spaces calls and stops waiting when aborted', async (t) => {
  let now = 1_000
  const limiter = new RateLimiter(2, () => now)
  const controller = new AbortController()
  await limiter.take(controller.signal)
  const second = limiter.take(controller.signal)
  controller.abort()
  await second
  now += 10_000
  await limiter.take(new AbortController().signal)
  t.pass('a slot is free again once its time has passed')
})
