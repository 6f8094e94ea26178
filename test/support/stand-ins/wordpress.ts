/**
 * A small in-memory WordPress on 127.0.0.1, speaking the REST API's wire format for what the service uses
 * (commands/publishing/wordpress/): the REST index, users/me, pages and posts (lists with X-WP-Total /
 * X-WP-TotalPages, context=edit, modified_after, search, status; read, update and create by id), plugins,
 * the active theme, the Redirection plugin's redirection/v1 (list, create, bulk delete), WordPress's error
 * JSON `{code, message, data: {status}}`, application-password Basic auth (spaces ignored, as WordPress does;
 * a wrong password → 401 incorrect_password, an unknown user → 401 invalid_username) and the public RSS feed
 * whose <generator> carries the version. Meta fields are the ones the site's plugins register (Yoast or
 * Rank Math, Elementor); others sent in a write are ignored, as WordPress ignores unregistered meta.
 * `modified_gmt` moves forward on every write (one second at least, WordPress's resolution), whoever writes.
 *
 * Test handles (`site`): seed pages and posts, change one "on the site" as a person in wp-admin would, read
 * what is stored, switch plugins, and inject failures into the next answers (`inject`, `failNext`): an
 * error status (with Retry-After), a stall (headers never come), a trickle (headers, then a byte now and
 * then), an HTML page, a huge body (streamed with back-pressure; `hugeBytesSent` says how much went out
 * before the client hung up), a redirect, a reset connection, or any raw answer. Every request is logged
 * (`requests`: method, path, query, who authenticated, body) so a test can assert what was and was not asked.
 *
 *   const wp = await startWordPressStandIn({ seo: 'yoast' })
 *   t.teardown(() => wp.close())
 *   const page = wp.site.addPage({ title: 'About', content: '<p>Hi</p>' })
 *   const client = wordPressClient(standInSettings(), wp.credentials)
 *   const error = await wordPressFailure(client.getPost('pages', 999)) // error.category === 'not_found'
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { WordPressError } from '../../../commands/publishing/wordpress/errors.js'
import type { WordPressSettings } from '../../../commands/publishing/wordpress/settings.js'
import { parseAllowList } from '../../../domain/webhooks/url-policy.js'

export type StandInPostType = 'page' | 'post'
export type StandInSeo = 'yoast' | 'rank_math' | null

export interface WordPressStandInOptions {
  /** The application password's user (default `editor`, id 1). */
  readonly username?: string
  /** As WordPress shows it, with spaces (default `abcd EFGH 1234 ijkl MNOP 5678`). */
  readonly applicationPassword?: string
  readonly displayName?: string
  /** The user's roles (default administrator: may list plugins and manage redirects). */
  readonly roles?: readonly string[]
  /** The site's title (default `Harbor Street Bakery`) and tagline. */
  readonly name?: string
  readonly description?: string
  /** The feed's generator version (default 6.6.2); null: the feed hides it (as security plugins do). */
  readonly wpVersion?: string | null
  /** false: the feed is off (a plugin disables feeds): /?feed=rss2 is the theme's page, no generator. */
  readonly feed?: boolean
  /** The SEO plugin active (default yoast). */
  readonly seo?: StandInSeo
  /** The Redirection plugin active (default true). */
  readonly redirection?: boolean
  /** Elementor active (default false). */
  readonly elementor?: boolean
  readonly theme?: { readonly stylesheet: string; readonly name: string; readonly version: string }
  /** `plain`: WordPress's Plain permalinks, /wp-json/ is the theme's 404 and only `?rest_route=` answers (default pretty). */
  readonly permalinks?: 'pretty' | 'plain'
  /** The time writes are stamped with (default the system clock). */
  readonly clock?: () => Date
}

/** A page or post as the site stores it (raw fields). */
export interface StoredPost {
  readonly id: number
  readonly type: StandInPostType
  slug: string
  status: string
  title: string
  content: string
  date_gmt: string
  modified_gmt: string
  meta: Record<string, unknown>
}

export interface SeedPost {
  readonly title?: string
  readonly content?: string
  readonly slug?: string
  readonly status?: string
  readonly meta?: Readonly<Record<string, unknown>>
  /** WordPress's format, e.g. 2026-01-31T09:00:00 (GMT). */
  readonly date_gmt?: string
}

export interface StoredRedirect {
  readonly id: number
  url: string
  action_code: number
  action_type: string
  action_data: { url: string }
  match_type: string
  regex: boolean
  group_id: number
  enabled: boolean
  title: string
  hits: number
}

