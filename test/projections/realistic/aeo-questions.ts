import type { RecordedEvent } from '../../../commands/event-store/port.js'
import { questionSetStream } from '../../../domain/aeo/questions/question-set.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The AI Visibility questions part of the realistic log: every write RPC of the part, through HTTP, on the
 * clients of `log` (keys: platform key unless given), including no-op repeats and foreign-org attempts.
 * A generated set (and generating again), manual adds (one a get-or-create repeat), updates, a delete, a
 * bulk delete, and a duplicate recorded under an older normalization (appended directly, as older
 * versions wrote it), then merged.
 */
export async function writeAeoQuestionsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters] = log.clientIds as [number, number]
  const generated = await call<{ query_ids: number[] }>('generate_aeo_questions', { client_id: plumbers }, keys.orgA)
  await call('generate_aeo_questions', { client_id: plumbers }, keys.orgA) // nothing missing
  const manual = await call<number>('add_aeo_query', { client_id: plumbers, prompt: 'Who unclogs drains fastest in Austin?' }, keys.orgA)
  await call('add_aeo_query', { client_id: plumbers, prompt: 'who unclogs drains fastest in austin', engine: 'claude' }, keys.orgA) // existing
  await call(
    'update_aeo_query',
    { query_id: manual, priority: 95, prompt: 'Who unclogs drains fastest in Austin, TX?', kind: 'best-of', service: 'Drain cleaning' },
    keys.orgA,
  )
  await call('update_aeo_query', { query_id: generated.query_ids[1]!, active: false }, keys.orgA)
  await call('delete_aeo_query', { query_id: generated.query_ids[2]! }, keys.orgA)
  const foreign = await ts.rpc('delete_aeo_query', { query_id: generated.query_ids[3]! }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign delete answered ${foreign.statusCode}`)

  const stream = questionSetStream(plumbers)
  const recorded: RecordedEvent[] = []
  for await (const event of ts.system.store.readStream(stream)) recorded.push(event)
  const last = recorded[recorded.length - 1]!
  await ts.system.store.append(
    stream,
    [
      {
        type: 'AeoQuestionAdded',
        data: {
          client_id: plumbers,
          query_id: 990001,
          prompt: 'WHO unclogs drains fastest in Austin TX',
          prompt_key: 'who unclogs drains fastest in austin tx (an older key)',
          engine: 'gemini',
          service: '',
          location: '',
          kind: 'custom',
          priority: 40,
          active: true,
          source: 'manual',
        },
        metadata: { ...(last.metadata as object) },
      },
    ],
    last.revision,
  )
  await call('dedupe_aeo_queries', { client_id: plumbers }, keys.orgA)

  // Another client: a small generated set, then every uncaptured question deleted and one added back.
  await call('generate_aeo_questions', { client_id: heaters }, keys.orgA)
  await call('delete_aeo_queries_for_client', { client_id: heaters }, keys.orgA)
  await call('add_aeo_query', { client_id: heaters, prompt: 'best water heater installer in Austin', engine: 'openai' })
}
