import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * What the WordPress publisher changed on a client's site, kept with the applied edit (SiteEditApplied.remote)
 * so that rollback_site_edit can put back exactly what was there and can tell whether someone changed the
 * post on the site since (then it refuses rather than overwrite their change).
 */

/** The fields of a post as they were before the write: only the fields the write set, raw (context=edit). */
export const PostFields = z.object({
  title: z.string().optional(),
  content: z.string().optional(),
  /** Registered meta the write set: an SEO plugin's title and description, Elementor's `_elementor_data`. */
  meta: z.record(z.string(), z.string()).optional(),
})
export type PostFields = z.infer<typeof PostFields>

export const WordPressPostType = z.enum(['pages', 'posts'])
export type WordPressPostType = z.infer<typeof WordPressPostType>

export const WordPressPostReceipt = z.object({
  kind: z.literal('wordpress_post'),
  post_type: WordPressPostType,
  post_id: Id,
  /** The post's modified_gmt right after the write: a rollback that finds another one refuses (site_edit_conflict). */
  modified_gmt: z.string().max(40),
  before: PostFields,
})

export const WordPressRedirectReceipt = z.object({
  kind: z.literal('wordpress_redirect'),
  /** The Redirection plugin's id of the redirect the apply created: rollback deletes it. */
  redirect_id: Id,
})

export const RemoteReceipt = z.discriminatedUnion('kind', [WordPressPostReceipt, WordPressRedirectReceipt])
export type RemoteReceipt = z.infer<typeof RemoteReceipt>

/** The publisher name recorded with an apply or rollback that reached a WordPress site. */
export const WORDPRESS_PUBLISHER = 'wordpress'
