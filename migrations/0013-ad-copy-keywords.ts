import { sql, type Kysely } from 'kysely'

/**
 * Id sequences of keywords, ad copy sets and their ad groups (ids the API shows; never reused, even across
 * a rebuild). Nothing else of these areas is durable outside the log: their tables are read models.
 */
export const AD_COPY_KEYWORD_ID_KINDS = ['keyword', 'ad_copy_set', 'ad_copy_ad_group'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of AD_COPY_KEYWORD_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of AD_COPY_KEYWORD_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
