import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { WordPressPostType } from './receipt.js'

/**
 * The part of a site edit's payload that says what to write on a connected WordPress site: prompted_edit adds
 * it when the client has a WordPress connection, having read the live post and written the proposal from it.
 * `base_modified_gmt` is the post's version then: apply_site_edit refuses (site_edit_conflict) when the site's
 * post has another one, because someone changed it on the site since and writing would overwrite that.
 */
export const WordPressTarget = z.object({
  post_type: WordPressPostType,
  post_id: Id,
  base_modified_gmt: z.string().min(1).max(40),
  /** Which field holds the page: its post content, or Elementor's `_elementor_data` (pages built with Elementor). */
  field: z.enum(['content', 'elementor_data']),
  /** The field's new value: raw HTML, or Elementor's JSON. */
  proposed: z.string(),
  /**
   * The field's value the proposal was written from: what a rollback puts back when the apply's own answer was
   * lost after the site took the write (the next apply finds `proposed` on the site and adopts it).
   */
  before: z.string(),
})
export type WordPressTarget = z.infer<typeof WordPressTarget>

/** The registered meta key of Elementor's layout. */
export const ELEMENTOR_DATA_META = '_elementor_data'

/** Where each SEO plugin keeps a post's title tag and meta description (registered meta, show_in_rest). */
export const SEO_META_KEYS = {
  yoast: { title: '_yoast_wpseo_title', description: '_yoast_wpseo_metadesc' },
  rank_math: { title: 'rank_math_title', description: 'rank_math_description' },
} as const
export type SeoPluginName = keyof typeof SEO_META_KEYS
