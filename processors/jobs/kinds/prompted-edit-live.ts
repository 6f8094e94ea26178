import type { ConnectedSite } from '../../../commands/publishing/client-sites.js'
import { findPostForPage, type FoundPost } from '../../../commands/publishing/find-post.js'
import { WordPressError } from '../../../commands/publishing/wordpress/client.js'
import {
  elementorText,
  isElementorPage,
  readableText,
  withElementorText,
} from '../../../domain/publishing/site-publisher/elementor-text.js'
import { ELEMENTOR_DATA_META, type WordPressTarget } from '../../../domain/publishing/site-publisher/wordpress-target.js'
import type { PageRow } from '../../../projections/pages/queries.js'

/**
 * prompted_edit on a client whose WordPress site is connected: the proposal is written from the live post,
 * not from the newest snapshot, and the staged edit records the post's version (modified_gmt) so that
 * apply_site_edit can tell whether the page changed on the site in between. A page built with Elementor is
 * rewritten in its widgets' text (domain/publishing/site-publisher/elementor-text.ts), its layout kept.
 */
export interface LivePage {
  readonly found: FoundPost
  readonly field: WordPressTarget['field']
  /** What the writer is given: the raw post content, or the Elementor page's text fields joined by markers. */
  readonly text: string
  readonly title: string
}

/** The client's page as its WordPress site has it now, or null when the site has no post for it. */
export async function livePage(site: ConnectedSite, page: PageRow): Promise<LivePage | null> {
  let found: FoundPost | null
  try {
    found = await findPostForPage(site.wordpress, { url: page.url, wpPostId: page.wp_post_id })
  } catch (error) {
    if (error instanceof WordPressError)
      throw new Error(`reading ${page.url} from the client's WordPress site failed: ${error.category}: ${error.message}`)
    throw error
  }
  if (!found) return null
  const { post } = found
  const title = post.title.raw ?? post.title.rendered ?? ''
  const elementor = post.meta[ELEMENTOR_DATA_META]
  if (site.elementor && isElementorPage(elementor)) return { found, field: 'elementor_data', text: elementorText(elementor), title }
  return { found, field: 'content', text: post.content.raw ?? post.content.rendered ?? '', title }
}

/** The staged edit's `wordpress` part and its readable proposed content, or why the rewrite cannot go to the site. */
export function liveTarget(
  live: LivePage,
  rewritten: string,
): { wordpress: WordPressTarget; proposedContent: string } | { problem: string } {
  const base = { post_type: live.found.type, post_id: live.found.post.id, base_modified_gmt: live.found.post.modified_gmt }
  if (live.field === 'content') {
    return { wordpress: { ...base, field: 'content', proposed: rewritten, before: live.text }, proposedContent: rewritten }
  }
  const data = live.found.post.meta[ELEMENTOR_DATA_META] as string
  const next = withElementorText(data, rewritten)
  if ('problem' in next) return next
  return { wordpress: { ...base, field: 'elementor_data', proposed: next.data, before: data }, proposedContent: readableText(rewritten) }
}
