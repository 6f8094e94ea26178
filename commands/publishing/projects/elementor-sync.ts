import { notConnectedError } from '../../../domain/publishing/connections/site-connection.js'
import { elementorPages } from '../../../domain/publishing/projects/elementor-page.js'
import { openProject } from '../../../domain/publishing/projects/website-project.js'
import { isElementorPage } from '../../../domain/publishing/site-publisher/elementor-text.js'
import { ELEMENTOR_DATA_META } from '../../../domain/publishing/site-publisher/wordpress-target.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import type { ClientSites } from '../client-sites.js'
import { WordPressError } from '../wordpress/client.js'
import { recordElementorPage, removeElementorPage } from './elementor-pages.js'
import { websiteProjectOfOrg } from './website-projects.js'

/** Pages read per request (WordPress's largest page) and the most requests one sync makes. */
const PER_PAGE = 100
export const MAX_SYNC_REQUESTS = 20
/** The most refused pages an answer names (the count is always whole). */
const MAX_SKIPPED_LISTED = 20

export interface ElementorSyncOutcome {
  /** Pages the site listed (every status). */
  readonly seen: number
  /** Of those, pages built with Elementor. */
  readonly elementor: number
  /** Recorded now: new, or with another stamp or data than last time. */
  readonly recorded: number
  readonly unchanged: number
  /** Recorded before and gone from the site (or no longer built with Elementor): removed now. Only after a complete listing. */
  readonly removed: number
  /** Elementor pages the records refuse (data not JSON, too large), with the reason. */
  readonly skipped: readonly { readonly wp_post_id: number; readonly reason: string }[]
  readonly skipped_count: number
  /** false: the site has more pages than one sync reads (MAX_SYNC_REQUESTS × 100); nothing was removed. */
  readonly complete: boolean
  readonly position: Position | null
}

/**
 * sync_elementor_pages: reads the pages of the project's client's WordPress site (context=edit, every status) and
 * records each page built with Elementor as record_elementor_page would (the same stamp and data record nothing),
 * then removes the recorded pages the site no longer has, once it has listed them all. A site failure is the
 * WordPress error's category and message (502 site_publish_failed), nothing half-removed: removals come last.
 */
export async function syncElementorPages(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; sites: ClientSites; signal?: AbortSignal },
): Promise<ElementorSyncOutcome> {
  const project = await websiteProjectOfOrg(deps, input.orgId, input.projectId)
  openProject(project, project.projectId)
  const site = await input.sites.connected(project.clientId, input.signal)
  if (!site) throw notConnectedError(project.clientId)

  const onSite = new Set<number>()
  let seen = 0
  let recorded = 0
  let unchanged = 0
  const skipped: { wp_post_id: number; reason: string }[] = []
  const refused = new Set<number>()
  let position: Position | null = null
  let complete = false
  for (let page = 1; page <= MAX_SYNC_REQUESTS; page++) {
    const listed = await siteCall(() => site.wordpress.listPosts('pages', { status: 'any', per_page: PER_PAGE, page }))
    seen += listed.posts.length
    for (const post of listed.posts) {
      const data = post.meta[ELEMENTOR_DATA_META]
      if (!isElementorPage(data)) continue
      try {
        const outcome = await recordElementorPage(deps, context, {
          orgId: input.orgId,
          projectId: project.projectId,
          page: {
            wpPostId: post.id,
            title: (post.title.raw ?? post.title.rendered ?? '').slice(0, 500),
            slug: post.slug || null,
            status: post.status,
            link: post.link,
            modifiedGmt: post.modified_gmt,
            elementorData: data,
          },
        })
        onSite.add(post.id)
        if (outcome.recorded) recorded++
        else unchanged++
        position = outcome.position ?? position
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'validation_failed') throw error
        refused.add(post.id)
        if (skipped.length < MAX_SKIPPED_LISTED) skipped.push({ wp_post_id: post.id, reason: error.detail ?? error.message })
      }
    }
    if (page >= listed.totalPages || listed.posts.length < PER_PAGE) {
      complete = true
      break
    }
  }

  let removed = 0
  if (complete) {
    const state = await loadState(deps.store, elementorPages, project.projectId)
    for (const [id, stamp] of Object.entries(state.pages)) {
      const wpPostId = Number(id)
      if (stamp.removed || onSite.has(wpPostId) || refused.has(wpPostId)) continue
      const outcome = await removeElementorPage(deps, context, { orgId: input.orgId, projectId: project.projectId, wpPostId })
      if (outcome.removed) removed++
      position = outcome.position ?? position
    }
  }
  return {
    seen,
    elementor: onSite.size + refused.size,
    recorded,
    unchanged,
    removed,
    skipped,
    skipped_count: refused.size,
    complete,
    position,
  }
}

/** A site failure as the caller sees one: its category first. */
async function siteCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof WordPressError) {
      throw new DomainError('site_publish_failed', 'The site did not answer as WordPress does', `${error.category}: ${error.message}`)
    }
    throw error
  }
}
