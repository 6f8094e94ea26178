/**
 * The get_aeo_summary totals the captures projector keeps (aeo_summary_*) answer exactly what aggregating
 * the captures' report_json at read time answered (test/projections/aeo-summary-oracle.ts, the reads as they
 * were), for varied reports (well-formed, odd types, missing parts; names differing in case, spacing and
 * spelling) after every way a capture changes or goes away: ingest, redelivered ingest, re-analysis, question
 * merge, redelivered events, sandbox reset, applied in batches of any size or event by event. The summary's
 * one statement, which reads the per-month rows (aeo_summary_months), is compared too.
 */
import fc from 'fast-check'
import t from 'tap'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { summarizeRates } from '../../domain/aeo/summary/summary.js'
import { applyEvents } from '../../projections/apply-events.js'
import { aeoCapturesProjector } from '../../projections/aeo/captures/projector.js'
import { summaryCompetitors, summaryCounts, summaryMonths } from '../../projections/aeo/reports/summary-totals.js'
import { loadVisibleSummary } from '../../projections/aeo/reports/summary-query.js'
import { sandboxProjector } from '../../projections/sandbox/projector.js'
import type { ReadDb } from '../../projections/tables.js'
import { createTestDatabase } from '../support/database.js'
import { captureCounts, captureMonths, competitorMentions } from './aeo-summary-oracle.js'
import { createScratchSchemas, inRolledBackTransaction, schemaDb } from './helpers.js'

const ORG = 1
const MONTHS = ['2026-01', '2026-02', '2026-03']
/** Client 1's questions (services A, B and none) and client 2's; the merges are within client 1. */
const QUERIES = [
  { id: 11, client: 1, service: 'A' },
  { id: 12, client: 1, service: 'B' },
  { id: 13, client: 1, service: '' },
  { id: 21, client: 2, service: 'A' },
]
const NAMES = [
  'Ace Plumbing',
  'ace plumbing',
  'ACE PLUMBING',
  ' Ace Plumbing ',
  'Bob’s Drains',
  'bob’s drains',
  'Zed',
  'zed',
  'Ünï',
  'ünï',
  '',
  '  ',
  '\tTab',
]

// Shapes the report schema (domain/aeo/captures/events.ts) lets into the log, and odd values within them:
// a scorecard is a record of anything, an entity table an array of records of anything.
const flag = fc.constantFrom<unknown>(true, false, 'true', 1, null, undefined)
const scorecard = fc.oneof(
  fc.record({ present: flag, named_first: flag, position: fc.constantFrom<unknown>(1, 2, 3.5, null, '2', undefined) }),
  fc.constantFrom<Record<string, unknown>>({}, { present: 'yes' }),
)
const entity = fc.oneof(
  fc.constantFrom(...NAMES).map((name) => ({ name })),
  fc.record({ name: fc.constantFrom<unknown>(...NAMES, 3, null, undefined), position: fc.nat(5) }),
  fc.constantFrom<Record<string, unknown>>({}, { name: [] }),
)
const report = fc.record({ scorecard, entity_table: fc.array(entity, { maxLength: 6 }) })

const capture = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  query: fc.constantFrom(...QUERIES),
  engine: fc.constantFrom('claude', 'openai', 'gemini'),
  month: fc.constantFrom(...MONTHS),
  report,
})

type Op =
  | { kind: 'ingest'; capture: typeof capture extends fc.Arbitrary<infer C> ? C : never }
  | { kind: 'reanalyze'; id: number; report: object }
  | { kind: 'merge'; canonical: number; merged: number[] }
  | { kind: 'again'; back: number }
  | { kind: 'reset'; client: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: capture.map((c) => ({ kind: 'ingest' as const, capture: c })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reanalyze' as const), id: fc.integer({ min: 1, max: 13 }), report }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(11, 12, 13), fc.subarray([11, 12, 13], { minLength: 1 }))
      .map(([canonical, merged]) => ({ kind: 'merge' as const, canonical, merged: merged.filter((m) => m !== canonical) }))
      // A merge names at least one question (the schema's rule): merging a question into itself is no merge.
      .filter((merge) => merge.merged.length > 0),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('again' as const), back: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), client: fc.constantFrom(1, 2) }) },
)

