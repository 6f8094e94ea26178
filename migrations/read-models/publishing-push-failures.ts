import type { Kysely } from 'kysely'

/** The push failures sub-area's read models (projections/publishing/push-failures). */
export async function createPushFailuresTables(_db: Kysely<any>, _schema: string): Promise<void> {}
