import { SITEMAP_PAGE_STATUSES, type SitemapPageStatus } from './values.js'

/**
 * A planned page moves forward any number of stages (a writer that drafts in one go takes a page from planned
 * to drafted) and back one stage at a time (an approved draft reopened goes to drafted; a page taken off the
 * site goes from published to approved). Published needs the page's post id on the site.
 */
const rank = (status: SitemapPageStatus) => SITEMAP_PAGE_STATUSES.indexOf(status)

export function canMovePage(from: SitemapPageStatus, to: SitemapPageStatus): boolean {
  return rank(to) > rank(from) || rank(to) === rank(from) - 1
}

export function pageMovesFrom(from: SitemapPageStatus): SitemapPageStatus[] {
  return SITEMAP_PAGE_STATUSES.filter((to) => to !== from && canMovePage(from, to))
}
