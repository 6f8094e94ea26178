/** The rank-checks read models as kysely sees them (DDL in migrations/read-models/search-rank-checks.ts). */
export type RankChecksReadModels = Record<never, never>
