import { z } from 'zod'
import { WordPressTarget } from '../publishing/site-publisher/wordpress-target.js'
import { Id } from '../shared/values.js'

/** The operation prompted_edit stages (spec: Site edit). */
export const ELEMENTOR_REWRITE = 'elementor_rewrite'

/**
 * The payload (JSON text) of an elementor_rewrite edit: what changes on which page and who wrote it. The
 * built-in publisher publishes `proposed_content` to `page_id`; any operation whose payload carries
 * `proposed_content` (and the page, by page_id here or the edit's page_url) can be published the same way.
 */
export const RewritePayload = z.object({
  instruction: z.string(),
  page_id: Id,
  page_url: z.string(),
  wp_post_id: Id.nullable(),
  /** The snapshot the proposal was written from (null: the page had no content yet). */
  before_snapshot_id: Id.nullable(),
  /** The page's text around the first change, before it. */
  before_excerpt: z.string(),
  proposed_content: z.string(),
  /** What the writer did, in one line. */
  summary: z.string(),
  /** `built-in` or the language model's name (e.g. `anthropic:claude-…`). */
  writer: z.string(),
  /** Written from the live WordPress post (the client's site is connected): what to write there, and its version then. */
  wordpress: WordPressTarget.optional(),
})
export type RewritePayload = z.infer<typeof RewritePayload>

/**
 * What a publisher needs from any payload: the new content and, optionally, the page it is for and its new
 * title (a meta_rewrite edit changes the title; without one the page keeps its title).
 */
export const PublishablePayload = z.object({
  proposed_content: z.string(),
  page_id: Id.optional(),
  title: z.string().trim().min(1).max(500).optional(),
})

/** The publishable part of a payload, or null when the payload is not JSON carrying proposed_content. */
export function publishablePayload(payload: string): z.infer<typeof PublishablePayload> | null {
  let json: unknown
  try {
    json = JSON.parse(payload)
  } catch {
    return null
  }
  const parsed = PublishablePayload.safeParse(json)
  return parsed.success ? parsed.data : null
}
