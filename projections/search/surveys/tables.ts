/** The surveys read models as kysely sees them (DDL in migrations/read-models/search-surveys.ts). */
export type SurveysReadModels = Record<never, never>
