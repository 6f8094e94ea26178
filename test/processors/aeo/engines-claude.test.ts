import t, { type Test } from 'tap'
import { EngineError } from '../../../processors/aeo/engines/adapter.js'
import { createClaudeAdapter } from '../../../processors/aeo/engines/claude.js'
import { DEFAULT_MODELS } from '../../../processors/aeo/settings.js'
import { fixture, startProviderServer, type RecordedRequest } from './provider-server.js'

const PROMPT = 'best emergency plumber in Austin, TX'
const messages = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/messages'

async function setup(t: Test) {
  const server = await startProviderServer(t)
  const adapter = createClaudeAdapter({ apiKey: 'sk-ant-test-key', baseUrl: server.origin, model: DEFAULT_MODELS.claude })
  return { server, adapter }
}

async function rejection(t: Test, promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof EngineError, 'fails with an EngineError')
  return error as EngineError
}

t.test('a grounded answer: the request, citations kept apart from retrieved sources, the model that answered', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(messages, { body: fixture('claude-grounded.json'), headers: { 'request-id': 'req_011CUJ5' } })

  const answer = await adapter.ask(PROMPT, { geoState: 'TX' })

  t.equal(server.requests.length, 1, 'one request (no SDK retries)')
  const request = server.requests[0]!
  // This SDK version sends the key as a bearer token (older ones as x-api-key).
  t.ok(
    request.headers['x-api-key'] === 'sk-ant-test-key' || request.headers.authorization === 'Bearer sk-ant-test-key',
    'sends the API key',
  )
  t.ok(request.headers['anthropic-version'], 'sends the API version')
  t.equal(request.body.model, DEFAULT_MODELS.claude, 'the configured model')
  t.same(request.body.messages, [{ role: 'user', content: PROMPT }], 'the prompt, as the user turn')
  t.same(
    request.body.tools,
    [
      {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 5,
        user_location: { type: 'approximate', region: 'Texas', country: 'US' },
      },
    ],
    'the web_search server tool, located in the run geo',
  )
  t.ok(request.body.max_tokens > 0)

  t.equal(
    answer.answer_text,
    'Here are some of the best-reviewed emergency plumbers in Austin, TX:\n\n**1. Radiant Plumbing & Air Conditioning** – ' +
      'Radiant offers 24/7 emergency plumbing service across Austin with no extra charge for nights and weekends.\n\n' +
      '**2. Abacus Plumbing** – Abacus serves Austin with round-the-clock plumbers and upfront pricing.\n\n' +
      '**3. Reliant Plumbing** – a local favorite, frequently recommended on Yelp for fast response times.\n\n' +
      'For a burst pipe or a sewage backup, call whichever can arrive first and ask for the price before work starts.',
    'the answer is the text after the search, its fragments joined; the narration before it is left out',
  )
  t.same(
    answer.citations,
    [
      {
        url: 'https://radiantplumbing.com/emergency-plumber-austin/',
        title: '24/7 Emergency Plumber Austin | Radiant Plumbing & Air Conditioning',
      },
      { url: 'https://www.abacusplumbing.net/austin/', title: 'Austin Plumber | Abacus Plumbing, Air Conditioning & Electrical' },
    ],
    'cited: web_search_result_location citations, one per URL, in order',
  )
  t.same(
    answer.retrieved,
    [
      {
        url: 'https://www.yelp.com/search?find_desc=Emergency+Plumbers&find_loc=Austin%2C+TX',
        title: 'THE BEST 10 Emergency Plumbers in AUSTIN, TX - Updated 2026 - Yelp',
      },
      {
        url: 'https://www.reddit.com/r/Austin/comments/1b2x9zq/recommendations_for_a_plumber/',
        title: 'Recommendations for a plumber? : r/Austin',
      },
    ],
    'retrieved: search results that were not cited',
  )
  t.equal(answer.model, 'claude-sonnet-4-5-20250929', 'the model from the response')
  t.equal(answer.searched, true)
  t.same(answer.record, fixture('claude-grounded.json'), 'the record is the provider response')
})

t.test('an answer without a search: no sources, searched false, no user location without a geo', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(messages, { body: fixture('claude-no-search.json') })
  const answer = await adapter.ask(PROMPT)
  t.same(server.requests[0]!.body.tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }])
  t.match(answer.answer_text, /^When choosing an emergency plumber in Austin/)
  t.same(answer.citations, [])
  t.same(answer.retrieved, [])
  t.equal(answer.searched, false)
  t.equal(answer.model, 'claude-sonnet-4-5-20250929')
})

