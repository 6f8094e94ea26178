import { restRootOf } from './address.js'
import { WordPressError } from './errors.js'
import { exchange, type ExchangeResult } from './request.js'
import type { WordPressCredentials, WordPressSettings } from './settings.js'
import { checkSite } from './check-site.js'
import { type Call, type CallOptions, shaped, shapedValue, wrongShape } from './shape.js'
import {
  WpPostSchema,
  WpRedirectListSchema,
  type SiteCheck,
  type WpPost,
  type WpPostFields,
  type WpPostQuery,
  type WpRedirect,
  type WpRedirectInput,
} from './types.js'

export { WordPressError } from './errors.js'
export type { WordPressCredentials, WordPressSettings } from './settings.js'
export type { SiteCheck, WpPost, WpPostFields, WpPostQuery, WpRedirect, WpRedirectInput } from './types.js'

/**
 * The one way the service talks to a client's WordPress site: its REST API (wp/v2, and the Redirection
 * plugin's redirection/v1), authenticated with an application password over HTTP Basic. Every method throws a
 * WordPressError (category, status, WordPress's code) and nothing else, except the caller's abort reason when
 * `signal` aborts. See request.ts for the bounds every request keeps.
 */
export interface WordPressClient {
  /** Verifies the address and the application password; what the site runs. */
  checkSite(): Promise<SiteCheck>
  /** A page or post with context=edit: raw title and content, modified_gmt, registered meta. */
  getPost(type: PostType, id: number): Promise<WpPost>
  /** Updates the given fields (POST /wp/v2/<type>/<id>); the post as stored after the write. */
  updatePost(type: PostType, id: number, fields: WpPostFields): Promise<WpPost>
  /** Creates a page or post (draft unless `status` says otherwise). */
  createPost(type: PostType, fields: WpPostFields): Promise<WpPost>
  /** One page of pages or posts (context=edit), with WordPress's X-WP-Total and X-WP-TotalPages. */
  listPosts(type: PostType, query?: WpPostQuery): Promise<{ posts: WpPost[]; total: number; totalPages: number }>
  /** Every redirect of the Redirection plugin (not_found when the plugin is not active). */
  listRedirects(): Promise<WpRedirect[]>
  createRedirect(redirect: WpRedirectInput): Promise<WpRedirect>
  deleteRedirect(id: number): Promise<void>
}

export type PostType = 'pages' | 'posts'

/** Redirection's page size (its largest); a site with more than MAX_REDIRECT_PAGES × this is cut (said in the error). */
const REDIRECT_PAGE_SIZE = 200
const MAX_REDIRECT_PAGES = 100
/** Only the head of the feed is read: <generator> is in the channel's first lines. */
const FEED_HEAD_BYTES = 64 * 1024

