import { sql, type Kysely } from 'kysely'

/**
 * Id sequences of SEO insights and meta optimizations (search tracking, domain/search/insights): ids the API
 * shows, never reused, even across a rebuild. Nothing else of them is durable outside the log: seo_insights
 * and meta_optimizations are read models.
 */
export const SEO_INSIGHT_ID_KINDS = ['seo_insight', 'meta_optimization'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SEO_INSIGHT_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of SEO_INSIGHT_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
