import t, { type Test } from 'tap'
import { EngineError } from '../../../processors/aeo/engines/adapter.js'
import { createOpenAiAdapter } from '../../../processors/aeo/engines/openai.js'
import { DEFAULT_MODELS } from '../../../processors/aeo/settings.js'
import { fixture, startProviderServer, type RecordedRequest } from './provider-server.js'

const PROMPT = 'best emergency plumber in Austin, TX'
const responses = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/responses'

async function setup(t: Test) {
  const server = await startProviderServer(t)
  // OPENAI_BASE_URL carries the API version path, as the SDK's default (https://api.openai.com/v1) does.
  const adapter = createOpenAiAdapter({ apiKey: 'sk-proj-test-key', baseUrl: `${server.origin}/v1`, model: DEFAULT_MODELS.openai })
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

t.test('a grounded answer: the request, url_citation annotations cited, web_search_call sources retrieved', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(responses, { body: fixture('openai-grounded.json'), headers: { 'x-request-id': 'req_5b1c' } })

  const answer = await adapter.ask(PROMPT, { geoState: 'texas' })

  t.equal(server.requests.length, 1, 'one request (no SDK retries)')
  const request = server.requests[0]!
  t.equal(request.headers.authorization, 'Bearer sk-proj-test-key')
  t.equal(request.body.model, DEFAULT_MODELS.openai, 'the configured model')
  t.equal(request.body.input, PROMPT, 'the prompt as the input')
  t.same(
    request.body.tools,
    [{ type: 'web_search', user_location: { type: 'approximate', region: 'Texas', country: 'US' } }],
    'the web_search tool, located in the run geo',
  )
  t.same(request.body.include, ['web_search_call.action.sources'], 'asks for the sources it searched')

  t.match(answer.answer_text, /^Here are three well-reviewed options for an emergency plumber in Austin, TX:\n\n1\. \*\*Radiant Plumbing/)
  t.match(answer.answer_text, /shut off your main valve first, then call\.$/)
  t.same(
    answer.citations,
    [
      {
        url: 'https://radiantplumbing.com/emergency-plumber-austin/',
        title: '24/7 Emergency Plumber Austin | Radiant Plumbing & Air Conditioning',
      },
      { url: 'https://www.abacusplumbing.net/austin/', title: 'Austin Plumber | Abacus Plumbing, Air Conditioning & Electrical' },
      { url: 'https://www.reliantplumbing.com/', title: 'Reliant Plumbing | Austin Plumbers' },
    ],
    'cited: url_citation annotations, without the utm_source=openai marker',
  )
  t.same(
    answer.retrieved,
    [
      { url: 'https://www.bbb.org/us/tx/austin/category/plumber' },
      { url: 'https://www.angi.com/companylist/us/tx/austin/emergency-plumbing.htm' },
    ],
    'retrieved: searched sources and opened pages that were not cited',
  )
  t.equal(answer.model, 'gpt-5-2025-08-07', 'the model from the response')
  t.equal(answer.searched, true)
  const record = answer.record as Record<string, unknown>
  t.equal(record.id, 'resp_68c1f4a2b0d881a0b3e9a7f6c2d45e1c0a7b3d9e8f1c2a34')
  t.same(record, fixture('openai-grounded.json'), 'the record is the provider response (without the SDK-derived output_text)')
})

t.test('an answer without a search: no sources, searched false, no user location without a geo', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(responses, { body: fixture('openai-no-search.json') })
  const answer = await adapter.ask(PROMPT, { geoState: null })
  t.same(server.requests[0]!.body.tools, [{ type: 'web_search' }])
  t.match(answer.answer_text, /^Look for a licensed Texas plumber/)
  t.same(answer.citations, [])
  t.same(answer.retrieved, [])
  t.equal(answer.searched, false)
})

t.test('a 429 is a retryable EngineError with the provider reason and its retry-after', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(responses, { status: 429, headers: { 'retry-after-ms': '13074', 'retry-after': '14' }, body: fixture('openai-429.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 429)
  t.equal(error.retryable, true)
  t.equal(error.retryAfterMs, 13_074, 'retry-after-ms is preferred')
  t.match(error.reason, /^OpenAI 429: Rate limit reached for gpt-5 in organization org-Qm2v8XcL4tRz9pWb on tokens per min/)
  t.equal(server.requests.length, 1, 'the SDK did not retry on its own')

  server.enqueue(responses, {
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    },
  })
  const quota = await rejection(t, adapter.ask(PROMPT))
  t.equal(quota.retryable, false, 'an exhausted quota is not a rate limit: asking again will not help')
  t.equal(quota.retryAfterMs, undefined)
})

t.test('a 500 is retryable with the provider message', async (t) => {
  const { server, adapter } = await setup(t)
  server.enqueue(responses, { status: 500, body: fixture('openai-500.json') })
  const error = await rejection(t, adapter.ask(PROMPT))
  t.equal(error.status, 500)
  t.equal(error.retryable, true)
  t.equal(error.reason, 'OpenAI 500: The server had an error while processing your request. Sorry about that!')
})

t.test('failed, incomplete, refused and malformed responses fail, never an empty answer', async (t) => {
  const { server, adapter } = await setup(t)
  const base = fixture('openai-no-search.json')

  server.enqueue(responses, { body: '<html><body>502 Bad Gateway</body></html>', headers: { 'content-type': 'application/json' } })
  const broken = await rejection(t, adapter.ask(PROMPT))
  t.match(broken.reason, /^malformed OpenAI response/)
  t.equal(broken.retryable, true)

  server.enqueue(responses, { body: { id: 'resp_1', object: 'response', status: 'completed' } })
  const shapeless = await rejection(t, adapter.ask(PROMPT))
  // The SDK itself trips over a body without output (computing output_text); either way it is malformed.
  t.match(shapeless.reason, /^malformed OpenAI response: /)
  t.equal(shapeless.retryable, true)

  server.enqueue(responses, {
    body: { ...base, status: 'failed', output: [], error: { code: 'server_error', message: 'The model failed to generate a response.' } },
  })
  const failed = await rejection(t, adapter.ask(PROMPT))
  t.equal(failed.reason, 'OpenAI: server_error: The model failed to generate a response.')
  t.equal(failed.retryable, true)

  server.enqueue(responses, { body: { ...base, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } })
  const incomplete = await rejection(t, adapter.ask(PROMPT))
  t.equal(incomplete.reason, 'OpenAI: incomplete response (max_output_tokens)')

  const refusal = { ...base.output[1], content: [{ type: 'refusal', refusal: "I'm sorry, but I can't help with that." }] }
  server.enqueue(responses, { body: { ...base, output: [refusal] } })
  const refused = await rejection(t, adapter.ask(PROMPT))
  t.equal(refused.reason, "OpenAI refused: I'm sorry, but I can't help with that.")
  t.equal(refused.retryable, false)
})

t.test('an aborted request is an EngineError too', async (t) => {
  const { server, adapter } = await setup(t)
  server.route((r) => (responses(r) ? { body: fixture('openai-no-search.json') } : undefined))
  const controller = new AbortController()
  controller.abort()
  const error = await rejection(t, adapter.ask(PROMPT, { signal: controller.signal }))
  t.equal(error.reason, 'request aborted')
})
