/**
 * The language-model adapters against local servers on 127.0.0.1 answering in the providers' real wire
 * formats (Anthropic Messages, OpenAI Responses): the request each SDK sends, the text read back, and
 * provider failures as LanguageModelErrors (retryable or not); the factory's provider choice.
 */
import t, { type Test } from 'tap'
import { createAnthropicLanguageModel } from '../../processors/language-model/anthropic.js'
import { createLanguageModel } from '../../processors/language-model/index.js'
import { createOpenAiLanguageModel } from '../../processors/language-model/openai.js'
import { LanguageModelError } from '../../processors/language-model/port.js'
import { fixture, startProviderServer } from './aeo/provider-server.js'

const messages = (r: { method: string; url: string }) => r.method === 'POST' && r.url === '/v1/messages'
const responses = (r: { method: string; url: string }) => r.method === 'POST' && r.url === '/v1/responses'

async function rejection(t: Test, promise: Promise<unknown>): Promise<LanguageModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof LanguageModelError, 'fails with a LanguageModelError')
  return error as LanguageModelError
}

t.test('Anthropic: system and prompt sent as the Messages API takes them; the text blocks are the answer', async (t) => {
  const server = await startProviderServer(t)
  server.enqueue(messages, { body: fixture('claude-no-search.json') })
  const model = createAnthropicLanguageModel({ apiKey: 'sk-ant-test', baseUrl: server.origin, model: 'claude-test' })
  t.equal(model.name, 'anthropic:claude-test')
  const text = await model.complete({ system: 'Rewrite pages.', prompt: 'Instruction: x', maxTokens: 321 })
  t.match(text, /^When choosing an emergency plumber in Austin/)
  const request = server.requests[0]!
  t.ok(request.headers['x-api-key'] === 'sk-ant-test' || request.headers.authorization === 'Bearer sk-ant-test', 'sends the API key')
  t.same(
    { model: request.body.model, max_tokens: request.body.max_tokens, system: request.body.system, messages: request.body.messages },
    {
      model: 'claude-test',
      max_tokens: 321,
      system: 'Rewrite pages.',
      messages: [{ role: 'user', content: 'Instruction: x' }],
    },
  )
})

t.test('Anthropic: a 429 is retryable with the provider reason; a cut-off answer is not retryable; no SDK retries', async (t) => {
  const server = await startProviderServer(t)
  server.enqueue(messages, { status: 429, body: fixture('claude-429.json') })
  const model = createAnthropicLanguageModel({ apiKey: 'k', baseUrl: server.origin, model: 'claude-test' })
  const limited = await rejection(t, model.complete({ system: 's', prompt: 'p' }))
  t.equal(limited.retryable, true)
  t.match(limited.message, /^Anthropic 429: /)
  t.equal(server.requests.length, 1, 'one request')
  server.enqueue(messages, { body: { ...fixture('claude-no-search.json'), stop_reason: 'max_tokens' } })
  const cut = await rejection(t, model.complete({ system: 's', prompt: 'p' }))
  t.equal(cut.retryable, false)
  t.match(cut.message, /cut off/)
})

t.test('OpenAI: instructions and input sent to the Responses API; output_text is the answer; failures coded', async (t) => {
  const server = await startProviderServer(t)
  server.enqueue(responses, { body: fixture('openai-no-search.json') })
  const model = createOpenAiLanguageModel({ apiKey: 'sk-proj-test', baseUrl: `${server.origin}/v1`, model: 'gpt-test' })
  t.equal(model.name, 'openai:gpt-test')
  const text = await model.complete({ system: 'Rewrite pages.', prompt: 'Instruction: x' })
  t.match(text, /^Look for a licensed Texas plumber/)
  const request = server.requests[0]!
  t.equal(request.headers.authorization, 'Bearer sk-proj-test')
  t.match(request.body, { model: 'gpt-test', instructions: 'Rewrite pages.', input: 'Instruction: x' })
  t.type(request.body.max_output_tokens, 'number')

  server.enqueue(responses, { status: 500, body: fixture('openai-500.json') })
  const failed = await rejection(t, model.complete({ system: 's', prompt: 'p' }))
  t.equal(failed.retryable, true)
  t.match(failed.message, /^OpenAI 500: /)
  server.enqueue(responses, {
    body: { ...fixture('openai-no-search.json'), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
  })
  const incomplete = await rejection(t, model.complete({ system: 's', prompt: 'p' }))
  t.equal(incomplete.retryable, false)
  t.match(incomplete.message, /incomplete \(max_output_tokens\)/)
})

t.test('the factory: null for builtin, the named provider otherwise', async (t) => {
  t.equal(createLanguageModel({ provider: 'builtin' }), null)
  const settings = { apiKey: 'k', baseUrl: 'http://127.0.0.1:9', model: 'm' }
  t.equal(createLanguageModel({ provider: 'anthropic', settings })?.name, 'anthropic:m')
  t.equal(createLanguageModel({ provider: 'openai', settings })?.name, 'openai:m')
})
