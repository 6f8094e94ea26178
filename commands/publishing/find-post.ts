import type { WordPressPostType } from '../../domain/publishing/site-publisher/receipt.js'
import { WordPressError, type WordPressClient, type WpPost } from './wordpress/client.js'

/** A post of the site, with the REST collection it belongs to. */
export interface FoundPost {
  readonly type: WordPressPostType
  readonly post: WpPost
}

const TYPES: readonly WordPressPostType[] = ['pages', 'posts']

/** The path of a URL without its trailing slash ('' for the home page), or null when it is not a URL. */
function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname.replace(/\/+$/, '')
  } catch {
    return null
  }
}

/**
 * The WordPress post behind one of the client's pages (context=edit: raw fields and modified_gmt), or null
 * when the site has none: by the page's wp_post_id when known (a page, else a post), else by the slug of its
 * URL's last segment among every status, kept only when the post's own link has the same path. The home page
 * has no slug: it is found only by its wp_post_id (set_page or add_page sets it).
 */
export async function findPostForPage(
  wordpress: WordPressClient,
  page: { readonly url: string; readonly wpPostId: number | null },
): Promise<FoundPost | null> {
  if (page.wpPostId !== null) {
    for (const type of TYPES) {
      try {
        return { type, post: await wordpress.getPost(type, page.wpPostId) }
      } catch (error) {
        if (!(error instanceof WordPressError) || error.category !== 'not_found') throw error
      }
    }
    return null
  }
  const path = pathOf(page.url) ?? page.url.replace(/\/+$/, '')
  const slug = path.split('/').at(-1) ?? ''
  if (slug === '') return null
  for (const type of TYPES) {
    const { posts } = await wordpress.listPosts(type, { slug, status: 'any', per_page: 10 })
    const post = posts.find((p) => pathOf(p.link) === path)
    if (post) return { type, post }
  }
  return null
}
