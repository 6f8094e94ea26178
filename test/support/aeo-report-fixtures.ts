/**
 * Read-model fixtures for the reports part's tests: questions, captures (with report_json as the captures
 * part's analysis writes it), tracker items, runs and a cadence, inserted straight into the read models.
 * They stand in for the questions, captures, tracker and runs parts' RPCs, so the summary and report can be
 * tested on their own; the end-to-end test of the area drives the real RPCs.
 */
import { refreshSummaryMonths } from '../../projections/aeo/captures/summary-months.js'
import { addToSummary } from '../../projections/aeo/captures/summary-totals.js'
import type { ReadDb } from '../../projections/tables.js'

let nextId = 100_000

export interface CaptureFixture {
  readonly clientId: number
  readonly orgId: number
  readonly queryId: number
  readonly month: string
  readonly engine?: string
  readonly present: boolean
  readonly namedFirst?: boolean
  /** Position among named businesses (null: the client is not named). */
  readonly position?: number | null
  readonly entities?: readonly string[]
  readonly sources?: readonly { domain: string; class: string; count: number }[]
}

export async function insertQuestion(
  read: ReadDb,
  input: { clientId: number; orgId: number; service: string; prompt: string },
): Promise<number> {
  const id = nextId++
  const at = new Date('2026-01-01T00:00:00Z')
  await read
    .insertInto('aeo_queries')
    .values({
      id,
      client_id: input.clientId,
      org_id: input.orgId,
      prompt: input.prompt,
      prompt_key: input.prompt.toLowerCase(),
      engine: 'chatgpt-web',
      service: input.service,
      location: '',
      kind: 'best-of',
      priority: 1,
      active: true,
      source: 'manual',
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

export async function insertCaptures(read: ReadDb, captures: readonly CaptureFixture[]): Promise<void> {
  if (captures.length === 0) return
  const inserted = await read
    .insertInto('aeo_captures')
    .values(
      captures.map((c) => {
        const position = c.position === undefined ? (c.present ? (c.namedFirst ? 1 : 2) : null) : c.position
        return {
          id: nextId++,
          client_id: c.clientId,
          org_id: c.orgId,
          query_id: c.queryId,
          engine: c.engine ?? 'claude',
          month: c.month,
          run_id: null,
          answer_text: 'an answer',
          citations: JSON.stringify([]),
          retrieved: JSON.stringify([]),
          model: 'test-model',
          surface: 'api',
          searched: true,
          analysis_version: 1,
          report_json: JSON.stringify({
            scorecard: {
              present: c.present,
              named_first: c.namedFirst ?? false,
              position,
              named_count: (c.entities?.length ?? 0) + (position === null ? 0 : 1),
              cited: false,
              own_domain_citations: 0,
              citation_count: (c.sources ?? []).reduce((n, s) => n + s.count, 0),
            },
            source_table: c.sources ?? [],
            claim_map: [],
            entity_table: (c.entities ?? []).map((name, i) => ({ name, position: i + 1 })),
            findings: [],
          }),
          record_bytes: 0,
          record_pruned_at: null,
          captured_at: new Date(`${c.month}-10T00:00:00Z`),
        }
      }),
    )
    .returning('id')
    .execute()
  // The captures projector counts every capture it inserts into the summary totals, and rebuilds the
  // per-month rows get_aeo_summary reads; so do the fixtures.
  await addToSummary(read, { captureIds: inserted.map((r) => r.id) })
  await refreshSummaryMonths(
    read,
    captures.map((c) => ({ clientId: c.clientId, month: c.month })),
  )
}

/** `n` copies of a capture, the first `present` of them present (and the first `namedFirst` named first). */
export function captureBatch(
  base: Omit<CaptureFixture, 'present' | 'namedFirst'>,
  n: number,
  present: number,
  namedFirst = 0,
): CaptureFixture[] {
  return Array.from({ length: n }, (_, i) => ({ ...base, present: i < present, namedFirst: i < namedFirst }))
}

export async function insertItem(
  read: ReadDb,
  input: { clientId: number; orgId: number; tier: 'A' | 'B' | 'C' | 'X'; title: string; status: string; evidence?: string },
): Promise<number> {
  const id = nextId++
  const at = new Date('2026-02-01T00:00:00Z')
  await read
    .insertInto('aeo_items')
    .values({
      id,
      client_id: input.clientId,
      org_id: input.orgId,
      item_key: `key-${id}`,
      tier: input.tier,
      title: input.title,
      status: input.status,
      evidence: input.evidence ?? '',
      note: null,
      first_month: '2026-01',
      last_month: '2026-02',
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

export async function insertRuns(
  read: ReadDb,
  input: { clientId: number; orgId: number; queryId: number; month: string; statuses: readonly string[] },
): Promise<void> {
  const at = new Date(`${input.month}-01T00:00:00Z`)
  await read
    .insertInto('aeo_runs')
    .values(
      input.statuses.map((status, i) => ({
        id: nextId++,
        client_id: input.clientId,
        org_id: input.orgId,
        query_id: input.queryId,
        engine: 'claude',
        month: input.month,
        geo_state: null,
        priority: 1,
        sample: i + 1,
        status: status as 'queued',
        agent_id: null,
        agent_org_id: null,
        attempts: 0,
        error: null,
        capture_id: null,
        lease_expires_at: null,
        revision: 0,
        queued_at: at,
        claimed_at: null,
        finished_at: null,
        updated_at: at,
      })),
    )
    .execute()
}

export async function insertCadence(
  read: ReadDb,
  input: { clientId: number; orgId: number; samplesPerMonth: number; engines: string[] },
): Promise<void> {
  await read
    .insertInto('aeo_cadences')
    .values({
      client_id: input.clientId,
      org_id: input.orgId,
      enabled: true,
      samples_per_month: input.samplesPerMonth,
      engines: input.engines,
      geo_state: 'TX',
      updated_at: new Date('2026-01-01T00:00:00Z'),
    })
    .execute()
}
