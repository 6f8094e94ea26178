import type { ConnectedSite } from '../../commands/publishing/client-sites.js'
import { findPostForPage, type FoundPost } from '../../commands/publishing/find-post.js'
import { WordPressError, type WpPost, type WpPostFields } from '../../commands/publishing/wordpress/client.js'
import { SitePublishError, type EditToPublish } from '../../commands/site-edits-publisher.js'
import { parseRedirectPayload, REDIRECT_OPERATION } from '../../domain/publishing/redirects/redirect-payload.js'
import type { PostFields, RemoteReceipt } from '../../domain/publishing/site-publisher/receipt.js'
import { ELEMENTOR_DATA_META, SEO_META_KEYS, WordPressTarget } from '../../domain/publishing/site-publisher/wordpress-target.js'
import { MetaRewritePayload } from '../../domain/search/insights/meta-payload.js'
import { pagesForClient } from '../../projections/pages/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import { pageUrlKey } from '../../domain/pages/url.js'

/**
 * Writes a site edit to the client's WordPress site and undoes it, through the REST API (the WordPress client
 * in commands/publishing/wordpress/ keeps every request bounded and policy-checked):
 *
 * - an edit staged from the live post (payload `wordpress`, prompted_edit on a connected client): its field
 *   (post content, or Elementor's `_elementor_data`) is written only when the post's modified_gmt is still the
 *   one the proposal was written from; otherwise someone changed the page on the site since, and the edit is
 *   refused as a conflict, nothing written;
 * - a meta_rewrite (a meta optimization): the SEO plugin's title and description fields, nothing else;
 * - a redirect: through the Redirection plugin (an identical redirect already on the site is adopted, so a
 *   retried apply never makes two).
 *
 * An apply whose write took on the site but whose answer was lost (a timeout after WordPress saved) is failed
 * and tried again: the retry finds the proposed value already there and adopts it, with the payload's `before`
 * as what the rollback restores, instead of calling the moved version a conflict or writing twice.
 *
 * The receipt keeps what each write replaced, exactly as the site had it, and the post's modified_gmt after
 * the write: a rollback writes the old values back only when the post is unchanged since. Failures are
 * WordPressErrors (a refused version check is category `conflict`) or SitePublishErrors (the edit itself
 * cannot go to a WordPress site); the site publisher records the former as push failures.
 */
export function wordPressPublisher(deps: { readonly read: ReadDb }) {
  return {
    async publish(edit: EditToPublish, site: ConnectedSite): Promise<RemoteReceipt> {
      if (edit.operation === REDIRECT_OPERATION) return publishRedirect(edit, site)
      const plan = await planPostWrite(deps.read, edit, site)
      if (plan.adopted) {
        const { type, post } = plan.found
        return { kind: 'wordpress_post', post_type: type, post_id: post.id, modified_gmt: post.modified_gmt, before: plan.adopted.before }
      }
      const before = fieldsBefore(plan.found.post, plan.fields)
      const written = await site.wordpress.updatePost(plan.found.type, plan.found.post.id, wpFields(plan.fields))
      try {
        assertTaken(written, wpFields(plan.fields))
      } catch (error) {
        // Part of the write may have taken: put back what was there before saying it failed.
        await site.wordpress.updatePost(plan.found.type, plan.found.post.id, wpFields(before)).catch(() => {})
        throw error
      }
      return { kind: 'wordpress_post', post_type: plan.found.type, post_id: written.id, modified_gmt: written.modified_gmt, before }
    },

    async restore(remote: RemoteReceipt, site: ConnectedSite): Promise<void> {
      if (remote.kind === 'wordpress_redirect') {
        await site.wordpress.deleteRedirect(remote.redirect_id)
        return
      }
      const now = await site.wordpress.getPost(remote.post_type, remote.post_id)
      if (now.modified_gmt !== remote.modified_gmt) {
        throw new WordPressError(
          'conflict',
          `wp:${remote.post_type}/${remote.post_id} changed on the site after the edit was applied (modified ${now.modified_gmt} GMT, applied ${remote.modified_gmt}): rolling back would overwrite that change`,
        )
      }
      const written = await site.wordpress.updatePost(remote.post_type, remote.post_id, wpFields(remote.before))
      assertTaken(written, wpFields(remote.before))
    },
  }
}

export type WordPressPublisher = ReturnType<typeof wordPressPublisher>

interface PostWrite {
  readonly found: FoundPost
  readonly fields: PostFields
  /** The site already has these fields (an earlier apply's write took, its answer was lost): nothing to write. */
  readonly adopted?: { readonly before: PostFields }
}

