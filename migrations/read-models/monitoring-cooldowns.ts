import type { Kysely } from 'kysely'

/** The cooldowns sub-area's read models (projections/monitoring/cooldowns). */
export async function createCooldownsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
