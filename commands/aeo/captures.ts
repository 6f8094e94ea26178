import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { analyze, ANALYSIS_VERSION } from '../../domain/aeo/analysis/analyze.js'
import type { Engine } from '../../domain/aeo/engines.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { AeoCaptureIngested } from '../../domain/aeo/captures/events.js'
import { DomainError, NotFoundError } from '../../domain/shared/errors.js'
import { monthOfDate } from '../../domain/shared/months.js'
import type { CommandContext, WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { assertRunOfCapture } from './runs.js'
import { trackCapture } from './tracker.js'
import { analysisClient, canonicalQuestion, loadQuestionFacts, runCapture, writableClient } from './capture-facts.js'

/** The write side of captures also writes the raw-record work table (aeo_capture_records, public schema). */
export interface CaptureDeps extends WriteDeps {
  readonly db: Kysely<WorkTables>
}

/** The longest answer analyzed (the event contract's bound). */
export const MAX_ANSWER_CHARS = 200_000

/** Raw records above this size are refused (they are kept for audit, not as a data store). */
export const MAX_RECORD_BYTES = 900_000

export interface CitationInput {
  readonly url: string
  readonly title?: string | undefined
}

export interface IngestCaptureInput {
  readonly callerOrgId: number | null
  readonly clientId: number
  readonly queryId: number
  readonly engine: Engine
  readonly answerText: string
  readonly citations: readonly CitationInput[]
  readonly retrieved?: readonly CitationInput[] | undefined
  /** YYYY-MM; default the clock's month. */
  readonly month?: string | undefined
  readonly runId?: number | null | undefined
  /** The raw engine record: any JSON value, or a string kept as given. */
  readonly recordJson?: unknown
  readonly model?: string | undefined
  readonly surface?: string | undefined
  readonly searched?: boolean | null | undefined
}

/** Titles are cosmetic: a provider's over-long title is cut, not refused. */
const citation = (c: CitationInput) => (c.title === undefined ? { url: c.url } : { url: c.url, title: c.title.slice(0, 500) })

/** The raw record as stored: a string as given, anything else as JSON; '' when there is none. */
export function recordText(record: unknown): string {
  if (record === undefined || record === null) return ''
  return typeof record === 'string' ? record : JSON.stringify(record)
}

/**
 * Records one captured answer: validates the client (visible, not deleted), the question (one of the
 * client's, not deleted) and the run when one is named (the same client, question and engine), stores the raw record in aeo_capture_records, appends AeoCaptureIngested with the
 * inline analysis, then AeoCaptureTracked on the client's tracker. Nothing is written when validation fails.
 */
export async function ingestCapture(
  deps: CaptureDeps,
  context: CommandContext,
  input: IngestCaptureInput,
): Promise<{ captureId: number; position: Position | null }> {
  const clientState = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const questions = await loadQuestionFacts(deps.store, input.clientId)
  const question = questions.get(input.queryId)
  if (!question || question.deleted) throw new NotFoundError('question', input.queryId)
  if (input.runId !== undefined && input.runId !== null) {
    await assertRunOfCapture(
      deps,
      input.runId,
      { orgId: clientState.orgId, clientId: input.clientId, queryId: input.queryId, engine: input.engine },
      (a, b) => canonicalQuestion(questions, a) === canonicalQuestion(questions, b),
    )
  }
  const record = recordText(input.recordJson)
  const recordBytes = Buffer.byteLength(record, 'utf8')
  if (recordBytes > MAX_RECORD_BYTES) {
    throw new DomainError(
      'validation_failed',
      'record_json is too large',
      `record_json is ${recordBytes} bytes; the limit is ${MAX_RECORD_BYTES}`,
    )
  }
  if (input.answerText.length > MAX_ANSWER_CHARS) {
    throw new DomainError(
      'validation_failed',
      'answer_text is too long',
      `answer_text has ${input.answerText.length} characters; the limit is ${MAX_ANSWER_CHARS}`,
    )
  }
  const now = deps.clock()
  const citations = input.citations.map(citation)
  const retrieved = (input.retrieved ?? []).map(citation)
  const report = analyze({ answerText: input.answerText, citations, retrieved, client: analysisClient(clientState), question })
  const draft = {
    capture_id: 1,
    client_id: input.clientId,
    query_id: input.queryId,
    engine: input.engine,
    month: input.month ?? monthOfDate(now),
    run_id: input.runId ?? null,
    answer_text: input.answerText,
    citations,
    retrieved,
    model: input.model ?? '',
    surface: input.surface ?? '',
    searched: input.searched ?? null,
    record_sha256: createHash('sha256').update(record).digest('hex'),
    record_bytes: recordBytes,
    analysis_version: ANALYSIS_VERSION,
    report,
  }
  // Callers other than the RPC (the server agent) are held to the event contract before anything is written.
  const checked = AeoCaptureIngested.safeParse(draft)
  if (!checked.success) {
    const detail = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new DomainError('validation_failed', 'The capture is invalid', detail)
  }
  const captureId = await deps.ids.next('aeo_capture')
  const data = { ...draft, capture_id: captureId }
  await deps.db
    .insertInto('aeo_capture_records')
    .values({ capture_id: captureId, org_id: clientState.orgId, client_id: input.clientId, record_json: record, created_at: now })
    .onConflict((oc) => oc.column('capture_id').doNothing())
    .execute()
  await runCapture(deps, context, captureId, clientState.orgId, { type: 'IngestCapture', capture: data })
  const tracked = await trackCapture(deps, context, {
    clientId: input.clientId,
    orgId: clientState.orgId,
    captureId,
    queryId: input.queryId,
    engine: input.engine,
    month: data.month,
    scorecard: report.scorecard as unknown as Record<string, unknown>,
    findings: report.findings,
  })
  return { captureId, position: tracked.position }
}

/**
 * Prunes one raw record: AeoCaptureRecordPruned on the capture, then the record becomes '' in the work
 * table. The event comes first, so a crash in between is finished by the next pass (the command is then a no-op).
 */
export async function pruneCaptureRecord(
  deps: CaptureDeps,
  context: CommandContext,
  row: { capture_id: number; org_id: number },
): Promise<void> {
  await runCapture(deps, context, row.capture_id, row.org_id, { type: 'PruneCaptureRecord', capture_id: row.capture_id })
  await deps.db
    .updateTable('aeo_capture_records')
    .set({ record_json: '', pruned_at: deps.clock() })
    .where('capture_id', '=', row.capture_id)
    .where('pruned_at', 'is', null)
    .execute()
}
