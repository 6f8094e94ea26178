/** The ranks read models as kysely sees them (DDL in migrations/read-models/search-ranks.ts). */
export type RanksReadModels = Record<never, never>
