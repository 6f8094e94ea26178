import t, { type Test } from 'tap'
import { analyze } from '../../../domain/aeo/analysis/analyze.js'
import { EngineError } from '../../../processors/aeo/engines/adapter.js'
import { createGeminiAdapter } from '../../../processors/aeo/engines/gemini.js'
import { DEFAULT_MODELS } from '../../../processors/aeo/settings.js'
import { acme, bestOf } from '../../domain/aeo-analysis-fixtures.js'
import { fixture, fixtureText, startProviderServer, type ProviderServer, type RecordedRequest } from './provider-server.js'

const PROMPT = 'best emergency plumber in Austin, TX'
const GOOGLE_REDIRECTS = 'https://vertexaisearch.cloud.google.com'
const generate = (r: RecordedRequest) => r.method === 'POST' && r.url === `/v1beta/models/${DEFAULT_MODELS.gemini}:generateContent`

/** Where each grounding redirect of the recorded response leads (the last one has expired: 404). */
const PAGES: Record<string, string> = {
  AUZIYQHk3b9Xq2vR7mT1pL8wN4cJ6dF0sA5eG3hK9uY2iO7zB1xC4vM8nQ6rT0wE: 'https://radiantplumbing.com/emergency-plumber-austin/',
  AUZIYQGp7sK2dL9fH4jX1cV6bN3mQ8wE5rT0yU7iO2aS9dF4gH1jK6lZ3xC8vB5n: 'https://www.abacusplumbing.net/austin/',
  AUZIYQFt2wE8rT5yU1iO6pA3sD9fG4hJ7kL0zX2cV5bN8mQ1wE4rT7yU0iO3pA6s: 'https://www.sdplumbing.com/',
  AUZIYQEy9uI3oP6aS2dF8gH5jK1lZ4xC7vB0nM3qW6eR9tY2uI5oP8aS1dF4gH7j:
    'https://www.yelp.com/search?find_desc=Emergency+Plumbers&find_loc=Austin%2C+TX',
}

async function setup(
  t: Test,
  resolveRedirects = true,
): Promise<{ server: ProviderServer; adapter: ReturnType<typeof createGeminiAdapter>; grounded: string }> {
  const server = await startProviderServer(t)
  // The recorded redirects point at Google; here they point at the local server, which answers like Google's.
  server.route((r) => {
    const match = /^\/grounding-api-redirect\/(\w+)$/.exec(r.url)
    if (!match) return undefined
    const page = PAGES[match[1]!]
    return page ? { status: 302, headers: { location: page } } : { status: 404, body: '' }
  })
  const adapter = createGeminiAdapter(
    { apiKey: 'AIza-test-key', baseUrl: server.origin, model: DEFAULT_MODELS.gemini },
    { redirectPrefixes: resolveRedirects ? [`${server.origin}/grounding-api-redirect/`] : [] },
  )
  const grounded = fixtureText('gemini-grounded.json').replaceAll(GOOGLE_REDIRECTS, server.origin)
  return { server, adapter, grounded }
}

async function rejection(t: Test, promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof EngineError, 'fails with an EngineError')
  return error as EngineError
}

t.test('a grounded answer: the request, supported chunks cited, the others retrieved, redirects resolved', async (t) => {
  const { server, adapter, grounded } = await setup(t)
  server.enqueue(generate, { body: grounded })

  const answer = await adapter.ask(PROMPT, { geoState: 'TX' })

  const calls = server.requests.filter(generate)
  t.equal(calls.length, 1, 'one generateContent request (no SDK retries)')
  const request = calls[0]!
  t.equal(request.headers['x-goog-api-key'], 'AIza-test-key')
  t.same(request.body.contents, [{ role: 'user', parts: [{ text: PROMPT }] }], 'the prompt as the user turn')
  t.same(request.body.tools, [{ googleSearch: {} }], 'grounding with Google Search')
  t.same(
    request.body.systemInstruction,
    { role: 'user', parts: [{ text: 'The user is located in Texas, US.' }] },
    'the run geo as a system instruction',
  )

  t.match(answer.answer_text, /^For an emergency plumber in Austin, TX, these companies are consistently well reviewed:/)
  t.same(
    answer.citations,
    [
      { url: 'https://radiantplumbing.com/emergency-plumber-austin/', title: 'radiantplumbing.com' },
      { url: 'https://www.yelp.com/search?find_desc=Emergency+Plumbers&find_loc=Austin%2C+TX', title: 'yelp.com' },
      { url: 'https://www.abacusplumbing.net/austin/', title: 'abacusplumbing.net' },
      { url: 'https://www.sdplumbing.com/', title: 'sdplumbing.com' },
    ].sort(byChunkOrder),
    'cited: the chunks groundingSupports point at, resolved to the real pages',
  )
  t.same(
    answer.retrieved,
    [{ url: 'https://tsbpe.texas.gov/', title: 'tsbpe.texas.gov' }],
    'retrieved: chunks no support points at; a redirect that no longer resolves becomes the site its title names',
  )
  t.equal(answer.model, 'gemini-2.5-flash', 'modelVersion from the response')
  t.equal(answer.searched, true)
  const record = answer.record as Record<string, any>
  t.equal(record.responseId, 'mHghabCjL8aLkdUPy4zQiQk')
  t.same(record.candidates[0].groundingMetadata.webSearchQueries, ['best emergency plumber Austin TX', 'emergency plumber Austin reviews'])
  t.notOk('sdkHttpResponse' in record, 'the SDK copy of the HTTP headers is not recorded')
  const heads = server.requests.filter((r) => r.method === 'HEAD')
  t.equal(heads.length, 5, 'each redirect resolved with one HEAD, not followed')
})

