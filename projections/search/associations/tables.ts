/** The associations read models as kysely sees them (DDL in migrations/read-models/search-associations.ts). */
export type AssociationsReadModels = Record<never, never>
