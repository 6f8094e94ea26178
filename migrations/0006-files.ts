import { sql, type Kysely } from 'kysely'

/**
 * The default blob store: files (filed reports, exports) live in PostgreSQL, in chunks, so that any API
 * process can serve what any processor wrote, with no shared disk to configure, and a large file streams
 * in and out in constant memory.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table files (
      path text primary key,
      org_id bigint,
      content_type text not null,
      bytes bigint not null,
      sha256 text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz
    )`.execute(db)
  await sql`create index files_org on files (org_id, created_at)`.execute(db)
  await sql`
    create table file_chunks (
      path text not null references files (path) on delete cascade deferrable initially deferred,
      seq integer not null,
      data bytea not null,
      primary key (path, seq)
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table file_chunks`.execute(db)
  await sql`drop table files`.execute(db)
}
