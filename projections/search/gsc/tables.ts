/** The gsc read models as kysely sees them (DDL in migrations/read-models/search-gsc.ts). */
export type GscReadModels = Record<never, never>