export type StandInFault =
  | { readonly kind: 'status'; readonly status: number; readonly code?: string; readonly message?: string; readonly retryAfter?: string }
  /** The headers never come (a hung PHP worker), until the client gives up. */
  | { readonly kind: 'stall' }
  /** The ordinary answer, after a pause. */
  | { readonly kind: 'delay'; readonly ms: number }
  /** 200 JSON headers, then one byte every `everyMs` (default 20), forever (slow loris). */
  | { readonly kind: 'trickle'; readonly everyMs?: number }
  /** An HTML page (a maintenance page, a security plugin's block page), 200 unless told. */
  | { readonly kind: 'html'; readonly status?: number }
  /** A JSON answer of `bytes` bytes, streamed; with `contentLength` the size is declared up front. */
  | { readonly kind: 'huge'; readonly bytes: number; readonly contentLength?: boolean }
  | { readonly kind: 'redirect'; readonly location: string; readonly status?: number }
  /** The connection is destroyed without an answer. */
  | { readonly kind: 'reset' }
  /** WordPress carries the request out (a write is saved), then the connection drops before the answer. */
  | { readonly kind: 'lost_answer' }
  | { readonly kind: 'raw'; readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body: string }

export interface StandInRequest {
  readonly method: string
  /** The path, e.g. /wp-json/wp/v2/pages/3. */
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** `valid`: the application password matched; `invalid`: credentials sent but wrong; `none`: no credentials. */
  readonly auth: 'valid' | 'invalid' | 'none'
  /** The raw Authorization header (tests check what was sent where). */
  readonly authorization: string | undefined
  readonly body: unknown
}

export interface StandInSite {
  addPage(fields?: SeedPost): StoredPost
  addPost(fields?: SeedPost): StoredPost
  /** What is stored now (a copy), or undefined. */
  get(type: StandInPostType, id: number): StoredPost | undefined
  all(type: StandInPostType): StoredPost[]
  /** Changes a page or post as a person in wp-admin would (modified_gmt moves forward). */
  editOnSite(type: StandInPostType, id: number, fields: SeedPost): StoredPost
  /** Deletes a page or post (later reads answer 404 rest_post_invalid_id). */
  remove(type: StandInPostType, id: number): void
  redirects(): StoredRedirect[]
  addRedirect(source: string, target: string, code?: number): StoredRedirect
  /** Turns plugins on or off (the index's namespaces, plugins' status and registered meta follow). */
  setPlugins(plugins: { seo?: StandInSeo; redirection?: boolean; elementor?: boolean }): void
  /** Sets the roles of the user (e.g. ['editor']: plugins are then 403, redirects 403). */
  setRoles(roles: readonly string[]): void
  /** Applies `fault` to the next `times` (default 1) requests whose path starts with `path` (default any), of `method` when given. */
  inject(fault: StandInFault, options?: { times?: number; path?: string; method?: string }): void
  /** The next `times` requests answer `status` (default 500) with WordPress's error JSON. */
  failNext(times: number, status?: number, options?: { code?: string; message?: string; retryAfter?: string; path?: string }): void
  clearFaults(): void
  /** Bytes the last `huge` answer wrote before the client stopped reading (or all of them). */
  readonly hugeBytesSent: number
  /** The most requests this site has had open at once (a client's per-site limit shows here). */
  readonly peakConcurrency: number
}

export interface WordPressStandIn {
  /** The site's address (its home), e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string
  /** The REST API's root: `${url}/wp-json/` (plain permalinks: `${url}/?rest_route=/`). */
  readonly restUrl: string
  readonly username: string
  readonly applicationPassword: string
  /** `{ baseUrl, username, applicationPassword }`, as the client takes them. */
  readonly credentials: { readonly baseUrl: string; readonly username: string; readonly applicationPassword: string }
  readonly requests: StandInRequest[]
  readonly site: StandInSite
  close(): Promise<void>
}

class WpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private']
const PLUGIN_FILES = {
  yoast: { plugin: 'wordpress-seo/wp-seo', name: 'Yoast SEO', version: '23.5' },
  rank_math: { plugin: 'seo-by-rank-math/rank-math', name: 'Rank Math SEO', version: '1.0.228' },
  redirection: { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.0' },
  elementor: { plugin: 'elementor/elementor', name: 'Elementor', version: '3.24.4' },
}

/** WordPress's date format in the REST API: no zone, no fraction. */
const wpDate = (date: Date) => date.toISOString().slice(0, 19)

export async function startWordPressStandIn(options: WordPressStandInOptions = {}): Promise<WordPressStandIn> {
  const username = options.username ?? 'editor'
  const applicationPassword = options.applicationPassword ?? 'abcd EFGH 1234 ijkl MNOP 5678'
  const clock = options.clock ?? (() => new Date())
  const plugins = {
    seo: options.seo === undefined ? ('yoast' as StandInSeo) : options.seo,
    redirection: options.redirection ?? true,
    elementor: options.elementor ?? false,
  }
  let roles: readonly string[] = options.roles ?? ['administrator']
  const theme = options.theme ?? { stylesheet: 'astra', name: 'Astra', version: '4.8.3' }
  const siteName = options.name ?? 'Harbor Street Bakery'
  const posts = new Map<number, StoredPost>()
  const redirects = new Map<number, StoredRedirect>()
  let nextPostId = 1
  let nextRedirectId = 1
  let lastStamp = 0
  const faults: { fault: StandInFault; remaining: number; path: string; method?: string }[] = []
  const requests: StandInRequest[] = []
  let hugeBytesSent = 0
  let open = 0
  let peakConcurrency = 0
  const timers = new Set<NodeJS.Timeout>()
  let url = ''

  /** modified_gmt moves forward on every write, by a second at least (WordPress stores whole seconds). */
  const stamp = () => {
    const now = Math.max(Math.floor(clock().getTime() / 1000) * 1000, lastStamp + 1000)
    lastStamp = now
    return wpDate(new Date(now))
  }

  const registeredMeta = (): string[] => [
    ...(plugins.seo === 'yoast' ? ['_yoast_wpseo_title', '_yoast_wpseo_metadesc'] : []),
    ...(plugins.seo === 'rank_math' ? ['rank_math_title', 'rank_math_description'] : []),
    ...(plugins.elementor ? ['_elementor_data', '_elementor_edit_mode'] : []),
  ]

  const uniqueSlug = (wanted: string, type: StandInPostType, id: number) => {
    const base = slugify(wanted) || String(id)
    let slug = base
    for (let n = 2; [...posts.values()].some((p) => p.type === type && p.id !== id && p.slug === slug); n++) slug = `${base}-${n}`
    return slug
  }

  const seed = (type: StandInPostType, fields: SeedPost = {}): StoredPost => {
    const id = nextPostId++
    const title = fields.title ?? `${type === 'page' ? 'Page' : 'Post'} ${id}`
    const modified = stamp()
    const post: StoredPost = {
      id,
      type,
      slug: '',
      status: fields.status ?? 'publish',
      title,
      content: fields.content ?? '',
      date_gmt: fields.date_gmt ?? modified,
      modified_gmt: modified,
      meta: { ...(fields.meta ?? {}) },
    }
    post.slug = uniqueSlug(fields.slug ?? title, type, id)
    posts.set(id, post)
    return { ...post, meta: { ...post.meta } }
  }

  const find = (type: StandInPostType, id: number) => {
    const post = posts.get(id)
    return post && post.type === type ? post : undefined
  }

  const serialize = (post: StoredPost, edit: boolean) => {
    const meta: Record<string, unknown> = {}
    for (const key of registeredMeta()) meta[key] = post.meta[key] ?? ''
    const link = `${url}/${post.slug}/`
    return {
      id: post.id,
      date: post.date_gmt,
      date_gmt: post.date_gmt,
      guid: { rendered: `${url}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`, ...(edit ? { raw: `${url}/?p=${post.id}` } : {}) },
      modified: post.modified_gmt,
      modified_gmt: post.modified_gmt,
      slug: post.slug,
      status: post.status,
      type: post.type,
      link,
      title: { rendered: escapeHtml(post.title), ...(edit ? { raw: post.title } : {}) },
      content: { rendered: post.content, protected: false, ...(edit ? { raw: post.content, block_version: 0 } : {}) },
      author: 1,
      parent: 0,
      menu_order: 0,
      template: '',
      // PHP sends an empty associative array as [].
      meta: Object.keys(meta).length === 0 ? [] : meta,
      ...(plugins.seo === 'yoast'
        ? {
            yoast_head_json: {
              title: (post.meta._yoast_wpseo_title as string) || `${post.title} - ${siteName}`,
              ...(post.meta._yoast_wpseo_metadesc ? { description: post.meta._yoast_wpseo_metadesc as string } : {}),
              canonical: link,
            },
          }
        : {}),
    }
  }

  const index = () => ({
    name: siteName,
    description: options.description ?? 'Fresh bread on the harbour since 1998',
    url,
    home: url,
    gmt_offset: 0,
    timezone_string: '',
    namespaces: [
      'oembed/1.0',
      ...(plugins.seo === 'yoast' ? ['yoast/v1'] : []),
      ...(plugins.seo === 'rank_math' ? ['rankmath/v1'] : []),
      ...(plugins.redirection ? ['redirection/v1'] : []),
      ...(plugins.elementor ? ['elementor/v1'] : []),
      'wp/v2',
      'wp-site-health/v1',
      'wp-block-editor/v1',
    ],
    authentication: { 'application-passwords': { endpoints: { authorization: `${url}/wp-admin/authorize-application.php` } } },
    routes: {},
  })

  const pluginList = () => {
    const on = (file: { plugin: string; name: string; version: string }, active: boolean) => ({
      ...file,
      status: active ? 'active' : 'inactive',
      network_only: false,
      requires_wp: '6.3',
      requires_php: '7.4',
      textdomain: file.plugin.split('/')[0],
    })
    return [
      on(PLUGIN_FILES.yoast, plugins.seo === 'yoast'),
      on(PLUGIN_FILES.rank_math, plugins.seo === 'rank_math'),
      on(PLUGIN_FILES.redirection, plugins.redirection),
      on(PLUGIN_FILES.elementor, plugins.elementor),
      on({ plugin: 'akismet/akismet', name: 'Akismet Anti-spam: Spam Protection', version: '5.3.3' }, false),
    ]
  }

  const isAdmin = () => roles.includes('administrator')
  const canEdit = () => roles.some((r) => r === 'administrator' || r === 'editor' || r === 'author')

  /** Applies the fields of a REST write to a stored post; rejects what WordPress rejects. */
  const applyFields = (post: StoredPost, body: Record<string, unknown>) => {
    const text = (value: unknown, name: string): string => {
      if (typeof value === 'string') return value
      if (value && typeof value === 'object' && typeof (value as { raw?: unknown }).raw === 'string') return (value as { raw: string }).raw
      throw invalidParam(name, `${name} is not of type object,string.`)
    }
    if (body.status !== undefined && (typeof body.status !== 'string' || !STATUSES.includes(body.status)))
      throw invalidParam('status', `status is not one of ${STATUSES.join(', ')}.`)
    if (body.meta !== undefined && (body.meta === null || typeof body.meta !== 'object' || Array.isArray(body.meta)))
      throw invalidParam('meta', 'meta is not of type object.')
    if (
      body.date_gmt !== undefined &&
      (typeof body.date_gmt !== 'string' || Number.isNaN(Date.parse(`${body.date_gmt}Z`.replace(/ZZ$/, 'Z'))))
    )
      throw invalidParam('date_gmt', 'Invalid date.')
    if (body.title !== undefined) post.title = text(body.title, 'title')
    if (body.content !== undefined) post.content = text(body.content, 'content')
    if (body.status !== undefined) post.status = body.status as string
    if (body.slug !== undefined) post.slug = uniqueSlug(String(body.slug), post.type, post.id)
    if (body.date_gmt !== undefined) post.date_gmt = wpDate(new Date(`${String(body.date_gmt).replace(/Z$/, '')}Z`))
    if (body.meta !== undefined) {
      const registered = registeredMeta()
      for (const [key, value] of Object.entries(body.meta as Record<string, unknown>)) if (registered.includes(key)) post.meta[key] = value
    }
    post.modified_gmt = stamp()
  }

  const listPosts = (type: StandInPostType, query: Record<string, string>, authed: boolean) => {
    const edit = query.context === 'edit'
    if (edit && !authed) throw new WpError(401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.')
    const perPage = query.per_page === undefined ? 10 : Number(query.per_page)
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      throw invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)')
    const page = query.page === undefined ? 1 : Number(query.page)
    if (!Number.isInteger(page) || page < 1) throw invalidParam('page', 'page must be greater than or equal to 1')
    const statuses = (query.status ?? 'publish').split(',')
    if (statuses.some((s) => s !== 'any' && !STATUSES.includes(s)))
      throw invalidParam('status', `status[0] is not one of ${STATUSES.join(', ')}, any.`)
    if (statuses.some((s) => s !== 'publish') && !authed) throw invalidParam('status', 'Status is forbidden.', 401, 'rest_forbidden_status')
    let after: number | null = null
    if (query.modified_after !== undefined) {
      after = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(query.modified_after) ? query.modified_after : `${query.modified_after}Z`)
      if (Number.isNaN(after)) throw invalidParam('modified_after', 'Invalid date.')
    }
    const search = query.search?.toLowerCase()
    const matching = [...posts.values()]
      .filter((p) => p.type === type)
      .filter((p) => statuses.includes('any') || statuses.includes(p.status))
      .filter((p) => after === null || Date.parse(`${p.modified_gmt}Z`) > after)
      .filter((p) => !search || p.title.toLowerCase().includes(search) || p.content.toLowerCase().includes(search))
      .filter((p) => query.slug === undefined || query.slug.split(',').includes(p.slug))
      .sort((a, b) => b.date_gmt.localeCompare(a.date_gmt) || b.id - a.id)
    const total = matching.length
    const totalPages = Math.ceil(total / perPage)
    if (page > totalPages && total > 0)
      throw new WpError(400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.')
    const items = matching.slice((page - 1) * perPage, page * perPage).map((p) => serialize(p, edit))
    return { body: items, headers: { 'x-wp-total': String(total), 'x-wp-totalpages': String(totalPages) } }
  }

  const redirectJson = (r: StoredRedirect) => ({
    id: r.id,
    url: r.url,
    match_url: r.url.toLowerCase(),
    match_data: { source: { flag_query: 'exact', flag_case: false, flag_trailing: false, flag_regex: r.regex } },
    action_code: r.action_code,
    action_type: r.action_type,
    action_data: r.action_data,
    match_type: r.match_type,
    title: r.title,
    hits: r.hits,
    regex: r.regex,
    group_id: r.group_id,
    position: r.id - 1,
    last_access: '-',
    enabled: r.enabled,
  })

  const redirectList = (params: Record<string, unknown>) => {
    const perPage = Math.min(200, Math.max(1, Number(params.per_page ?? 25) || 25))
    const page = Math.max(0, Number(params.page ?? 0) || 0)
    const desc = params.direction === 'desc'
    const items = [...redirects.values()].sort((a, b) => (desc ? b.id - a.id : a.id - b.id))
    return { items: items.slice(page * perPage, (page + 1) * perPage).map(redirectJson), total: items.length }
  }

  const addRedirect = (source: string, target: string, code = 301, extra: Partial<StoredRedirect> = {}): StoredRedirect => {
    const r: StoredRedirect = {
      id: nextRedirectId++,
      url: source,
      action_code: code,
      action_type: 'url',
      action_data: { url: target },
      match_type: 'url',
      regex: false,
      group_id: 1,
      enabled: true,
      title: '',
      hits: 0,
      ...extra,
    }
    redirects.set(r.id, r)
    return r
  }

  /** The REST routes; `auth` already checked (wrong credentials never get here). */
  const route = (
    method: string,
    rest: string,
    query: Record<string, string>,
    body: unknown,
    authed: boolean,
  ): { status?: number; body: unknown; headers?: Record<string, string> } => {
    const params = { ...query, ...(body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}) }
    const requireLogin = (code: string, message: string) => {
      if (!authed) throw new WpError(401, code, message)
    }
    if ((rest === '/' || rest === '') && method === 'GET') return { body: index() }
    if (rest === '/wp/v2/users/me' && method === 'GET') {
      requireLogin('rest_not_logged_in', 'You are not currently logged in.')
      const edit = query.context === 'edit'
      return {
        body: {
          id: 1,
          name: options.displayName ?? 'Dana Baker',
          url: '',
          description: '',
          link: `${url}/author/${username}/`,
          slug: username,
          ...(edit ? { username, email: `${username}@bakery.example`, roles, registered_date: '2020-03-01T10:00:00+00:00' } : {}),
        },
      }
    }
    if (rest === '/wp/v2/themes' && method === 'GET') {
      requireLogin('rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.')
      if (query.status !== 'active' && !isAdmin())
        throw new WpError(403, 'rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.')
      return {
        body: [
          {
            stylesheet: theme.stylesheet,
            template: theme.stylesheet,
            name: { raw: theme.name, rendered: theme.name },
            version: theme.version,
            status: 'active',
            requires_wp: '5.3',
            requires_php: '5.3',
          },
        ],
      }
    }
    if (rest === '/wp/v2/plugins' && method === 'GET') {
      requireLogin('rest_cannot_view_plugins', 'Sorry, you are not allowed to manage plugins for this site.')
      if (!isAdmin()) throw new WpError(403, 'rest_cannot_view_plugins', 'Sorry, you are not allowed to manage plugins for this site.')
      return { body: pluginList() }
    }
    const collection = /^\/wp\/v2\/(pages|posts)$/.exec(rest)
    if (collection) {
      const type: StandInPostType = collection[1] === 'pages' ? 'page' : 'post'
      if (method === 'GET') return listPosts(type, query, authed)
      if (method === 'POST') {
        requireLogin('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.')
        if (!canEdit()) throw new WpError(403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.')
        const post = posts.get(seed(type, { status: 'draft', title: '' }).id)!
        try {
          applyFields(post, params)
        } catch (error) {
          posts.delete(post.id)
          throw error
        }
        if (post.slug === String(post.id) && post.title) post.slug = uniqueSlug(post.title, type, post.id)
        return { status: 201, body: serialize(post, query.context === 'edit') }
      }
    }
    const single = /^\/wp\/v2\/(pages|posts)\/(\d+)$/.exec(rest)
    if (single) {
      const type: StandInPostType = single[1] === 'pages' ? 'page' : 'post'
      const post = find(type, Number(single[2]))
      if (!post) throw new WpError(404, 'rest_post_invalid_id', 'Invalid post ID.')
      if (method === 'GET') {
        if (query.context === 'edit') requireLogin('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.')
        if (post.status !== 'publish' && !authed) throw new WpError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.')
        return { body: serialize(post, query.context === 'edit') }
      }
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        requireLogin('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.')
        if (!canEdit()) throw new WpError(403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.')
        applyFields(post, params)
        return { body: serialize(post, query.context === 'edit') }
      }
    }
    if (rest.startsWith('/redirection/v1/') && plugins.redirection) {
      requireLogin('rest_forbidden', 'Sorry, you are not allowed to do that.')
      if (!isAdmin()) throw new WpError(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.')
      if (rest === '/redirection/v1/redirect' && method === 'GET') return { body: redirectList(params) }
      if (rest === '/redirection/v1/redirect' && method === 'POST') {
        const target = (params.action_data as { url?: unknown } | undefined)?.url
        if (typeof params.url !== 'string' || params.url === '' || typeof target !== 'string')
          throw new WpError(400, 'redirect', 'Invalid redirect details', { error_code: 400 })
        addRedirect(params.url, target, Number(params.action_code ?? 301), {
          regex: params.regex === true || params.regex === 'true',
          group_id: Number(params.group_id ?? 1),
          title: typeof params.title === 'string' ? params.title : '',
        })
        return { body: redirectList(params) }
      }
      if (rest === '/redirection/v1/bulk/redirect/delete' && method === 'POST') {
        const items = Array.isArray(params.items) ? params.items : String(params.items ?? '').split(',')
        for (const item of items) redirects.delete(Number(item))
        return { body: redirectList(params) }
      }
    }
    throw new WpError(404, 'rest_no_route', 'No route was found matching the URL and request method.')
  }

  /** Checks Basic credentials as WordPress does for application passwords. */
  const authenticate = (header: string | undefined): 'valid' | 'none' | WpError => {
    if (!header) return 'none'
    const match = /^Basic\s+(.+)$/i.exec(header)
    if (!match) return 'none'
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    const user = decoded.slice(0, colon)
    const password = decoded.slice(colon + 1)
    if (user !== username) return new WpError(401, 'invalid_username', 'Unknown username. Check again or try your email address.')
    if (password.replace(/[^a-z\d]/gi, '') !== applicationPassword.replace(/[^a-z\d]/gi, ''))
      return new WpError(401, 'incorrect_password', 'The provided password is an invalid application password.')
    return 'valid'
  }

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
      link: `<${url}/wp-json/>; rel="https://api.w.org/"`,
      'x-content-type-options': 'nosniff',
      ...headers,
    })
    res.end(text)
  }

  const sendError = (res: http.ServerResponse, error: WpError, headers: Record<string, string> = {}) =>
    send(res, error.status, { code: error.code, message: error.message, data: { status: error.status, ...error.extra } }, headers)

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  /** Applies a fault; true when it answered (or will never answer), false when the ordinary answer follows. */
  const applyFault = (
    fault: StandInFault,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    ordinary: (lost?: boolean) => void,
  ): boolean => {
    switch (fault.kind) {
      case 'status':
        sendError(
          res,
          new WpError(
            fault.status,
            fault.code ?? 'internal_server_error',
            fault.message ?? 'There has been a critical error on this website.',
          ),
          fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
        )
        return true
      case 'stall':
        return true
      case 'delay':
        later(fault.ms, ordinary)
        return true
      case 'lost_answer':
        ordinary(true)
        return true
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
        res.write('[')
        const timer = setInterval(() => res.write(' '), fault.everyMs ?? 20)
        timers.add(timer)
        res.on('close', () => {
          clearInterval(timer)
          timers.delete(timer)
        })
        return true
      }
      case 'html': {
        const html =
          '<!DOCTYPE html><html><head><title>Briefly unavailable for scheduled maintenance</title></head><body><p>Briefly unavailable for scheduled maintenance. Check back in a minute.</p></body></html>'
        res.writeHead(fault.status ?? 200, {
          'content-type': 'text/html; charset=UTF-8',
          'content-length': String(Buffer.byteLength(html)),
        })
        res.end(html)
        return true
      }
      case 'huge': {
        hugeBytesSent = 0
        res.writeHead(200, {
          'content-type': 'application/json; charset=UTF-8',
          ...(fault.contentLength ? { 'content-length': String(fault.bytes) } : {}),
        })
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        const pump = () => {
          while (hugeBytesSent < fault.bytes && !res.destroyed) {
            const size = Math.min(chunk.length, fault.bytes - hugeBytesSent)
            hugeBytesSent += size
            if (!res.write(chunk.subarray(0, size))) return void res.once('drain', pump)
          }
          if (!res.destroyed) res.end()
        }
        pump()
        return true
      }
      case 'redirect':
        res.writeHead(fault.status ?? 301, { location: fault.location, 'content-length': '0' })
        res.end()
        return true
      case 'reset':
        req.socket.destroy()
        return true
      case 'raw':
        res.writeHead(fault.status, { 'content-length': String(Buffer.byteLength(fault.body)), ...(fault.headers ?? {}) })
        res.end(fault.body)
        return true
    }
  }

  const server = http.createServer((req, res) => {
    open++
    peakConcurrency = Math.max(peakConcurrency, open)
    res.on('close', () => open--)
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const address = new URL(req.url ?? '/', 'http://stand-in')
      const query = Object.fromEntries(address.searchParams)
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      let badJson = false
      if (raw !== '') {
        try {
          body = JSON.parse(raw)
        } catch {
          badJson = true
          body = raw
        }
      }
      const auth = authenticate(req.headers.authorization)
      requests.push({
        method: req.method ?? 'GET',
        path: address.pathname,
        query,
        auth: auth === 'valid' ? 'valid' : auth === 'none' ? 'none' : 'invalid',
        authorization: req.headers.authorization,
        body,
      })
      /** The request carried out; `lost`: the answer never leaves (the connection drops instead). */
      const ordinary = (lost = false) => {
        if (res.destroyed) return
        try {
          // The home page and its feed (no REST; no credentials needed).
          // `?rest_route=/…` reaches the REST API under any permalink setting; /wp-json/ only with pretty permalinks.
          const restRoute = address.pathname === '/' ? query.rest_route : undefined
          const pretty = address.pathname.startsWith('/wp-json') && options.permalinks !== 'plain'
          if (restRoute === undefined && !pretty) {
            if (address.pathname === '/' && query.feed === 'rss2' && options.feed !== false) {
              const generator =
                options.wpVersion === null ? '' : `<generator>https://wordpress.org/?v=${options.wpVersion ?? '6.6.2'}</generator>`
              const feed = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${escapeHtml(siteName)}</title><link>${url}</link><description>Feed</description>${generator}</channel></rss>`
              res.writeHead(200, { 'content-type': 'application/rss+xml; charset=UTF-8' })
              return void res.end(feed)
            }
            // The theme's 404 page (what /wp-json/ gives on a site with plain permalinks).
            res.writeHead(address.pathname === '/' ? 200 : 404, { 'content-type': 'text/html; charset=UTF-8' })
            return void res.end(`<!DOCTYPE html><html><head><title>${escapeHtml(siteName)}</title></head><body></body></html>`)
          }
          // WordPress refuses wrong credentials on every REST request, public ones included.
          if (auth instanceof WpError) return sendError(res, auth)
          if (badJson) return sendError(res, new WpError(400, 'rest_invalid_json', 'Invalid JSON body passed.'))
          const rest = (restRoute ?? address.pathname.slice('/wp-json'.length)).replace(/\/+$/, '') || '/'
          const { rest_route: _route, ...params } = query
          const answer = route(req.method ?? 'GET', rest, params, body, auth === 'valid')
          if (lost) return void res.destroy()
          send(res, answer.status ?? 200, answer.body, answer.headers)
        } catch (error) {
          if (error instanceof WpError) return sendError(res, error)
          sendError(res, new WpError(500, 'internal_server_error', (error as Error).message))
        }
      }
      const pending = faults.find(
        (f) => f.remaining > 0 && address.pathname.startsWith(f.path) && (f.method === undefined || f.method === req.method),
      )
      if (pending) {
        pending.remaining--
        if (applyFault(pending.fault, req, res, ordinary)) return
      }
      ordinary()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const site: StandInSite = {
    addPage: (fields) => seed('page', fields),
    addPost: (fields) => seed('post', fields),
    get(type, id) {
      const post = find(type, id)
      return post ? { ...post, meta: { ...post.meta } } : undefined
    },
    all: (type) => [...posts.values()].filter((p) => p.type === type).map((p) => ({ ...p, meta: { ...p.meta } })),
    editOnSite(type, id, fields) {
      const post = find(type, id)
      if (!post) throw new Error(`no ${type} ${id} on the stand-in`)
      if (fields.title !== undefined) post.title = fields.title
      if (fields.content !== undefined) post.content = fields.content
      if (fields.slug !== undefined) post.slug = uniqueSlug(fields.slug, type, id)
      if (fields.status !== undefined) post.status = fields.status
      if (fields.date_gmt !== undefined) post.date_gmt = fields.date_gmt
      if (fields.meta !== undefined) Object.assign(post.meta, fields.meta)
      post.modified_gmt = stamp()
      return { ...post, meta: { ...post.meta } }
    },
    remove(type, id) {
      if (find(type, id)) posts.delete(id)
    },
    redirects: () => [...redirects.values()].map((r) => ({ ...r, action_data: { ...r.action_data } })),
    addRedirect: (source, target, code) => ({ ...addRedirect(source, target, code) }),
    setPlugins(change) {
      if (change.seo !== undefined) plugins.seo = change.seo
      if (change.redirection !== undefined) plugins.redirection = change.redirection
      if (change.elementor !== undefined) plugins.elementor = change.elementor
    },
    setRoles(next) {
      roles = [...next]
    },
    inject(fault, injectOptions = {}) {
      faults.push({
        fault,
        remaining: injectOptions.times ?? 1,
        path: injectOptions.path ?? '/',
        ...(injectOptions.method ? { method: injectOptions.method } : {}),
      })
    },
    failNext(times, status = 500, failOptions = {}) {
      faults.push({
        fault: {
          kind: 'status',
          status,
          ...(failOptions.code ? { code: failOptions.code } : {}),
          ...(failOptions.message ? { message: failOptions.message } : {}),
          ...(failOptions.retryAfter ? { retryAfter: failOptions.retryAfter } : {}),
        },
        remaining: times,
        path: failOptions.path ?? '/',
      })
    },
    clearFaults() {
      faults.length = 0
    },
    get hugeBytesSent() {
      return hugeBytesSent
    },
    get peakConcurrency() {
      return peakConcurrency
    },
  }

  return {
    url,
    restUrl: options.permalinks === 'plain' ? `${url}/?rest_route=/` : `${url}/wp-json/`,
    username,
    applicationPassword,
    credentials: { baseUrl: url, username, applicationPassword },
    requests,
    site,
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * Client settings for talking to stand-ins: 127.0.0.1 allowed (and so plain http), names resolve to
 * themselves, small bounds and a 5 ms backoff so failure tests stay quick.
 */
export const standInSettings = (overrides: Partial<WordPressSettings> = {}): WordPressSettings => ({
  allowList: parseAllowList('127.0.0.1')!,
  resolve: async (host) => [host],
  timeoutMs: 3000,
  maxResponseBytes: 1024 * 1024,
  maxAttempts: 3,
  userAgent: 'RankRelay-test',
  backoffBaseMs: 5,
  ...overrides,
})

/** The WordPressError a call fails with; a call that succeeds (or fails otherwise) throws, failing the test. */
export async function wordPressFailure(promise: Promise<unknown>): Promise<WordPressError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error(`expected a WordPressError, got ${JSON.stringify(outcome.value).slice(0, 200)}`)
  if (!(outcome.error instanceof WordPressError)) throw outcome.error
  return outcome.error
}

function invalidParam(name: string, detail: string, status = 400, code = 'rest_invalid_param'): WpError {
  return new WpError(status, code, `Invalid parameter(s): ${name}`, { params: { [name]: detail } })
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
}

const escapeHtml = (text: string) => text.replace(/&/g, '&#038;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
