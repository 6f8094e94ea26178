/** The metrics read models as kysely sees them (DDL in migrations/read-models/search-metrics.ts). */
export type KeywordMetricsReadModels = Record<never, never>
