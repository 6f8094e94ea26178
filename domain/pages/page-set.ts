import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { PageEvent } from './events.js'
import { pageUrlKey, slugFromUrl } from './url.js'

/**
 * A client's pages (url, slug, wp_post_id, title, active): stream `pages-<client_id>`. add_page is
 * get-or-create by URL (compared by pageUrlKey): the same URL again updates the fields given and returns the
 * page's id; deactivate_pages_not_in_list marks every active page whose URL is not listed inactive.
 */
export const pageSetStream = (clientId: number) => `pages-${clientId}`

export interface PageRecord {
  readonly id: number
  readonly url: string
  readonly slug: string
  readonly wpPostId: number | null
  readonly title: string
  readonly active: boolean
}

export interface PageSetState {
  readonly clientId: number
  readonly pages: readonly PageRecord[]
}

export interface PageFields {
  readonly slug?: string | undefined
  readonly wp_post_id?: number | null | undefined
  readonly title?: string | undefined
  readonly active?: boolean | undefined
}

export type PageSetCommand =
  /** `page_id`: the id a new page gets (allocated by the caller; unused when the URL exists). */
  | ({ type: 'AddPage'; client_id: number; page_id: number; url: string } & PageFields)
  | { type: 'DeactivatePagesNotInList'; client_id: number; active_urls: readonly string[] }
  /** Pages a crawl found, each with the id it gets if new (allocated by the caller for the URLs pageIndex misses). */
  | { type: 'AddCrawledPages'; client_id: number; pages: readonly { url: string; title: string; page_id: number }[] }

export const initialPageSetState = (): PageSetState => ({ clientId: 0, pages: [] })

export function findPageByUrl(state: PageSetState, url: string): PageRecord | undefined {
  const key = pageUrlKey(url)
  return state.pages.find((p) => pageUrlKey(p.url) === key)
}

/**
 * The set's pages by URL key, for many look-ups at once (a crawl's batch): built once per batch instead of
 * comparing every URL with every page. A page added as a site path (`/about`) is also found by the path of
 * an absolute URL (`https://acme.example/about`), since a crawl only ever sees absolute URLs.
 */
export function pageIndex(state: PageSetState): (url: string) => PageRecord | undefined {
  const byKey = new Map<string, PageRecord>()
  const byPath = new Map<string, PageRecord>()
  for (const page of state.pages) {
    const key = pageUrlKey(page.url)
    if (!byKey.has(key)) byKey.set(key, page)
    if (key.startsWith('/') && !byPath.has(key)) byPath.set(key, page)
  }
  return (url) => {
    const key = pageUrlKey(url)
    const found = byKey.get(key)
    if (found || byPath.size === 0) return found
    const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*(.*)$/i.exec(key)?.[1]
    return path === undefined ? undefined : byPath.get(pageUrlKey(path === '' ? '/' : path))
  }
}

function evolvePageSet(state: PageSetState, event: PageEvent): PageSetState {
  switch (event.type) {
    case 'PageAdded': {
      const d = event.data
      const page: PageRecord = { id: d.page_id, url: d.url, slug: d.slug, wpPostId: d.wp_post_id, title: d.title, active: d.active }
      return { clientId: d.client_id, pages: [...state.pages, page] }
    }
    case 'PageUpdated': {
      const d = event.data
      return {
        ...state,
        pages: state.pages.map((p) =>
          p.id !== d.page_id
            ? p
            : {
                ...p,
                slug: d.slug ?? p.slug,
                wpPostId: d.wp_post_id === undefined ? p.wpPostId : d.wp_post_id,
                title: d.title ?? p.title,
                active: d.active ?? p.active,
              },
        ),
      }
    }
    case 'PagesDeactivated': {
      const ids = new Set(event.data.page_ids)
      return { ...state, pages: state.pages.map((p) => (ids.has(p.id) ? { ...p, active: false } : p)) }
    }
    default:
      return assertNever(event)
  }
}

function decidePageSet(command: PageSetCommand, state: PageSetState): PageEvent[] {
  switch (command.type) {
    case 'AddPage': {
      const existing = findPageByUrl(state, command.url)
      if (!existing) {
        if (command.wp_post_id != null && state.pages.some((p) => p.wpPostId === command.wp_post_id)) {
          throw new DomainError(
            'page_wp_post_id_taken',
            'Another page of the client has this wp_post_id',
            `wp_post_id ${command.wp_post_id}`,
          )
        }
        return [
          {
            type: 'PageAdded',
            data: {
              page_id: command.page_id,
              client_id: command.client_id,
              url: command.url,
              slug: command.slug ?? slugFromUrl(command.url),
              wp_post_id: command.wp_post_id ?? null,
              title: command.title ?? '',
              active: command.active ?? true,
            },
          },
        ]
      }
      const changes: { slug?: string; wp_post_id?: number | null; title?: string; active?: boolean } = {}
      if (command.slug !== undefined && command.slug !== existing.slug) changes.slug = command.slug
      if (command.wp_post_id !== undefined && command.wp_post_id !== existing.wpPostId) {
        if (command.wp_post_id !== null && state.pages.some((p) => p.id !== existing.id && p.wpPostId === command.wp_post_id)) {
          throw new DomainError(
            'page_wp_post_id_taken',
            'Another page of the client has this wp_post_id',
            `wp_post_id ${command.wp_post_id}`,
          )
        }
        changes.wp_post_id = command.wp_post_id
      }
      if (command.title !== undefined && command.title !== existing.title) changes.title = command.title
      if (command.active !== undefined && command.active !== existing.active) changes.active = command.active
      if (Object.keys(changes).length === 0) return []
      return [{ type: 'PageUpdated', data: { page_id: existing.id, client_id: command.client_id, ...changes } }]
    }
    case 'DeactivatePagesNotInList': {
      const keep = new Set(command.active_urls.map(pageUrlKey))
      const page_ids = state.pages.filter((p) => p.active && !keep.has(pageUrlKey(p.url))).map((p) => p.id)
      return page_ids.length === 0 ? [] : [{ type: 'PagesDeactivated', data: { client_id: command.client_id, page_ids } }]
    }
    case 'AddCrawledPages': {
      const find = pageIndex(state)
      const added = new Set<string>()
      const events: PageEvent[] = []
      for (const page of command.pages) {
        const key = pageUrlKey(page.url)
        if (find(page.url) || added.has(key)) continue // known, or twice in one batch: get, not create
        added.add(key)
        events.push({
          type: 'PageAdded',
          data: {
            page_id: page.page_id,
            client_id: command.client_id,
            url: page.url,
            slug: slugFromUrl(page.url),
            wp_post_id: null,
            title: page.title,
            active: true,
          },
        })
      }
      return events
    }
    default:
      return assertNever(command)
  }
}

export const pageSet: Aggregate<PageSetState, PageSetCommand, PageEvent> = {
  streamOf: pageSetStream,
  initialState: initialPageSetState,
  evolve: evolvePageSet,
  decide: decidePageSet,
}