/** The recorded response lists chunks 0 (radiant), 1 (abacus), 2 (s&d), 3 (yelp): citations come in chunk order. */
function byChunkOrder(a: { title: string }, b: { title: string }): number {
  const order = ['radiantplumbing.com', 'abacusplumbing.net', 'sdplumbing.com', 'yelp.com']
  return order.indexOf(a.title) - order.indexOf(b.title)
}

t.test('a cited redirect that cannot be resolved names the site in its title, so the source table does too', async (t) => {
  const { server, adapter, grounded } = await setup(t)
  server.enqueue(generate, { body: grounded })
  // Radiant's redirect fails once (Google answers 500); the others resolve.
  server.enqueue((r) => r.method === 'HEAD' && r.url.endsWith('/AUZIYQHk3b9Xq2vR7mT1pL8wN4cJ6dF0sA5eG3hK9uY2iO7zB1xC4vM8nQ6rT0wE'), {
    status: 500,
    body: '',
  })
  const answer = await adapter.ask(PROMPT)
  t.same(answer.citations[0], { url: 'https://radiantplumbing.com/', title: 'radiantplumbing.com' }, "the chunk's title, not the redirect")
  const report = analyze({
    answerText: answer.answer_text,
    citations: answer.citations,
    retrieved: answer.retrieved,
    client: acme,
    question: bestOf,
  })
  t.same(
    report.source_table.map((s) => [s.domain, s.class]).sort(),
    [
      ['abacusplumbing.net', 'competitor'],
      ['radiantplumbing.com', 'competitor'],
      ['sdplumbing.com', 'competitor'],
      ['yelp.com', 'directory'],
    ],
    'the real sites, each competitor linked to its business; no redirect host',
  )
})

t.test('without redirect resolution the grounding URIs are kept as given', async (t) => {
  const { server, adapter, grounded } = await setup(t, false)
  server.enqueue(generate, { body: grounded })
  const answer = await adapter.ask(PROMPT)
  t.equal(server.requests.filter((r) => r.method === 'HEAD').length, 0)
  t.equal(answer.citations.length, 4)
  t.ok(answer.citations.every((c) => c.url.startsWith(`${server.origin}/grounding-api-redirect/`)))
  t.equal(server.requests[0]!.body.systemInstruction, undefined, 'no geo, no system instruction')
})

t.test('an answer without grounding: no sources, searched false, thoughts left out', async (t) => {
  const { server, adapter } = await setup(t)
  const body = fixture('gemini-no-search.json')
  body.candidates[0].content.parts.unshift({ text: 'The user wants a plumber; no search needed.', thought: true })
  server.enqueue(generate, { body })
  const answer = await adapter.ask(PROMPT)
  t.equal(
    answer.answer_text,
    'Choose a licensed plumber who offers true 24/7 dispatch and clear upfront pricing, and read recent reviews before calling.',
  )
  t.same(answer.citations, [])
  t.same(answer.retrieved, [])
  t.equal(answer.searched, false)
  t.equal(answer.model, 'gemini-2.5-flash-preview-09-2025')
})

t.test('a 429 is a retryable EngineError with the provider reason and its RetryInfo delay', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(generate, { status: 429, body: fixture('gemini-429.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 429)
  t.equal(error.retryable, true)
  t.equal(error.retryAfterMs, 37_000)
  t.match(
    error.reason,
    /^Gemini 429: You exceeded your current quota, please check your plan and billing details\..* \(RESOURCE_EXHAUSTED\)$/,
  )
  t.equal(server.requests.length, 1, 'the SDK did not retry on its own')
})

t.test('a 500 is retryable with the provider message; a 400 is not', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(generate, { status: 500, body: fixture('gemini-500.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 500)
  t.equal(error.retryable, true)
  t.match(error.reason, /^Gemini 500: An internal error has occurred\. .* \(INTERNAL\)$/)

  server.enqueue(generate, {
    status: 400,
    body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } },
  })
  const invalid = await rejection(t, adapter.ask(PROMPT))
  t.equal(invalid.retryable, false)
  t.equal(invalid.reason, 'Gemini 400: API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)')
})

t.test('blocked, empty and malformed responses fail, never an empty answer', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(generate, { body: '{"candidates": [{"content": ' })
  const broken = await rejection(t, adapter.ask(PROMPT))
  t.match(broken.reason, /^malformed Gemini response/)
  t.equal(broken.retryable, true)

  server.enqueue(generate, { body: { promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'gemini-2.5-flash' } })
  const blocked = await rejection(t, adapter.ask(PROMPT))
  t.equal(blocked.reason, 'Gemini blocked the prompt: SAFETY')
  t.equal(blocked.retryable, false)

  server.enqueue(generate, {
    body: { candidates: [{ finishReason: 'MAX_TOKENS', content: { role: 'model', parts: [] } }], modelVersion: 'gemini-2.5-flash' },
  })
  const empty = await rejection(t, adapter.ask(PROMPT))
  t.equal(empty.reason, 'Gemini returned no answer text (finishReason MAX_TOKENS)')

  const cutOff = fixture('gemini-no-search.json')
  cutOff.candidates[0].finishReason = 'MAX_TOKENS'
  server.enqueue(generate, { body: cutOff })
  const cut = await rejection(t, adapter.ask(PROMPT))
  t.equal(cut.reason, "Gemini's answer was cut off (finishReason MAX_TOKENS)")
  t.equal(cut.retryable, true)

  server.enqueue(generate, { body: { usageMetadata: {} } })
  const shapeless = await rejection(t, adapter.ask(PROMPT))
  t.equal(shapeless.reason, 'malformed Gemini response: no candidates')
})

t.test('a connection failure is a retryable EngineError', async (t) => {
  const { server, adapter } = await setup(t)
  await server.close()
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.retryable, true)
  t.equal(error.status, undefined)
})
