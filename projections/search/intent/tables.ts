/** The intent read models as kysely sees them (DDL in migrations/read-models/search-intent.ts). */
export type IntentReadModels = Record<never, never>
