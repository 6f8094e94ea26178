import type { Kysely } from 'kysely'

/** The snapshots sub-area's read models (projections/monitoring/snapshots). */
export async function createSnapshotsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
