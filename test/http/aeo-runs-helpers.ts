/**
 * Shared by the AI Visibility runs tests: an enrolled client with questions, captures as the captures part
 * records them (AeoCaptureIngested on the capture's stream), capabilities_json, and log counts per run.
 */
import { appendDecided } from '../../commands/append.js'
import { systemContext } from '../../commands/command-handler.js'
import type { TestSystem } from '../support/system.js'
import { readModelsAt } from '../support/read-models.js'

/** A clock the test moves by hand. */
export function handClock(start: string) {
  let now = new Date(start)
  return {
    now: () => now,
    set: (at: string) => {
      now = new Date(at)
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms)
    },
  }
}

export const caps = (engines: string[], geo = 'any', max_per_day: number | null = null) => JSON.stringify({ engines, geo, max_per_day })

export async function addQuestions(ts: TestSystem, key: string, clientId: number, prompts: readonly string[]): Promise<number[]> {
  const ids: number[] = []
  for (const prompt of prompts) ids.push(await ts.call<number>('add_aeo_query', { client_id: clientId, prompt }, key))
  return ids
}

/** A client of the key's organization with `questions` active questions (generated prompts). */
export async function clientWithQuestions(
  ts: TestSystem,
  key: string,
  name: string,
  questions: number,
): Promise<{ clientId: number; queryIds: number[] }> {
  const clientId = await ts.call<number>(
    'add_client',
    { client: { name, website_url: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com` } },
    key,
  )
  const prompts = Array.from({ length: questions }, (_, i) => `best ${name} option number ${i + 1} near me`)
  return { clientId, queryIds: await addQuestions(ts, key, clientId, prompts) }
}

/** A capture of the client, recorded the way ingest_aeo_capture records one (its own stream, the client's org). */
export async function recordCapture(
  ts: TestSystem,
  input: { orgId: number; clientId: number; queryId: number; engine: string; month: string; runId: number | null },
): Promise<number> {
  const captureId = await ts.system.write.ids.next('aeo_capture')
  const empty = { scorecard: {}, source_table: [], claim_map: [], entity_table: [], findings: [] }
  const { position } = await appendDecided(
    ts.system.write,
    systemContext('test'),
    `aeo_capture-${captureId}`,
    [
      {
        type: 'AeoCaptureIngested',
        data: {
          capture_id: captureId,
          client_id: input.clientId,
          query_id: input.queryId,
          engine: input.engine,
          month: input.month,
          run_id: input.runId,
          answer_text: 'Acme Plumbing is a good choice.',
          citations: [],
          retrieved: [],
          model: 'test-model',
          surface: 'api',
          searched: true,
          record_sha256: '0'.repeat(64),
          record_bytes: 0,
          analysis_version: 1,
          report: empty,
        },
      },
    ],
    'no_stream',
    input.orgId,
  )
  await readModelsAt(ts, position)
  return captureId
}

/** Event types per run stream, from the log table. */
export async function runEventTypes(ts: TestSystem): Promise<Map<number, string[]>> {
  const { rows } = await ts.database.pool.query<{ stream_name: string; type: string }>(
    `select stream_name, type from es_events where stream_name like 'aeo_run-%' order by stream_name, stream_revision`,
  )
  const byRun = new Map<number, string[]>()
  for (const row of rows) {
    const id = Number(row.stream_name.slice('aeo_run-'.length))
    byRun.set(id, [...(byRun.get(id) ?? []), row.type])
  }
  return byRun
}

/** Polls `check` until it holds (the processors act asynchronously); fails after a generous deadline. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