t.test('a paused turn is continued with the assistant content, and the answers form one', async (t) => {
  const { server, adapter } = await setup(t)
  const grounded = fixture('claude-grounded.json')
  const paused = { ...grounded, content: grounded.content.slice(0, 3), stop_reason: 'pause_turn' }
  const rest = { ...grounded, id: 'msg_01Second', content: grounded.content.slice(3) }
  server.enqueue(messages, { body: paused }, { body: rest })
  const answer = await adapter.ask(PROMPT)
  t.equal(server.requests.length, 2)
  const second = server.requests[1]!.body
  t.equal(second.messages.length, 2)
  t.same(second.messages[0], { role: 'user', content: PROMPT })
  t.equal(second.messages[1].role, 'assistant')
  t.same(
    second.messages[1].content.map((b: { type: string }) => b.type),
    ['text', 'server_tool_use', 'web_search_tool_result'],
  )
  t.equal(answer.citations.length, 2)
  t.equal(answer.retrieved.length, 2)
  t.equal(answer.searched, true)
  t.match(answer.answer_text, /^Here are some of the best-reviewed/)
  t.ok(Array.isArray(answer.record) && (answer.record as unknown[]).length === 2, 'both responses recorded')
})

t.test('a turn still paused after the continuations is a cut-off answer', async (t) => {
  const { server, adapter } = await setup(t)
  const grounded = fixture('claude-grounded.json')
  server.route((r) => (messages(r) ? { body: { ...grounded, stop_reason: 'pause_turn' } } : undefined))
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.reason, "Claude's answer was cut off (stop_reason pause_turn)")
  t.equal(server.requests.length, 4, 'the first turn and three continuations')
})

t.test('a 429 is a retryable EngineError with the provider reason and its retry-after', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(messages, { status: 429, headers: { 'retry-after': '17' }, body: fixture('claude-429.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 429)
  t.equal(error.retryable, true)
  t.equal(error.retryAfterMs, 17_000)
  t.match(error.reason, /^Anthropic 429: This request would exceed the rate limit for your organization/)
  t.equal(server.requests.length, 1, 'the SDK did not retry on its own')
})

t.test('a 500 is retryable with the provider message; a 401 is not', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(messages, { status: 500, body: fixture('claude-500.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 500)
  t.equal(error.retryable, true)
  t.equal(error.reason, 'Anthropic 500: Internal server error')
  t.equal(error.retryAfterMs, undefined)

  server.enqueue(messages, { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } })
  const denied = await rejection(t, adapter.ask(PROMPT))
  t.equal(denied.status, 401)
  t.equal(denied.retryable, false)
  t.equal(denied.reason, 'Anthropic 401: invalid x-api-key')
})

t.test('a malformed body fails, never an empty answer', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(messages, { body: '{"id": "msg_01", "type": "message", "content": [' })
  const broken = await rejection(t, adapter.ask(PROMPT))
  t.match(broken.reason, /^malformed Anthropic response/)
  t.equal(broken.retryable, true)

  server.enqueue(messages, { body: { id: 'msg_01', type: 'message', role: 'assistant' } })
  const shapeless = await rejection(t, adapter.ask(PROMPT))
  t.match(shapeless.reason, /^malformed Anthropic response: the response is not a Messages API message/)

  server.enqueue(messages, { body: { ...fixture('claude-no-search.json'), content: [] } })
  const empty = await rejection(t, adapter.ask(PROMPT))
  t.equal(empty.reason, 'Claude returned no answer text (stop_reason end_turn)')

  server.enqueue(messages, { body: { ...fixture('claude-no-search.json'), stop_reason: 'max_tokens' } })
  const cut = await rejection(t, adapter.ask(PROMPT))
  t.equal(cut.reason, "Claude's answer was cut off (stop_reason max_tokens)")
  t.equal(cut.retryable, true)

  server.enqueue(messages, { body: { ...fixture('claude-no-search.json'), content: [], stop_reason: 'refusal' } })
  const refused = await rejection(t, adapter.ask(PROMPT))
  t.equal(refused.reason, 'Claude refused to answer (stop_reason refusal)')
  t.equal(refused.retryable, false)
})

t.test('a connection failure is a retryable EngineError', async (t) => {
  const { server, adapter } = await setup(t)
  await server.close()
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, undefined)
  t.equal(error.retryable, true)
  t.match(error.reason, /^Anthropic: /)
})
