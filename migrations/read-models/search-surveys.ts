import type { Kysely } from 'kysely'

/** The surveys read models (projections/search/surveys). */
export async function createSurveysTables(_db: Kysely<any>, _schema: string): Promise<void> {}