const AT = new Date('2026-01-01T00:00:00Z')
const clientRow = (id: number) => ({
  id,
  org_id: ORG,
  name: `Client ${id}`,
  website_url: `https://client-${id}.example.com`,
  slug: `client-${id}`,
  status: 'active',
  created_at: AT,
  updated_at: AT,
  deactivated_at: null,
  deleted_at: null,
})
const queryRow = (id: number, clientId: number, service: string) => ({
  id,
  client_id: clientId,
  org_id: ORG,
  prompt: `question ${id}`,
  prompt_key: `question ${id}`,
  engine: 'any',
  service,
  location: '',
  kind: 'best-of',
  priority: 1,
  active: true,
  source: 'manual',
  created_at: AT,
  updated_at: AT,
})

let position = 0
function recorded(type: string, stream: string, data: unknown): RecordedEvent {
  position++
  return {
    id: `e${position}`,
    type,
    data,
    metadata: { org_id: ORG, occurred_at: '2026-03-01T00:00:00.000Z', schema_version: 1 },
    stream,
    revision: 0n,
    position: String(position),
    recordedAt: new Date('2026-03-01T00:00:00Z'),
  }
}

/** A report as the schema has it: the parts the summary does not read are empty. */
const fullReport = (report: object) => ({ source_table: [], claim_map: [], findings: [], ...report })

/** The events a sequence of operations appends (redeliveries repeat an earlier event as it was). */
function eventsOf(ops: readonly Op[]): RecordedEvent[] {
  const events: RecordedEvent[] = []
  const clientOf = new Map<number, number>()
  // A reset client is deleted first, so nothing of it is ingested (or redelivered) after the reset.
  const retired = new Set<number>()
  const ofRetired = (e: RecordedEvent) => e.type === 'AeoCaptureIngested' && retired.has((e.data as { client_id: number }).client_id)
  for (const o of ops) {
    if (o.kind === 'ingest') {
      const c = o.capture
      // A capture id belongs to one client for good (ids come from a sequence): the first ingest decides.
      const client = clientOf.get(c.id) ?? c.query.client
      clientOf.set(c.id, client)
      if (retired.has(client)) continue
      const query = QUERIES.find((q) => q.client === client && q.id === c.query.id) ?? QUERIES.find((q) => q.client === client)!
      events.push(
        recorded('AeoCaptureIngested', `aeo_capture-${c.id}`, {
          capture_id: c.id,
          client_id: client,
          query_id: query.id,
          engine: c.engine,
          month: c.month,
          run_id: null,
          answer_text: 'an answer',
          citations: [],
          retrieved: [],
          model: 'm',
          surface: 'api',
          searched: true,
          analysis_version: 1,
          report: fullReport(c.report),
          record_sha256: 'f'.repeat(64),
          record_bytes: 10,
        }),
      )
    } else if (o.kind === 'reanalyze') {
      events.push(
        recorded('AeoCaptureReanalyzed', `aeo_capture-${o.id}`, {
          capture_id: o.id,
          client_id: clientOf.get(o.id) ?? 1,
          analysis_version: 2,
          report: fullReport(o.report),
        }),
      )
    } else if (o.kind === 'merge') {
      events.push(recorded('AeoQuestionsMerged', 'aeo_questions-1', { client_id: 1, canonical_id: o.canonical, merged_ids: o.merged }))
    } else if (o.kind === 'again') {
      const earlier = events[Math.max(0, events.length - 1 - o.back)]
      if (earlier && !ofRetired(earlier)) events.push(earlier)
    } else {
      retired.add(o.client)
      events.push(recorded('SandboxReset', `sandbox-${ORG}`, { org_id: ORG, retired_client_ids: [o.client] }))
    }
  }
  return events
}

const byKey = <T extends { month: string; service: string; engine: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => `${a.month}|${a.service}|${a.engine}`.localeCompare(`${b.month}|${b.service}|${b.engine}`))

