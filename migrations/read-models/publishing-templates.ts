import type { Kysely } from 'kysely'

/** The section templates, the template catalog and template pages sub-area's read models (projections/publishing/templates). */
export async function createTemplatesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
