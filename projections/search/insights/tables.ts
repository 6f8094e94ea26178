/** The insights read models as kysely sees them (DDL in migrations/read-models/search-insights.ts). */
export type InsightsReadModels = Record<never, never>