/** What to write where, checked against the live post; refuses what cannot or must not be written. */
async function planPostWrite(read: ReadDb, edit: EditToPublish, site: ConnectedSite): Promise<PostWrite> {
  const json = parseJson(edit.payload)
  const target = WordPressTarget.safeParse((json as { wordpress?: unknown } | null)?.wordpress)
  if (target.success) {
    const t = target.data
    const post = await site.wordpress.getPost(t.post_type, t.post_id)
    const fields: PostFields = t.field === 'content' ? { content: t.proposed } : { meta: { [ELEMENTOR_DATA_META]: t.proposed } }
    const current = t.field === 'content' ? post.content.raw : post.meta[ELEMENTOR_DATA_META]
    if (post.modified_gmt !== t.base_modified_gmt && current === t.proposed) {
      const before: PostFields = t.field === 'content' ? { content: t.before } : { meta: { [ELEMENTOR_DATA_META]: t.before } }
      return { found: { type: t.post_type, post }, fields, adopted: { before } }
    }
    if (post.modified_gmt !== t.base_modified_gmt) {
      throw new WordPressError(
        'conflict',
        `wp:${t.post_type}/${t.post_id} changed on the site after the edit was written (modified ${post.modified_gmt} GMT, written from ${t.base_modified_gmt}): stage it again`,
      )
    }
    return { found: { type: t.post_type, post }, fields }
  }
  const meta = MetaRewritePayload.safeParse(json)
  if (meta.success) {
    if (site.seoPlugin === null) {
      throw new SitePublishError(
        'site_edit_unpublishable',
        'a meta_rewrite writes the SEO plugin’s title and description, and the site has neither Yoast SEO nor Rank Math active',
        'wordpress',
      )
    }
    const keys = SEO_META_KEYS[site.seoPlugin]
    const found = await postOfPage(read, edit, site, meta.data.page_id)
    return { found, fields: { meta: { [keys.title]: meta.data.title, [keys.description]: meta.data.description } } }
  }
  throw new SitePublishError(
    'site_edit_unpublishable',
    'the edit was not written from the live WordPress page (it was staged before the client was connected, or by hand): stage it again with a prompted_edit job, which reads the live page and records its version',
    'wordpress',
  )
}

async function postOfPage(read: ReadDb, edit: EditToPublish, site: ConnectedSite, pageId: number): Promise<FoundPost> {
  const pages = await pagesForClient(read, edit.clientId, false)
  const page = pages.find((p) => p.id === pageId) ?? pages.find((p) => pageUrlKey(p.url) === pageUrlKey(edit.pageUrl))
  const found = await findPostForPage(site.wordpress, { url: page?.url ?? edit.pageUrl, wpPostId: page?.wp_post_id ?? null })
  if (!found) {
    throw new WordPressError(
      'not_found',
      `no WordPress page or post on the site for ${page?.url ?? edit.pageUrl} (set the page's wp_post_id with update_page)`,
    )
  }
  return found
}

async function publishRedirect(edit: EditToPublish, site: ConnectedSite): Promise<RemoteReceipt> {
  const parsed = parseRedirectPayload(edit.payload)
  if ('problem' in parsed) throw new SitePublishError('site_edit_unpublishable', `not a redirect: ${parsed.problem}`, 'wordpress')
  if (!site.redirection) {
    throw new WordPressError(
      'not_found',
      'the Redirection plugin is not active on the site (as of its last check): install and activate it, then check_client_connection, to publish redirects',
    )
  }
  const source = sitePath(parsed.payload.from_url)
  const target = parsed.payload.to_url
  // A retried apply whose first create reached the site before the answer was lost finds it here: adopted, not doubled.
  const existing = (await site.wordpress.listRedirects()).find((r) => r.url === source && r.action_data?.url === target)
  const redirect = existing ?? (await site.wordpress.createRedirect({ url: source, target, code: parsed.payload.status_code }))
  return { kind: 'wordpress_redirect', redirect_id: redirect.id }
}

/** Redirection matches the request's path (and query): an absolute from_url on the client's site becomes its path. */
function sitePath(url: string): string {
  if (url.startsWith('/')) return url
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/** The fields `write` sets, as the post has them now (raw). */
function fieldsBefore(post: WpPost, write: PostFields): PostFields {
  const before: { title?: string; content?: string; meta?: Record<string, string> } = {}
  if (write.title !== undefined) before.title = post.title.raw ?? post.title.rendered ?? ''
  if (write.content !== undefined) {
    if (post.content.raw === undefined) throw new WordPressError('invalid_response', 'the site did not send the raw content (context=edit)')
    before.content = post.content.raw
  }
  if (write.meta !== undefined) {
    before.meta = {}
    for (const key of Object.keys(write.meta)) {
      const value = post.meta[key]
      before.meta[key] = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value)
    }
  }
  return before
}

/**
 * WordPress ignores meta a site does not register for the REST API, answering 200 all the same: a write that
 * did not take is a failure to say, not a success to record.
 */
function assertTaken(post: WpPost, wrote: WpPostFields): void {
  for (const [key, value] of Object.entries(wrote.meta ?? {})) {
    if (post.meta[key] !== value) {
      throw new WordPressError(
        'rejected',
        `the site ignored the meta field ${key} (it is not registered for the REST API: its plugin is inactive, or the field needs show_in_rest)`,
      )
    }
  }
}

/** The fields as the WordPress client takes them: only those set. */
function wpFields(fields: PostFields): WpPostFields {
  return {
    ...(fields.title === undefined ? {} : { title: fields.title }),
    ...(fields.content === undefined ? {} : { content: fields.content }),
    ...(fields.meta === undefined ? {} : { meta: fields.meta }),
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
