/**
 * The capture aggregate in given/when/then form: ingested once, re-analyzed (recorded even when the
 * report is unchanged, so the audit shows the pass), and its raw record pruned once.
 */
import t from 'tap'
import { analyze, ANALYSIS_VERSION } from '../../domain/aeo/analysis/analyze.js'
import { capture, type CaptureData } from '../../domain/aeo/captures/capture.js'
import type { AeoCaptureEvent } from '../../domain/aeo/captures/events.js'
import * as f from './aeo-analysis-fixtures.js'
import { spec } from './given-when-then.js'

const report = analyze(f.input(f.namedLater, f.namedLaterCitations))
const data: CaptureData = {
  capture_id: 5,
  client_id: 7,
  query_id: 11,
  engine: 'claude',
  month: '2026-10',
  run_id: null,
  answer_text: f.namedLater,
  citations: f.namedLaterCitations,
  retrieved: [],
  model: 'claude-sonnet-4-5',
  surface: 'api',
  searched: true,
  record_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  record_bytes: 0,
  analysis_version: ANALYSIS_VERSION,
  report,
}
const ingested: AeoCaptureEvent = { type: 'AeoCaptureIngested', data }
const given = spec(capture)

t.test('a capture is ingested once', async (t) => {
  given().when({ type: 'IngestCapture', capture: data }).then(t, [ingested])
  given(ingested).when({ type: 'IngestCapture', capture: data }).thenNothingHappens(t)
})

t.test('re-analysis records the new report and version; a missing capture is not found', async (t) => {
  const next = analyze(f.input(f.absent, f.absentCitations))
  given(ingested)
    .when({ type: 'ReanalyzeCapture', capture_id: 5, analysis_version: 2, report: next })
    .then(t, [{ type: 'AeoCaptureReanalyzed', data: { capture_id: 5, client_id: 7, analysis_version: 2, report: next } }])
  given().when({ type: 'ReanalyzeCapture', capture_id: 5, analysis_version: 2, report: next }).thenThrows(t, 'not_found')
})

t.test('the raw record is pruned once; nothing to prune without a capture', async (t) => {
  const pruned: AeoCaptureEvent = { type: 'AeoCaptureRecordPruned', data: { capture_id: 5, client_id: 7 } }
  given(ingested).when({ type: 'PruneCaptureRecord', capture_id: 5 }).then(t, [pruned])
  given(ingested, pruned).when({ type: 'PruneCaptureRecord', capture_id: 5 }).thenNothingHappens(t)
  given().when({ type: 'PruneCaptureRecord', capture_id: 5 }).thenNothingHappens(t)
})
