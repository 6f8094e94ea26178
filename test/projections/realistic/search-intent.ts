import pino from 'pino'
import { systemContext } from '../../../commands/command-handler.js'
import { decode, type DecodedEvent } from '../../../commands/event-store/decode.js'
import { intentRequestStream } from '../../../commands/search/intent/page-intent.js'
import { classifyPage, type IntentClassifierDeps } from '../../../processors/search/intent/classify-page.js'
import { handleIntentEvent } from '../../../processors/search/intent/index.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsCaughtUp } from '../../support/read-models.js'

/**
 * The intent part of the realistic log: the classifier's work done as its processor does it (the test
 * system runs no processors; the rules classify), and the write RPCs through HTTP. The plumbers' pages
 * (whose home page already went through a site edit and its rollback, so it came back to content it had)
 * classified, new content classified, content coming back to what it was (nothing new recorded), an
 * override set, changed and cleared, a forced classify request answered (and answered again: nothing),
 * a page of another organization, and refused foreign writes.
 */
export async function writeIntentLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const classifier: IntentClassifierDeps = {
    write: ts.system.write,
    read: ts.system.read,
    languageModel: null,
    retry: { maxAttempts: 1, backoffBaseMs: 1 },
    log: pino({ level: 'silent' }),
  }
  const signal = new AbortController().signal
  const settled = async () => readModelsCaughtUp(ts)
  const classify = async (pageId: number) => {
    await settled()
    await classifyPage(classifier, systemContext('search-intent'), pageId, { mode: 'missing', requestId: null, useModel: true }, signal)
  }

  const pages = await call<{ page_id: number; url: string; active: boolean }[]>('get_pages_for_client', { client_id: plumbers }, keys.orgA)
  const [home, about] = pages.filter((p) => p.active).map((p) => p.page_id) as [number, number]
  await classify(home)
  await classify(about)
  await classify(home) // its content is classified: nothing

  const guide = await call<number>(
    'add_page',
    { page: { client_id: plumbers, url: 'https://plumbers.example.com/blog/how-to-unclog-a-drain', title: 'How to unclog a drain' } },
    keys.orgA,
  )
  await classify(guide) // by its URL and title
  await call(
    'add_page',
    { page: { client_id: plumbers, url: 'https://plumbers.example.com/blog/how-to-unclog-a-drain', title: 'Unclogging drains' } },
    keys.orgA,
  )
  await classify(guide) // a new title, still no content: a new hash
  const tips = '<h1>How to unclog a drain</h1><h2>Why do drains clog?</h2><h2>What do I need?</h2>'
  await call('add_snapshot', { snapshot: { page_id: guide, content: tips } }, keys.orgA)
  await classify(guide)
  await call(
    'add_snapshot',
    { snapshot: { page_id: guide, content: '<h1>Book drain cleaning</h1><p>Book now.</p>', title: 'Book' } },
    keys.orgA,
  )
  await call(
    'add_page',
    { page: { client_id: plumbers, url: 'https://plumbers.example.com/blog/how-to-unclog-a-drain', title: 'Unclog' } },
    keys.orgA,
  ) // a title change after content: the snapshot counts
  await classify(guide)
  await call('add_snapshot', { snapshot: { page_id: guide, content: tips, title: 'Unclogging drains' } }, keys.orgA) // back: already classified

  await call('set_page_intent', { page_id: home, intent: 'local', note: 'Austin home page' }, keys.orgA)
  await call('set_page_intent', { page_id: home, intent: 'local', note: 'Austin home page' }, keys.orgA) // unchanged
  await call('set_page_intent', { page_id: home, intent: 'navigational' }, keys.orgA)
  await call('set_page_intent', { page_id: guide, intent: 'transactional', note: 'booking' }, keys.orgA)
  await call('set_page_intent', { page_id: guide, intent: null }, keys.orgA)
  await call('set_page_intent', { page_id: about, intent: null }, keys.orgA) // none to clear

  await call('classify_page_intents', { client_id: plumbers, force: true, page_ids: [home, guide] }, keys.orgA)
  await call('classify_page_intents', { client_id: plumbers }, keys.orgA) // a catch-up with nothing to catch up
  let request: DecodedEvent | undefined
  for await (const recorded of ts.system.store.readStream(intentRequestStream(plumbers))) {
    const event = decode(recorded)
    await handleIntentEvent(classifier, ts.system.watermark, event, signal)
    request ??= event
  }
  await handleIntentEvent(classifier, ts.system.watermark, request!, signal) // delivered again: nothing

  const dental = await call<number>(
    'add_page',
    { page: { client_id: bravo, url: 'https://dental.example.org/implants-miami', title: 'Dental implants in Miami' } },
    keys.orgB,
  )
  await call('add_snapshot', { snapshot: { page_id: dental, content: '<h1>Implants near me</h1><p>Call (305) 555-0100.</p>' } }, keys.orgB)
  await classify(dental)
  await call('set_page_intent', { page_id: dental, intent: 'commercial' }, keys.orgB)
  const foreign = await ts.rpc('set_page_intent', { page_id: dental, intent: 'local' }, keys.orgA)
  if (foreign.statusCode !== 404) throw new Error(`a foreign set_page_intent answered ${foreign.statusCode}`)
  const foreignRequest = await ts.rpc('classify_page_intents', { client_id: bravo }, keys.orgA)
  if (foreignRequest.statusCode !== 404) throw new Error(`a foreign classify_page_intents answered ${foreignRequest.statusCode}`)
}
