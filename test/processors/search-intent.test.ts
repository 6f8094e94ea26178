/**
 * The intent classifier against the language-model providers' real wire formats (Anthropic Messages and
 * OpenAI Responses, answered by a local stand-in on 127.0.0.1): the model's classification recorded with its
 * reasons; retryable failures asked again with backoff, a refused key not; every failure falling back to the
 * rules with the reason recorded; classify_page_intents asking the model again for such a page, once even
 * when its request is delivered twice; pages without content and the sandbox's fiction read by the rules
 * alone; a stop while waiting records nothing; and the page's row while new content waits for its turn.
 */
import pino from 'pino'
import t from 'tap'
import { decode, type DecodedEvent } from '../../commands/event-store/decode.js'
import { intentRequestStream, requestIntentClassification } from '../../commands/search/intent/page-intent.js'
import { systemContext } from '../../commands/command-handler.js'
import { MAX_REQUESTED_PAGES } from '../../domain/search/intent/events.js'
import { pageIntentStream } from '../../domain/search/intent/page-intent.js'
import { createAnthropicLanguageModel } from '../../processors/language-model/anthropic.js'
import { createOpenAiLanguageModel } from '../../processors/language-model/openai.js'
import type { LanguageModel } from '../../processors/language-model/port.js'
import { retryDelayMs } from '../../processors/search/intent/ask-model.js'
import type { IntentClassifierDeps } from '../../processors/search/intent/classify-page.js'
import { handleIntentEvent, intentWork } from '../../processors/search/intent/index.js'
import { clientPayload, orgWithKey, streamEvents } from '../http/helpers.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { fixture, startProviderServer, type RecordedRequest } from './aeo/provider-server.js'
import { readModelsCaughtUp } from '../support/read-models.js'

const messages = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/messages'
const responses = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/responses'

/** A finished Messages API answer whose text is `text`. */
const anthropicAnswer = (text: string) => ({ ...fixture('claude-no-search.json'), content: [{ type: 'text', text }] })

/** A completed Responses API answer whose output text is `text`. */
function openAiAnswer(text: string) {
  const base = fixture('openai-no-search.json')
  return {
    ...base,
    output: base.output.map((item: any) =>
      item.type === 'message' ? { ...item, content: [{ type: 'output_text', annotations: [], logprobs: [], text }] } : item,
    ),
  }
}

