/**
 * The WordPress client's rules when a site misbehaves, each against the stand-in's failure injection: the
 * address policy (base URL and every redirect hop), retries (transient only, bounded, creates only when
 * safe), the deadline (stall, trickle), the response cap, JSON required, the classification, the per-site
 * limit on requests in flight, and no secret in any message.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { wordPressClient, WordPressError } from '../../commands/publishing/wordpress/client.js'
import { EMPTY_ALLOW_LIST, parseAllowList } from '../../domain/webhooks/url-policy.js'
import {
  standInSettings as testSettings,
  startWordPressStandIn,
  wordPressFailure as failure,
  type WordPressStandInOptions,
} from '../support/stand-ins/wordpress.js'

async function standIn(tt: Test, options: WordPressStandInOptions = {}) {
  const wp = await startWordPressStandIn(options)
  tt.teardown(() => wp.close())
  return wp
}

const restRequests = (wp: { requests: { path: string }[] }) => wp.requests.filter((r) => r.path.startsWith('/wp-json'))

t.test('the base URL: http(s) only, no credentials in it, https unless the host is allowed explicitly', async (t) => {
  const settings = testSettings({ allowList: EMPTY_ALLOW_LIST })
  const cases: [string, RegExp][] = [
    ['ftp://example.com', /scheme ftp/],
    ['https://admin:secret@example.com', /user:password@/],
    ['http://example.com', /use https/],
    ['https://127.0.0.1:8443', /loopback/],
    ['https://10.1.2.3', /private/],
    ['https://[::ffff:169.254.169.254]', /linkLocal|link/],
    ['not a url', /not an absolute URL/],
  ]
  for (const [baseUrl, reason] of cases) {
    const thrown = (() => {
      try {
        wordPressClient(settings, { baseUrl, username: 'u', applicationPassword: 'p' })
        return null
      } catch (error) {
        return error
      }
    })()
    t.ok(thrown instanceof WordPressError, baseUrl)
    t.equal((thrown as WordPressError).category, 'blocked', baseUrl)
    t.match((thrown as WordPressError).message, reason, baseUrl)
    t.notMatch((thrown as WordPressError).message, /secret/, 'the password in a URL is not repeated')
  }
})

t.test('a name that resolves to a private address is refused before connecting; an allowed name may use http', async (t) => {
  const wp = await standIn(t)
  const port = new URL(wp.url).port
  const resolve = async (host: string) =>
    host === 'wp.bakery.test' ? ['127.0.0.1'] : host === 'intranet.bakery.test' ? ['10.0.0.7'] : [host]
  const refused = await failure(
    wordPressClient(testSettings({ resolve, allowList: parseAllowList('wp.bakery.test')! }), {
      ...wp.credentials,
      baseUrl: `https://intranet.bakery.test:${port}`,
    }).checkSite(),
  )
  t.equal(refused.category, 'blocked')
  t.match(refused.message, /10\.0\.0\.7/)
  t.equal(wp.requests.length, 0, 'nothing reached any server')

  const allowed = await wordPressClient(testSettings({ resolve, allowList: parseAllowList('wp.bakery.test')! }), {
    ...wp.credentials,
    baseUrl: `http://wp.bakery.test:${port}`,
  }).checkSite()
  t.equal(allowed.site_name, 'Harbor Street Bakery', 'the host named in the allow list is reached over http')
})

t.test('a redirect to a private address is blocked; a redirect to another host loses the Authorization header', async (t) => {
  const wp = await standIn(t)
  const page = wp.site.addPage({ title: 'Menu' })
  const client = wordPressClient(testSettings(), wp.credentials)
  wp.site.inject({ kind: 'redirect', location: 'http://169.254.169.254/latest/meta-data/' })
  const metadata = await failure(client.getPost('pages', page.id))
  t.equal(metadata.category, 'blocked')
  t.match(metadata.message, /169\.254\.169\.254/)
  wp.site.inject({ kind: 'redirect', location: 'http://10.0.0.1/wp-json/wp/v2/pages/1', status: 302 })
  t.equal((await failure(client.getPost('pages', page.id))).category, 'blocked')

  // Same host: followed, with the credentials.
  wp.site.inject({ kind: 'redirect', location: `${wp.url}/wp-json/wp/v2/pages/${page.id}?context=edit` })
  t.equal((await client.getPost('pages', page.id)).id, page.id)
  t.equal(wp.requests.at(-1)!.auth, 'valid')

  // Another site (another port): followed without the credentials (it answers 401 there, not our concern).
  const other = await standIn(t)
  const mirrored = other.site.addPage({ title: 'Elsewhere', status: 'publish' })
  wp.site.inject({ kind: 'redirect', location: `${other.url}/wp-json/wp/v2/pages/${mirrored.id}` })
  const elsewhere = await client.getPost('pages', page.id)
  t.equal(elsewhere.title.rendered, 'Elsewhere', 'the other site answered the public view of its page')
  t.equal(other.requests.length, 1)
  t.equal(other.requests[0]!.authorization, undefined, 'the password never goes to another host')
})

t.test('a write is not followed through a 301 (it would turn into a GET and lose its body)', async (t) => {
  const wp = await standIn(t)
  const page = wp.site.addPage({ title: 'Menu' })
  wp.site.inject({ kind: 'redirect', location: `${wp.url}/wp-json/wp/v2/pages/${page.id}` })
  const error = await failure(wordPressClient(testSettings(), wp.credentials).updatePost('pages', page.id, { title: 'New' }))
  t.equal(error.category, 'invalid_response')
  t.match(error.message, /redirected a write/)
  t.equal(wp.site.get('page', page.id)!.title, 'Menu')
})

t.test('too many redirects', async (t) => {
  const wp = await standIn(t)
  wp.site.inject({ kind: 'redirect', location: `${wp.url}/wp-json/` }, { times: 20 })
  const error = await failure(wordPressClient(testSettings({ maxAttempts: 1 }), wp.credentials).listPosts('pages'))
  t.equal(error.category, 'invalid_response')
  t.match(error.message, /redirects/)
})

t.test('5xx and network failures are retried up to maxAttempts; 4xx never', async (t) => {
  const wp = await standIn(t)
  const page = wp.site.addPage({ title: 'Menu' })
  const client = wordPressClient(testSettings({ maxAttempts: 3 }), wp.credentials)

  wp.site.failNext(2, 500)
  t.equal((await client.getPost('pages', page.id)).id, page.id, 'the third attempt succeeds')
  t.equal(restRequests(wp).length, 3)

  wp.requests.length = 0
  wp.site.failNext(5, 502)
  const gaveUp = await failure(client.getPost('pages', page.id))
  t.equal(gaveUp.category, 'server_error')
  t.equal(gaveUp.status, 502)
  t.equal(restRequests(wp).length, 3, 'no more than maxAttempts')
  wp.site.clearFaults()

  wp.requests.length = 0
  wp.site.failNext(1, 503, { retryAfter: '0', code: 'maintenance' })
  t.equal((await client.getPost('pages', page.id)).id, page.id, 'a 503 with Retry-After is retried')
  t.equal(restRequests(wp).length, 2)

  wp.requests.length = 0
  wp.site.failNext(1, 503, { retryAfter: '3600' })
  const later = await failure(client.getPost('pages', page.id))
  t.equal(later.category, 'server_error', 'a Retry-After of an hour is not waited for')
  t.equal(restRequests(wp).length, 1)

  for (const [status, category] of [
    [400, 'rejected'],
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [409, 'conflict'],
    [412, 'conflict'],
    [422, 'rejected'],
    [429, 'rejected'],
  ] as const) {
    wp.requests.length = 0
    wp.site.failNext(1, status, { code: `code_${status}` })
    const error = await failure(client.getPost('pages', page.id))
    t.equal(error.category, category, `${status} → ${category}`)
    t.equal(error.status, status)
    t.equal(error.code, `code_${status}`)
    t.equal(restRequests(wp).length, 1, `${status} is not retried`)
  }

  wp.requests.length = 0
  wp.site.inject({ kind: 'reset' }, { times: 1 })
  t.equal((await client.getPost('pages', page.id)).id, page.id, 'a reset connection is retried')
  wp.site.inject({ kind: 'reset' }, { times: 5 })
  t.equal((await failure(client.getPost('pages', page.id))).category, 'network')
})

t.test('a create is repeated only when the site surely did nothing', async (t) => {
  const wp = await standIn(t)
  const client = wordPressClient(testSettings({ maxAttempts: 3 }), wp.credentials)
  wp.site.failNext(1, 500, { path: '/wp-json/wp/v2/posts' })
  const error = await failure(client.createPost('posts', { title: 'Twice?' }))
  t.equal(error.category, 'server_error')
  t.equal(restRequests(wp).length, 1, 'a 500 after a create may have created it: not repeated')

  wp.site.failNext(1, 503, { path: '/wp-json/wp/v2/posts' })
  const created = await client.createPost('posts', { title: 'After maintenance' })
  t.equal(created.title.raw, 'After maintenance', 'a 503 (maintenance) did nothing: repeated')
  t.equal(wp.site.all('post').length, 1)
})

t.test('a refused connection is a network failure, retried then given up', async (t) => {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  const error = await failure(
    wordPressClient(testSettings(), { baseUrl: `http://127.0.0.1:${port}`, username: 'u', applicationPassword: 'p' }).checkSite(),
  )
  t.equal(error.category, 'network')
  t.equal(error.status, null)
  t.match(error.message, /ECONNREFUSED/)
})

t.test('the deadline covers headers and body: a stalled or trickling site is cut off (timeout)', async (t) => {
  const wp = await standIn(t)
  const client = wordPressClient(testSettings({ timeoutMs: 300, maxAttempts: 2 }), wp.credentials)
  wp.site.inject({ kind: 'stall' }, { times: 2 })
  const stalled = await failure(client.listPosts('pages'))
  t.equal(stalled.category, 'timeout')
  t.equal(stalled.status, null)
  t.equal(restRequests(wp).length, 2, 'a timeout is retried (a read is safe to repeat)')

  wp.requests.length = 0
  wp.site.inject({ kind: 'trickle', everyMs: 20 }, { times: 2 })
  const trickled = await failure(client.listPosts('pages'))
  t.equal(trickled.category, 'timeout')
  t.match(trickled.message, /300 ms/)

  wp.site.clearFaults()
  wp.requests.length = 0
  wp.site.inject({ kind: 'stall' }, { times: 1 })
  const notRepeated = await failure(client.createPost('pages', { title: 'Slow' }))
  t.equal(notRepeated.category, 'timeout')
  t.equal(restRequests(wp).length, 1, 'a create that timed out may have happened: not repeated')
})

t.test('an answer over maxResponseBytes is refused without reading it all', async (t) => {
  const wp = await standIn(t)
  const client = wordPressClient(testSettings({ maxResponseBytes: 256 * 1024, maxAttempts: 1 }), wp.credentials)
  const thirtyMb = 30 * 1024 * 1024
  wp.site.inject({ kind: 'huge', bytes: thirtyMb })
  const streamed = await failure(client.listPosts('pages'))
  t.equal(streamed.category, 'invalid_response')
  t.match(streamed.message, /too large/)
  t.ok(wp.site.hugeBytesSent < thirtyMb / 2, `the socket was closed early (${wp.site.hugeBytesSent} bytes went out)`)

  wp.site.inject({ kind: 'huge', bytes: thirtyMb, contentLength: true })
  const declared = await failure(client.listPosts('pages'))
  t.equal(declared.category, 'invalid_response')
  t.match(declared.message, /too large/)
})

t.test('JSON is required: an HTML page, a non-JSON body or the wrong shape is invalid_response', async (t) => {
  const wp = await standIn(t)
  const page = wp.site.addPage({ title: 'Menu' })
  const client = wordPressClient(testSettings(), wp.credentials)
  wp.site.inject({ kind: 'html' })
  const html = await failure(client.getPost('pages', page.id))
  t.equal(html.category, 'invalid_response')
  t.match(html.message, /HTML page/)
  t.equal(restRequests(wp).length, 1, 'not retried')

  wp.site.inject({ kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '<br />\n<b>Notice</b>: {"id":1}' })
  const notJson = await failure(client.getPost('pages', page.id))
  t.equal(notJson.category, 'invalid_response')
  t.match(notJson.message, /not valid JSON/)

  wp.site.inject({ kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"seven"}' })
  const shape = await failure(client.getPost('pages', page.id))
  t.equal(shape.category, 'invalid_response')
  t.match(shape.message, /not what the REST API sends/)

  // A byte-order mark and blank lines before the JSON (a plugin file saved with a BOM) are forgiven.
  const json = JSON.stringify({ ...(await client.getPost('pages', page.id)) })
  wp.site.inject({ kind: 'raw', status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: `\uFEFF\n\n${json}` })
  t.equal((await client.getPost('pages', page.id)).id, page.id)

  wp.site.inject({ kind: 'html', status: 500 })
  const htmlError = await failure(wordPressClient(testSettings({ maxAttempts: 1 }), wp.credentials).getPost('pages', page.id))
  t.equal(htmlError.category, 'server_error')
  t.match(htmlError.message, /HTML page/)
})

t.test('a REST index without wp/v2 is not WordPress', async (t) => {
  const wp = await standIn(t)
  wp.site.inject({
    kind: 'raw',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x', url: wp.url, home: wp.url, namespaces: ['oembed/1.0'] }),
  })
  const error = await failure(wordPressClient(testSettings(), wp.credentials).checkSite())
  t.equal(error.category, 'invalid_response')
  t.match(error.message, /without wp\/v2/)
})

t.test('no secret in any message, even when the site echoes it back', async (t) => {
  const wp = await standIn(t)
  const client = wordPressClient(testSettings(), wp.credentials)
  const token = Buffer.from(`editor:${wp.applicationPassword.replace(/ /g, '')}`).toString('base64')
  wp.site.inject({
    kind: 'raw',
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code: 'echo',
      message: `You sent Basic ${token} with ${wp.applicationPassword} aka ${wp.applicationPassword.replace(/ /g, '')}`,
      data: { status: 400 },
    }),
  })
  const error = await failure(client.listPosts('pages'))
  t.notMatch(error.message, token)
  t.notMatch(error.message, wp.applicationPassword)
  t.notMatch(error.message, wp.applicationPassword.replace(/ /g, ''))
  t.match(error.message, /\[redacted\]/)
  t.notMatch(JSON.stringify(error), token, 'nor in any property')
})

t.test('at most two requests in flight to one site, across clients', async (t) => {
  const wp = await standIn(t)
  const page = wp.site.addPage({ title: 'Menu' })
  wp.site.inject({ kind: 'delay', ms: 60 }, { times: 6 })
  const clients = [wordPressClient(testSettings(), wp.credentials), wordPressClient(testSettings(), wp.credentials)]
  const reads = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => clients[i % 2]!.getPost('pages', page.id)))
  t.equal(reads.length, 6)
  t.equal(wp.site.peakConcurrency, 2)
})

t.test("the caller's abort stops a request (its reason, not a WordPress failure)", async (t) => {
  const wp = await standIn(t)
  wp.site.inject({ kind: 'stall' })
  const controller = new AbortController()
  const client = wordPressClient(testSettings({ timeoutMs: 10_000 }), wp.credentials, controller.signal)
  const pending = client.listPosts('pages').catch((error: unknown) => error)
  setTimeout(() => controller.abort(new Error('the job was cancelled')), 50)
  const error = await pending
  t.notOk(error instanceof WordPressError)
  t.match((error as Error).message, /cancelled/)
})