export function wordPressClient(settings: WordPressSettings, credentials: WordPressCredentials, signal?: AbortSignal): WordPressClient {
  const root = restRootOf(credentials.baseUrl, settings.allowList)
  const password = credentials.applicationPassword.replace(/\s+/g, '')
  const token = Buffer.from(`${credentials.username}:${password}`).toString('base64')
  const secrets = [password, credentials.applicationPassword, token]
  const headers = {
    authorization: `Basic ${token}`,
    accept: 'application/json',
    'user-agent': settings.userAgent,
  }

  // Without pretty permalinks (WordPress's "Plain" setting) /wp-json/ is not routed and the REST API answers
  // only at `<base>/?rest_route=/…`. The first answer that is a 404 WordPress's REST API did not write (no
  // error code: the web server's or the theme's 404 page) switches this client to that form, once.
  let plainPermalinks = false
  const plainRoot = plainRootOf(root)

  /** A REST route, e.g. `/wp/v2/pages/12` → https://example.com/wp-json/wp/v2/pages/12 (or ?rest_route=/wp/v2/pages/12). */
  const routeUrl = (route: string, query: Record<string, string | number | undefined> = {}) => {
    const params = new URLSearchParams()
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value))
    if (plainPermalinks) {
      const url = new URL(plainRoot)
      // The route stays readable (WordPress's own links write it unescaped); its characters need no escaping.
      url.search = `rest_route=${route}${params.size > 0 ? `&${params}` : ''}`
      return url
    }
    const url = new URL(route.replace(/^\/+/, ''), root)
    url.search = params.toString()
    return url
  }

  const send = (method: 'GET' | 'POST' | 'DELETE', route: string, options: CallOptions) =>
    exchange(
      settings,
      {
        method,
        url: routeUrl(route, options.query),
        headers: options.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        expect: 'json',
        idempotent: options.idempotent ?? method === 'GET',
        what: `${method} ${route}`,
        secrets,
      },
      signal,
    )

  const call: Call = async (method, route, options = {}) => {
    try {
      return await send(method, route, options)
    } catch (error) {
      if (plainPermalinks || !(error instanceof WordPressError) || error.category !== 'not_found' || error.code !== null) throw error
      plainPermalinks = true
      try {
        return await send(method, route, options)
      } catch (second) {
        // Not a permalinks matter after all: back to /wp-json/, and the first answer is the one that counts.
        plainPermalinks = false
        if (second instanceof WordPressError && second.category === 'not_found' && second.code === null) throw error
        throw second
      }
    }
  }

  const fetchText = async (url: URL, limit: number) =>
    exchange(
      settings,
      // The feed is public: the password is not sent where it is not needed.
      {
        method: 'GET',
        url,
        headers: { 'user-agent': settings.userAgent, accept: 'application/rss+xml, */*;q=0.5' },
        expect: 'text',
        textLimit: limit,
        idempotent: true,
        what: `GET ${url.pathname}${url.search}`,
        secrets,
      },
      signal,
    )

  const getPost = async (type: PostType, id: number) =>
    shaped(WpPostSchema, await call('GET', `/wp/v2/${type}/${postId(id)}`, { query: { context: 'edit' } }))

  return {
    checkSite: () => checkSite({ root, call, fetchText, feedUrl: feedUrlOf(credentials.baseUrl), feedHeadBytes: FEED_HEAD_BYTES }),
    getPost,
    async updatePost(type, id, fields) {
      // An update sends the same fields again when repeated: safe to retry. WordPress answers in the view
      // context on writes unless asked; context=edit returns raw title and content.
      const answer = await call('POST', `/wp/v2/${type}/${postId(id)}`, { query: { context: 'edit' }, body: fields, idempotent: true })
      return shaped(WpPostSchema, answer)
    },
    async createPost(type, fields) {
      return shaped(WpPostSchema, await call('POST', `/wp/v2/${type}`, { query: { context: 'edit' }, body: fields, idempotent: false }))
    },
    async listPosts(type, query = {}) {
      const answer = await call('GET', `/wp/v2/${type}`, {
        query: {
          context: 'edit',
          page: query.page,
          per_page: query.per_page,
          modified_after: query.modified_after,
          search: query.search,
          slug: query.slug,
          status: query.status,
        },
      })
      if (!Array.isArray(answer.json)) throw wrongShape(answer, 'a list of posts')
      const posts = answer.json.map((item) => shapedValue(WpPostSchema, item, answer))
      const total = headerCount(answer, 'x-wp-total') ?? posts.length
      const totalPages = headerCount(answer, 'x-wp-totalpages') ?? (posts.length > 0 ? 1 : 0)
      return { posts, total, totalPages }
    },
    async listRedirects() {
      const all: WpRedirect[] = []
      // Redirection counts pages from 0.
      for (let page = 0; page < MAX_REDIRECT_PAGES; page++) {
        const answer = await call('GET', '/redirection/v1/redirect', {
          query: { per_page: REDIRECT_PAGE_SIZE, page, orderby: 'id', direction: 'asc' },
        })
        const list = shaped(WpRedirectListSchema, answer)
        all.push(...list.items)
        if (list.items.length < REDIRECT_PAGE_SIZE || all.length >= list.total) return all
      }
      throw new WordPressError(
        'invalid_response',
        `GET /redirection/v1/redirect: more than ${MAX_REDIRECT_PAGES * REDIRECT_PAGE_SIZE} redirects`,
      )
    },
    async createRedirect(input) {
      const body = {
        url: input.url,
        action_type: 'url',
        action_code: input.code ?? 301,
        action_data: { url: input.target },
        match_type: 'url',
        regex: input.regex ?? false,
        group_id: input.group_id ?? 1,
        title: input.title ?? '',
        // Redirection answers a create with a page of its list: ask for the newest first, so the new one is in it.
        orderby: 'id',
        direction: 'desc',
        per_page: 20,
        page: 0,
      }
      const answer = await call('POST', '/redirection/v1/redirect', { body, idempotent: false })
      const created = newestMatching(shaped(WpRedirectListSchema, answer).items, input)
      if (created) return created
      // Not in the page it answered with (a site with a different default order): look it up.
      const again = newestMatching(await this.listRedirects(), input)
      if (again) return again
      throw new WordPressError(
        'invalid_response',
        'POST /redirection/v1/redirect: the site answered, but the new redirect is not in its list',
      )
    },
    async deleteRedirect(id) {
      // Redirection deletes through its bulk route; deleting one that is gone is a no-op there, as here.
      await call('POST', '/redirection/v1/bulk/redirect/delete', { body: { items: [postId(id)] }, idempotent: true })
    },
  }
}

/** `<base>/` without query: where `?rest_route=` goes. */
function plainRootOf(root: URL): URL {
  const url = new URL(root)
  url.pathname = url.pathname.replace(/wp-json\/$/, '')
  url.search = ''
  return url
}

/** `<base>/?feed=rss2`: works with and without pretty permalinks. */
function feedUrlOf(baseUrl: string): URL {
  const url = new URL(baseUrl.trim())
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/`
  url.search = '?feed=rss2'
  url.hash = ''
  return url
}

function newestMatching(items: readonly WpRedirect[], input: WpRedirectInput): WpRedirect | undefined {
  return items.filter((r) => r.url === input.url && r.action_data?.url === input.target).sort((a, b) => b.id - a.id)[0]
}

function postId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new WordPressError('rejected', `not a WordPress id: ${id}`)
  return id
}

function headerCount(answer: ExchangeResult, name: string): number | null {
  const value = Number(answer.headers[name])
  return Number.isSafeInteger(value) && value >= 0 ? value : null
}
