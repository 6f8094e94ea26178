import type { Selectable } from 'kysely'
import type { ContentKind } from '../../../domain/publishing/projects/values.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
/** A page of a list (the registry's limit and offset). */
interface Page {
  readonly limit: number
  readonly offset: number
}
import type { ReadDb } from '../../tables.js'
import type { GeneratedContentTable } from './tables.js'

export type GeneratedContentRow = Selectable<GeneratedContentTable>

/** Generated content as the API shows it. */
export interface GeneratedContentView {
  id: number
  project_id: number
  sitemap_page_id: number
  client_id: number
  kind: ContentKind
  version: number
  is_current: boolean
  body: string
  writer: string
  created_at: string
  exported: boolean
  exported_at: string | null
  pushed: boolean
  pushed_at: string | null
  wp_post_id: number | null
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

export function contentView(r: GeneratedContentRow): GeneratedContentView {
  return {
    id: r.id,
    project_id: r.project_id,
    sitemap_page_id: r.sitemap_page_id,
    client_id: r.client_id,
    kind: r.kind as ContentKind,
    version: r.version,
    is_current: r.is_current,
    body: r.body,
    writer: r.writer,
    created_at: r.created_at.toISOString(),
    exported: r.exported_at !== null,
    exported_at: iso(r.exported_at),
    pushed: r.pushed_at !== null,
    pushed_at: iso(r.pushed_at),
    wp_post_id: r.wp_post_id,
  }
}

/** The contents if `orgId` may see every one of them (null: any organization); not_found naming the first that is missing or foreign. */
export async function contentsForOrg(read: ReadDb, contentIds: readonly number[], orgId: number | null): Promise<GeneratedContentRow[]> {
  const unique = [...new Set(contentIds)]
  if (unique.length === 0) return []
  let query = read.selectFrom('generated_content').selectAll().where('id', 'in', unique)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const rows = await query.execute()
  const found = new Set(rows.map((r) => r.id))
  const missing = unique.find((id) => !found.has(id))
  if (missing !== undefined) throw new NotFoundError('generated content', missing)
  return rows
}

/** Every version of the page's content, by kind, newest first. */
export async function contentForPage(read: ReadDb, pageId: number): Promise<GeneratedContentView[]> {
  const rows = await read
    .selectFrom('generated_content')
    .selectAll()
    .where('sitemap_page_id', '=', pageId)
    .orderBy('kind')
    .orderBy('version', 'desc')
    .execute()
  return rows.map(contentView)
}

/** The project's content, by page, kind and newest version first; currentOnly: only each page's current version of a kind. */
export async function contentForProject(read: ReadDb, projectId: number, currentOnly: boolean): Promise<GeneratedContentView[]> {
  let query = read.selectFrom('generated_content').selectAll().where('project_id', '=', projectId)
  if (currentOnly) query = query.where('is_current', '=', true)
  const rows = await query.orderBy('sitemap_page_id').orderBy('kind').orderBy('version', 'desc').execute()
  return rows.map(contentView)
}

/** Every content of the client's projects, newest first, a page at a time. */
export async function contentForClient(read: ReadDb, clientId: number, currentOnly: boolean, page: Page): Promise<GeneratedContentView[]> {
  let query = read.selectFrom('generated_content').selectAll().where('client_id', '=', clientId)
  if (currentOnly) query = query.where('is_current', '=', true)
  const rows = await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(contentView)
}

/**
 * What is waiting to leave: the current version of each page's content of each kind, on a live page (a deleted
 * page's content is not waiting for anything), not yet exported / not yet pushed. Oldest first.
 */
function waiting(read: ReadDb, clientId: number) {
  return read
    .selectFrom('generated_content as g')
    .innerJoin('sitemap_pages as p', 'p.id', 'g.sitemap_page_id')
    .where('g.client_id', '=', clientId)
    .where('g.is_current', '=', true)
    .where('p.deleted_at', 'is', null)
}

export async function unexportedContent(read: ReadDb, clientId: number): Promise<GeneratedContentView[]> {
  const rows = await waiting(read, clientId).selectAll('g').where('g.exported_at', 'is', null).orderBy('g.id').execute()
  return rows.map(contentView)
}

export async function countUnpushedContent(read: ReadDb, clientId: number): Promise<number> {
  const row = await waiting(read, clientId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('g.pushed_at', 'is', null)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}
