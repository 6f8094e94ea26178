import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/**
 * A content page's life on the client's WordPress: written (`draft`), waiting for a person (`pending_review`),
 * live (`published`), live and its check passed (`verified`) or did not (`failed`), in the bin (`trashed`).
 */
export const CONTENT_PAGE_STATUSES = ['draft', 'pending_review', 'published', 'verified', 'failed', 'trashed'] as const
export const ContentPageStatus = z.enum(CONTENT_PAGE_STATUSES)
export type ContentPageStatus = z.infer<typeof ContentPageStatus>

/**
 * Where each status may go. Only a live page is checked (verified / failed); a check may be repeated
 * (failed → verified, verified → failed); a page republished after a change is `published` again until its
 * next check; a trashed page comes back only as a draft (WordPress restores from the bin as a draft).
 */
const NEXT: Record<ContentPageStatus, readonly ContentPageStatus[]> = {
  draft: ['pending_review', 'published', 'trashed'],
  pending_review: ['draft', 'published', 'trashed'],
  published: ['verified', 'failed', 'draft', 'trashed'],
  verified: ['failed', 'published', 'draft', 'trashed'],
  failed: ['verified', 'published', 'draft', 'trashed'],
  trashed: ['draft'],
}

export function nextStatuses(from: ContentPageStatus): readonly ContentPageStatus[] {
  return NEXT[from]
}

/** Refuses a change the table above does not allow (staying where it is is always allowed: nothing changes). */
export function assertContentPageTransition(pageId: number, from: ContentPageStatus, to: ContentPageStatus): void {
  if (from === to || NEXT[from].includes(to)) return
  throw new DomainError(
    'content_page_status_invalid',
    'The content page cannot move to this status',
    `content page ${pageId} is ${from}; it may move to ${NEXT[from].join(', ')}, not ${to}`,
  )
}
