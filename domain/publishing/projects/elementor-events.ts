import { z } from 'zod'
import { Id } from '../../shared/values.js'
import {
  ELEMENTOR_DATA_MAX_BYTES,
  ELEMENTOR_LINK_MAX_LENGTH,
  ELEMENTOR_SLUG_MAX_LENGTH,
  ELEMENTOR_STATUS_MAX_LENGTH,
  ELEMENTOR_TITLE_MAX_LENGTH,
  ModifiedGmt,
  Sha256Hex,
  WidgetCounts,
} from './elementor-values.js'

/**
 * Elementor pages, on the project's stream `elementor_pages-<project_id>` (apart from the project's own: the
 * page texts are large and a sync writes them often). A page is keyed by its WordPress post id.
 */

/** record_elementor_page: the page's values after the change (a new stamp or new data). */
export const ElementorPageRecorded = z.object({
  project_id: Id,
  client_id: Id,
  wp_post_id: Id,
  title: z.string().max(ELEMENTOR_TITLE_MAX_LENGTH),
  slug: z.string().max(ELEMENTOR_SLUG_MAX_LENGTH).nullable(),
  /** WordPress's post status (publish, draft, …). */
  status: z.string().max(ELEMENTOR_STATUS_MAX_LENGTH).nullable(),
  link: z.string().max(ELEMENTOR_LINK_MAX_LENGTH).nullable(),
  modified_gmt: ModifiedGmt,
  /** The `_elementor_data` JSON text (an array of elements). Character count bounded by the byte cap. */
  elementor_data: z.string().max(ELEMENTOR_DATA_MAX_BYTES),
  elementor_data_sha256: Sha256Hex,
  widget_counts: WidgetCounts,
})

/** remove_elementor_page: the page is gone from the site. */
export const ElementorPageRemoved = z.object({ project_id: Id, client_id: Id, wp_post_id: Id })

export const elementorPageEventSchemas = { ElementorPageRecorded, ElementorPageRemoved } as const

type Schemas = typeof elementorPageEventSchemas
export type ElementorPageEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
