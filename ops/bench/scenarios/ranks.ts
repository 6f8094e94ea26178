import type { Scenario } from '../types.js'

/** rank-ingest and rank-history-read (issue 24): filled in by the ranks area. */
export const rankScenarios: Scenario[] = []
