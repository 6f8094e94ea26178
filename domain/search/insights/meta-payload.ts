import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { withMetaTags } from './head-tags.js'

/** The site edit operation a meta optimization stages. */
export const META_REWRITE = 'meta_rewrite'

/**
 * The payload (JSON text) of a meta_rewrite site edit. `title` and `description` are the new tags;
 * `proposed_content` is the page's content (from `before_snapshot_id`) with them written in (head-tags.ts),
 * which is what the built-in publisher records as the page's new snapshot, under `title`. `optimization_id`
 * links the edit back, so its publish and rollback are recorded on the optimization.
 */
export const MetaRewritePayload = z.object({
  optimization_id: Id,
  page_id: Id,
  page_url: z.string(),
  query: z.string(),
  title: z.string(),
  description: z.string(),
  current_title: z.string(),
  current_description: z.string(),
  before_snapshot_id: Id.nullable(),
  proposed_content: z.string(),
  writer: z.string(),
})
export type MetaRewritePayload = z.infer<typeof MetaRewritePayload>

export interface MetaRewriteSource {
  readonly optimizationId: number
  readonly pageId: number
  readonly pageUrl: string
  readonly query: string
  readonly title: string
  readonly description: string
  readonly currentTitle: string
  readonly currentDescription: string
  readonly writer: string
  /** The page's latest snapshot (null: none yet, the content is only the new tags). */
  readonly snapshot: { readonly id: number; readonly content: string } | null
}

export function metaRewritePayload(source: MetaRewriteSource): MetaRewritePayload {
  return {
    optimization_id: source.optimizationId,
    page_id: source.pageId,
    page_url: source.pageUrl,
    query: source.query,
    title: source.title,
    description: source.description,
    current_title: source.currentTitle,
    current_description: source.currentDescription,
    before_snapshot_id: source.snapshot?.id ?? null,
    proposed_content: withMetaTags(source.snapshot?.content ?? '', source.title, source.description),
    writer: source.writer,
  }
}

/** The optimization a site edit's payload links to, or null when the payload is not a meta_rewrite's. */
export function optimizationOfPayload(payload: string): number | null {
  try {
    const parsed = MetaRewritePayload.pick({ optimization_id: true }).safeParse(JSON.parse(payload))
    return parsed.success ? parsed.data.optimization_id : null
  } catch {
    return null
  }
}