const OPENAI_401 = {
  error: {
    message: 'Incorrect API key provided: sk-proj-****test. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
}

const LOCAL_ANSWER = JSON.stringify({
  intent: 'local',
  confidence: 0.88,
  reasons: ['The title names Austin, one of the business locations', 'A street address and phone number for visits'],
})

async function world(ts: TestSystem) {
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>(
    'add_client',
    clientPayload('Acme Plumbing', { services: ['Drain cleaning'], locations: [{ name: 'Austin, TX', city: 'Austin', state: 'TX' }] }),
    org.key,
  )
  const addPage = async (path: string, title: string, content: string | null) => {
    const pageId = await ts.call<number>(
      'add_page',
      { page: { client_id: clientId, url: `https://acme.example.com${path}`, title } },
      org.key,
    )
    if (content !== null) await ts.call('add_snapshot', { snapshot: { page_id: pageId, content } }, org.key)
    return pageId
  }
  return { org, clientId, addPage }
}

const classifications = async (ts: TestSystem, pageId: number) =>
  (await streamEvents(ts, pageIntentStream(pageId))).filter((e) => e.type === 'PageIntentClassified').map((e) => e.data)

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not reached; last ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

t.test('the running processor classifies new content with Anthropic; a page without content by the rules', async (t) => {
  const server = await startProviderServer(t)
  server.route((r) => (messages(r) ? { body: anthropicAnswer(`Here you go:\n${LOCAL_ANSWER}`) } : undefined))
  const ts = await startTestSystem(t, {
    runProcessors: true,
    languageModel: createAnthropicLanguageModel({ apiKey: 'sk-ant-test', baseUrl: server.origin, model: 'claude-test' }),
  })
  const { org, addPage } = await world(ts)
  const city = await addPage(
    '/drain-cleaning-austin',
    'Drain Cleaning in Austin',
    '<h1>Drain cleaning in Austin</h1><p>1200 Congress Ave.</p>',
  )
  const bare = await addPage('/about', 'About us', null)

  const cache = await until(
    'the snapshot classified by the model',
    () => ts.call('get_page_intent_cache', { page_id: city }, org.key),
    (c: any) => c.up_to_date && c.classifier === 'model',
  )
  t.match(cache, { intent: 'local', source: 'model', confidence: 0.88 })
  t.same(cache.entries[0].signals, [
    { intent: 'local', source: 'model', detail: 'The title names Austin, one of the business locations', weight: 1 },
    { intent: 'local', source: 'model', detail: 'A street address and phone number for visits', weight: 1 },
  ])
  t.match(cache.entries[0], { classifier: 'model', model: 'anthropic:claude-test', fallback_reason: null, current: true })

  const about = await until(
    'the page without content classified',
    () => ts.call('get_page_intent_cache', { page_id: bare }, org.key),
    (c: any) => c.up_to_date,
  )
  t.match(about, { intent: 'navigational', classifier: 'rules' })
  t.match(about.entries[0], { model: null, fallback_reason: null, snapshot_id: null }, 'the rules read it; the model was not asked')

  const asked = server.requests.filter(messages)
  t.equal(asked.length, 1, 'one model call: the one page with content')
  const request = asked[0]!
  t.ok(request.headers['x-api-key'] === 'sk-ant-test' || request.headers.authorization === 'Bearer sk-ant-test', 'with the key')
  t.match(request.body, { model: 'claude-test', max_tokens: 400, messages: [{ role: 'user' }] })
  t.match(request.body.system, /informational/)
  t.match(request.body.system, /JSON only/)
  t.match(JSON.parse(request.body.messages[0].content), {
    url: 'https://acme.example.com/drain-cleaning-austin',
    title: 'Drain Cleaning in Austin',
    headings: ['Drain cleaning in Austin'],
    business: { name: 'Acme Plumbing', services: ['Drain cleaning'], locations: ['Austin, TX'] },
  })
})

t.test('OpenAI: retries, fallbacks, classify requests once, the sandbox and a stop', async (t) => {
  const server = await startProviderServer(t)
  const ts = await startTestSystem(t)
  const { org, clientId, addPage } = await world(ts)
  const model: LanguageModel = createOpenAiLanguageModel({ apiKey: 'sk-proj-test', baseUrl: `${server.origin}/v1`, model: 'gpt-test' })
  const classifier: IntentClassifierDeps = {
    write: ts.system.write,
    read: ts.system.read,
    languageModel: model,
    retry: { maxAttempts: 3, backoffBaseMs: 5, random: () => 0 },
    log: pino({ level: 'silent' }),
  }
  const signal = new AbortController().signal
  const lastOf = async (stream: string): Promise<DecodedEvent> => {
    let last: DecodedEvent | undefined
    for await (const recorded of ts.system.store.readStream(stream)) last = decode(recorded)
    return last!
  }
  /** The read models show every event recorded so far (the classifier records without waiting for them). */
  const settled = async () => readModelsCaughtUp(ts)
  const handle = (event: DecodedEvent, stop = signal) => handleIntentEvent(classifier, ts.system.watermark, event, stop)
  const asked = () => server.requests.filter(responses).length

  await t.test('a rate limit is asked again after a backoff; the answer recorded', async (t) => {
    const page = await addPage('/book', 'Book online', '<h1>Book a plumber</h1>')
    server.enqueue(
      responses,
      { status: 429, body: fixture('openai-429.json') },
      { body: openAiAnswer('```json\n{"intent":"transactional"}\n```') },
    )
    t.same(await handle(await lastOf(`page-${page}`)), ['recorded'])
    t.equal(asked(), 2, 'asked twice')
    t.match(await classifications(ts, page), [{ intent: 'transactional', classifier: 'model', model: 'openai:gpt-test', confidence: 0.7 }])
    t.same(await handle(await lastOf(`page-${page}`)), ['unchanged'], 'the same event again: nothing recorded')
    t.equal(asked(), 2, 'and the model not asked')
  })

  await t.test('a refused key falls back to the rules at once; classify_page_intents asks again, once', async (t) => {
    const page = await addPage('/austin', 'Plumber in Austin', '<h1>Austin plumbers near me</h1>')
    const before = asked()
    server.enqueue(responses, { status: 401, body: OPENAI_401 })
    t.same(await handle(await lastOf(`page-${page}`)), ['recorded'])
    t.equal(asked(), before + 1, 'a 401 is not asked again')
    const [fallback] = await classifications(ts, page)
    t.match(fallback, { intent: 'local', classifier: 'rules', model: 'openai:gpt-test', request_id: null })
    t.match(fallback.fallback_reason, /^OpenAI 401: Incorrect API key provided/)
    t.ok(fallback.signals.length > 0, "the rules' evidence is recorded")
    await settled()
    t.match(await ts.call('get_page_intent_cache', { page_id: page }, org.key), { source: 'rules', up_to_date: true })

    // A catch-up request: the fallback page is asked again (the others are classified already).
    server.enqueue(responses, { body: openAiAnswer(LOCAL_ANSWER) })
    const requested = await ts.call('classify_page_intents', { client_id: clientId }, org.key)
    const request = await lastOf(intentRequestStream(clientId))
    t.equal(request.type, 'PageIntentsRequested')
    t.same(intentWork(request)?.options, { mode: 'missing_or_fallback', requestId: requested.request_id, useModel: true })
    const results = await handle(request)
    t.same(results.filter((r) => r === 'recorded').length, 1, 'only the page that fell back')
    t.match((await classifications(ts, page)).at(-1), { classifier: 'model', fallback_reason: null, request_id: requested.request_id })
    const calls = asked()
    t.same(await handle(request), ['unchanged', 'unchanged'], 'the request delivered again: nothing recorded')
    t.equal(asked(), calls, 'nor asked')
    await settled()
    t.match(
      await ts.call('get_page_intent_cache', { page_id: page }, org.key),
      { source: 'model', confidence: 0.88 },
      'the model replaced the fallback for that content',
    )
  })

  await t.test('an unreadable answer and an outage that outlasts the retries fall back, saying why', async (t) => {
    const unreadable = await addPage('/x1', 'Drain guide', '<h1>How to clean a drain</h1>')
    server.enqueue(responses, { body: openAiAnswer('I would say it is mostly about learning.') })
    await handle(await lastOf(`page-${unreadable}`))
    t.match(await classifications(ts, unreadable), [
      { classifier: 'rules', intent: 'informational', fallback_reason: 'openai:gpt-test: the answer names none of the five intents' },
    ])
    const down = await addPage('/x2', 'Water heaters', '<h1>Water heater tips</h1>')
    const before = asked()
    server.enqueue(responses, ...[1, 2, 3].map(() => ({ status: 500, body: fixture('openai-500.json') })))
    await handle(await lastOf(`page-${down}`))
    t.equal(asked(), before + 3, 'asked maxAttempts times')
    t.match((await classifications(ts, down))[0]?.fallback_reason, /^OpenAI 500: .* \(after 3 tries\)$/)
  })

  await t.test("the sandbox's writes are classified by the rules", async (t) => {
    const page = await addPage('/fiction', 'Fiction', '<h1>Book now</h1>')
    const event = await lastOf(`page-${page}`)
    const fiction = { ...event, metadata: { ...event.metadata, actor: { kind: 'system' as const, id: 'sandbox' } } } as DecodedEvent
    const before = asked()
    await handle(fiction)
    t.equal(asked(), before, 'no model call')
    t.match(await classifications(ts, page), [{ classifier: 'rules', model: null, fallback_reason: null }])
  })

  await t.test('a stop while waiting to ask again records nothing; the next start classifies', async (t) => {
    const page = await addPage('/stop', 'Stop', '<h1>Schedule service</h1>')
    const stop = new AbortController()
    server.enqueue(responses, { status: 429, body: fixture('openai-429.json') })
    const slow = { ...classifier, retry: { maxAttempts: 3, backoffBaseMs: 60_000, random: () => 0 } }
    const before = asked()
    const pending = handleIntentEvent(slow, ts.system.watermark, await lastOf(`page-${page}`), stop.signal)
    await until(
      'the first call',
      async () => asked(),
      (n) => n > before,
    )
    stop.abort()
    await t.rejects(pending, { name: 'ClassificationAborted' })
    t.same(await classifications(ts, page), [], 'nothing recorded')
    server.enqueue(responses, { body: openAiAnswer('{"intent":"transactional","confidence":0.6}') })
    t.same(await handle(await lastOf(`page-${page}`)), ['recorded'])
  })

  await t.test('a request larger than one event is recorded in parts, under one request id', async (t) => {
    const pageIds = Array.from({ length: MAX_REQUESTED_PAGES + 1 }, (_, i) => 1_000_000 + i)
    const context = systemContext('test')
    const { requestId } = await requestIntentClassification(ts.system.write, context, { orgId: org.orgId, clientId, pageIds, force: false })
    const parts = (await streamEvents(ts, intentRequestStream(clientId))).filter((e) => e.data.request_id === requestId)
    t.same(
      parts.map((p) => [p.data.page_ids[0], p.data.page_ids.length]),
      [
        [1_000_000, MAX_REQUESTED_PAGES],
        [1_000_000 + MAX_REQUESTED_PAGES, 1],
      ],
    )
  })

  await t.test('new content waits with the earlier classification shown, then takes its own', async (t) => {
    const page = await addPage('/wait', 'Guide', '<h1>How to fix a tap</h1>')
    server.enqueue(responses, { body: openAiAnswer('{"intent":"informational","confidence":0.9}') })
    await handle(await lastOf(`page-${page}`))
    await ts.call('add_snapshot', { snapshot: { page_id: page, content: '<h1>Book a tap repair</h1>', title: 'Book' } }, org.key)
    t.match(
      await ts.call('get_page_intent_cache', { page_id: page }, org.key),
      { intent: 'informational', up_to_date: false, entries: [{ current: false }] },
      'the earlier content classified; the new one not yet',
    )
    server.enqueue(responses, { body: openAiAnswer('{"intent":"transactional","confidence":0.8}') })
    await handle(await lastOf(`page-${page}`))
    await settled()
    t.match(await ts.call('get_page_intent_cache', { page_id: page }, org.key), {
      intent: 'transactional',
      up_to_date: true,
      entries: [{ current: true }, { current: false }],
    })
  })
})

t.test('the backoff doubles from the base, with jitter between half and all of it', async (t) => {
  t.equal(retryDelayMs(1, 2000, 0), 1000)
  t.equal(retryDelayMs(1, 2000, 0.999999), 2000)
  t.equal(retryDelayMs(3, 2000, 0), 4000)
})
