import type { Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { ElementorPagesTable } from './tables.js'

type ElementorPageRow = Selectable<ElementorPagesTable>

/** An Elementor page as get_elementor_pages lists it (without its data: that can be 512 KiB a page). */
export interface ElementorPageSummary {
  project_id: number
  client_id: number
  wp_post_id: number
  title: string
  slug: string | null
  status: string | null
  link: string | null
  modified_gmt: string
  elementor_data_sha256: string
  elementor_data_bytes: number
  widget_counts: Record<string, number>
  recorded_at: string
}

/** An Elementor page with its `_elementor_data` text (get_elementor_page). */
export interface ElementorPageView extends ElementorPageSummary {
  elementor_data: string
}

/** Each page's stamp, to compare with the site's modified_gmt (get_elementor_page_stamps). */
export interface ElementorPageStampView {
  wp_post_id: number
  modified_gmt: string
  elementor_data_sha256: string
}

const summaryColumns = [
  'project_id',
  'client_id',
  'wp_post_id',
  'title',
  'slug',
  'status',
  'link',
  'modified_gmt',
  'elementor_data_sha256',
  'elementor_data_bytes',
  'widget_counts',
  'recorded_at',
] as const

function summaryView(r: Omit<ElementorPageRow, 'org_id' | 'elementor_data'>): ElementorPageSummary {
  return {
    project_id: r.project_id,
    client_id: r.client_id,
    wp_post_id: r.wp_post_id,
    title: r.title,
    slug: r.slug,
    status: r.status,
    link: r.link,
    modified_gmt: r.modified_gmt,
    elementor_data_sha256: r.elementor_data_sha256,
    elementor_data_bytes: r.elementor_data_bytes,
    widget_counts: r.widget_counts,
    recorded_at: r.recorded_at.toISOString(),
  }
}

/** The project's pages on the site, by post id. */
export async function elementorPagesOf(read: ReadDb, projectId: number): Promise<ElementorPageSummary[]> {
  const rows = await read
    .selectFrom('elementor_pages')
    .select(summaryColumns)
    .where('project_id', '=', projectId)
    .orderBy('wp_post_id')
    .execute()
  return rows.map(summaryView)
}

/** One page with its data; not_found when the project has no such page on its site (never recorded, or removed). */
export async function elementorPageOf(read: ReadDb, projectId: number, wpPostId: number): Promise<ElementorPageView> {
  const row = await read
    .selectFrom('elementor_pages')
    .select([...summaryColumns, 'elementor_data'])
    .where('project_id', '=', projectId)
    .where('wp_post_id', '=', wpPostId)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('elementor page', wpPostId)
  return { ...summaryView(row), elementor_data: row.elementor_data }
}

/** Every page's stamp and data hash, by post id. */
export async function elementorPageStampsOf(read: ReadDb, projectId: number): Promise<ElementorPageStampView[]> {
  return read
    .selectFrom('elementor_pages')
    .select(['wp_post_id', 'modified_gmt', 'elementor_data_sha256'])
    .where('project_id', '=', projectId)
    .orderBy('wp_post_id')
    .execute()
}