/** Every read the summary and the report make, from the totals and from the oracle, for one client. */
async function compare(read: ReadDb, clientId: number): Promise<string | null> {
  const [months, expectedMonths] = [await summaryMonths(read, clientId), await captureMonths(read, clientId)]
  if (JSON.stringify(months) !== JSON.stringify(expectedMonths))
    return `months ${JSON.stringify(months)} ≠ ${JSON.stringify(expectedMonths)}`
  const counts = byKey(await summaryCounts(read, clientId, MONTHS))
  const expectedCounts = byKey(await captureCounts(read, clientId, MONTHS))
  if (JSON.stringify(counts) !== JSON.stringify(expectedCounts))
    return `counts ${JSON.stringify(counts)} ≠ ${JSON.stringify(expectedCounts)}`
  for (const month of MONTHS) {
    for (const limit of [50, 2]) {
      const competitors = await summaryCompetitors(read, clientId, month, limit)
      const expected = await competitorMentions(read, clientId, month, limit)
      if (JSON.stringify(competitors) !== JSON.stringify(expected))
        return `${month} competitors ${JSON.stringify(competitors)} ≠ ${JSON.stringify(expected)}`
    }
  }
  for (const requested of [undefined, ...MONTHS]) {
    const summary = await loadVisibleSummary(read, ORG, clientId, requested, new Date('2026-04-02T00:00:00Z'))
    const month = requested ?? expectedMonths.at(-1) ?? '2026-04'
    const previous = expectedMonths.filter((m) => m < month).at(-1) ?? null
    const expected = summarizeRates({
      month,
      previousMonth: previous,
      counts: await captureCounts(read, clientId, previous ? [month, previous] : [month]),
      competitors: await competitorMentions(read, clientId, month),
    })
    const { client_id, months: summaryMonthList, open_items, queue, cadence, ...rates } = summary
    if (Number(client_id) !== clientId || JSON.stringify(summaryMonthList) !== JSON.stringify(expectedMonths))
      return `summary client ${JSON.stringify(client_id)}, months ${JSON.stringify(summaryMonthList)}`
    if (JSON.stringify(rates) !== JSON.stringify(expected))
      return `summary ${requested}: ${JSON.stringify(rates)} ≠ ${JSON.stringify(expected)}`
  }
  return null
}

t.test('the summary totals equal the aggregates of the captures, after any changes', async (t) => {
  const database = await createTestDatabase(t)
  const db = database.db
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 1, max: 8 }),
      fc.boolean(),
      async (ops, batchSize, perEvent) => {
        const events = eventsOf(ops)
        const failure = await inRolledBackTransaction(db, async (trx) => {
          await createScratchSchemas(trx, ['aeo_totals'])
          const read = schemaDb(trx, 'aeo_totals')
          for (const clientId of [1, 2]) {
            await read.insertInto('clients').values(clientRow(clientId)).execute()
          }
          await read
            .insertInto('aeo_queries')
            .values(QUERIES.map((q) => queryRow(q.id, q.client, q.service)))
            .execute()
          // Batches of a few events, as the runner applies them (the sandbox projector after the captures one):
          // the captures projector rebuilds aeo_summary_months once per batch. Or event by event (batches of
          // one), which rebuilds them per event: both must leave the same totals.
          for (let i = 0; i < events.length; i += batchSize) {
            const batch = events.slice(i, i + batchSize)
            if (!perEvent) {
              await applyEvents(read, [aeoCapturesProjector, sandboxProjector], batch)
              continue
            }
            for (const event of batch) await applyEvents(read, [aeoCapturesProjector], [event])
            await applyEvents(read, [sandboxProjector], batch)
          }
          for (const clientId of [1, 2]) {
            const clientExists = await read.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst()
            if (!clientExists) {
              // A reset client: no totals left, exactly as no captures left.
              const left = [
                ...(await read.selectFrom('aeo_summary_counts').select('client_id').where('client_id', '=', clientId).execute()),
                ...(await read.selectFrom('aeo_summary_months').select('client_id').where('client_id', '=', clientId).execute()),
              ]
              const captures = await captureMonths(read, clientId)
              if (left.length > 0 || captures.length > 0)
                return `client ${clientId} reset, ${left.length} totals and ${captures.length} capture months left`
              continue
            }
            const failure = await compare(read, clientId)
            if (failure) return `client ${clientId}: ${failure}`
          }
          return null
        })
        if (failure) throw new Error(failure)
      },
    ),
    { numRuns: 60 },
  )
  t.pass('totals equal the report_json aggregates for every sequence tried')
})
