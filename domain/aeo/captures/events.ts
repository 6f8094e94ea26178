import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'
import { EngineValue } from '../engines.js'

/** A cited or retrieved source as the engine gave it. */
export const Citation = z.object({ url: z.string().max(2000), title: z.string().max(500).optional() })

/**
 * The analysis of one answer (report_json). Its shape is owned by domain/aeo/captures/analysis; it is
 * recorded whole so that a report never changes unless it is re-analyzed (a new event).
 */
export const AeoReport = z.object({
  scorecard: z.record(z.string(), z.unknown()),
  source_table: z.array(z.record(z.string(), z.unknown())),
  claim_map: z.array(z.record(z.string(), z.unknown())),
  entity_table: z.array(z.record(z.string(), z.unknown())),
  findings: z.array(z.record(z.string(), z.unknown())),
})

/**
 * One captured answer: stream `aeo_capture-<capture_id>`. The raw engine record (record_json) is not in
 * the log: it lives in the aeo_capture_records table (so it can be pruned after the retention period);
 * the event carries its size and sha256. The answer text and citations are here, because re-analysis needs
 * them.
 */
export const AeoCaptureIngested = z.object({
  capture_id: Id,
  client_id: Id,
  query_id: Id,
  engine: EngineValue,
  month: Month,
  run_id: Id.nullable(),
  answer_text: z.string().max(200_000),
  citations: z.array(Citation).max(500),
  /** Sources the engine retrieved but did not cite (server engines report both). */
  retrieved: z.array(Citation).max(500),
  model: z.string().max(200),
  surface: z.string().max(200),
  searched: z.boolean().nullable(),
  record_sha256: z.string(),
  record_bytes: z.number().int().min(0),
  analysis_version: z.number().int().positive(),
  report: AeoReport,
})

export const AeoCaptureReanalyzed = z.object({
  capture_id: Id,
  client_id: Id,
  analysis_version: z.number().int().positive(),
  report: AeoReport,
})

/** The raw record was pruned after the retention period (record_json reads as ''). */
export const AeoCaptureRecordPruned = z.object({ capture_id: Id, client_id: Id })

export const aeoCaptureEventSchemas = { AeoCaptureIngested, AeoCaptureReanalyzed, AeoCaptureRecordPruned } as const
type Schemas = typeof aeoCaptureEventSchemas
export type AeoCaptureEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
