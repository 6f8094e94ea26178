import { z } from 'zod'

/**
 * The wire shapes the client reads, as WordPress sends them (REST API handbook; the Redirection plugin's
 * redirection/v1). Only the fields the service uses are kept; anything else a site adds is dropped. Parsing
 * an answer through these turns a site that answers something else into `invalid_response`.
 */

/** PHP serializes an empty associative array as `[]`: WordPress sends `meta: []` when a post has no registered meta. */
const phpObject = z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string(), z.unknown()))

/** `{raw, rendered}`: `raw` only with context=edit. */
const rendered = z.object({ raw: z.string().optional(), rendered: z.string().optional() })

export const WpPostSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  slug: z.string(),
  status: z.string(),
  link: z.string(),
  date_gmt: z.string().nullable().optional(),
  modified_gmt: z.string(),
  title: rendered,
  content: rendered,
  /** Registered meta (show_in_rest): `_elementor_data`, Yoast `_yoast_wpseo_title`/`_yoast_wpseo_metadesc`, Rank Math `rank_math_title`/`rank_math_description`. */
  meta: phpObject.optional().default({}),
  /** Yoast's computed head (read-only), when Yoast is active: what the title and description resolve to. */
  yoast_head_json: z.object({ title: z.string().optional(), description: z.string().optional() }).nullable().optional(),
})
export type WpPost = z.infer<typeof WpPostSchema>

export const WpIndexSchema = z.object({
  name: z.string(),
  description: z.string().optional().default(''),
  url: z.string(),
  home: z.string(),
  namespaces: z.array(z.string()),
})
export type WpIndex = z.infer<typeof WpIndexSchema>

export const WpUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  /** Only with context=edit. */
  roles: z.array(z.string()).optional(),
})
export type WpUser = z.infer<typeof WpUserSchema>

/** A string, or `{raw, rendered}` (themes' and plugins' names since WordPress 5.5). */
const nameField = z.union([z.string(), rendered]).transform((v) => (typeof v === 'string' ? v : (v.raw ?? v.rendered ?? '')))

export const WpThemeSchema = z.object({
  stylesheet: z.string(),
  name: nameField,
  version: z.string(),
})
export type WpTheme = z.infer<typeof WpThemeSchema>

export const WpPluginSchema = z.object({
  /** The plugin's file without `.php`, e.g. `wordpress-seo/wp-seo`. */
  plugin: z.string(),
  name: nameField,
  version: z.string(),
  /** active, inactive, or network-active. */
  status: z.string(),
})
export type WpPlugin = z.infer<typeof WpPluginSchema>

/** A redirect of the Redirection plugin (Red_Item::to_json). */
export const WpRedirectSchema = z.object({
  id: z.number().int(),
  /** The source path, e.g. /old-page. */
  url: z.string(),
  action_code: z.coerce.number().int(),
  action_type: z.string(),
  /** For action_type `url`: `{url: target}`. */
  action_data: z.preprocess((v) => (Array.isArray(v) ? {} : v), z.object({ url: z.string().optional() }).nullable().optional()),
  match_type: z.string(),
  regex: z.coerce.boolean().optional().default(false),
  group_id: z.coerce.number().int(),
  enabled: z.coerce.boolean().optional().default(true),
  title: z.string().nullable().optional(),
})
export type WpRedirect = z.infer<typeof WpRedirectSchema>

export const WpRedirectListSchema = z.object({ items: z.array(WpRedirectSchema), total: z.coerce.number().int() })

/** The SEO plugins whose fields the service writes. */
export type SeoPlugin = 'yoast' | 'rank_math'

/** What a connection check found on the site. */
export interface SiteCheck {
  /** The REST API's root that answered, e.g. https://example.com/wp-json/. */
  readonly rest_url: string
  readonly site_name: string
  readonly home_url: string
  /** From the feed's <generator>; null when the site hides it (many security plugins do). */
  readonly wp_version: string | null
  readonly user: { readonly id: number; readonly name: string; readonly slug: string; readonly roles?: readonly string[] }
  /** The active theme; null when the user may not see it. */
  readonly theme: { readonly stylesheet: string; readonly name: string; readonly version: string } | null
  /** Every plugin; null when the user may not list plugins (only administrators may). */
  readonly plugins: readonly { readonly plugin: string; readonly name: string; readonly version: string; readonly status: string }[] | null
  readonly seo_plugin: SeoPlugin | null
  /** The Redirection plugin is active (its REST namespace answers). */
  readonly redirection: boolean
  readonly elementor: boolean
}

/** The fields a write sets; WordPress accepts a string for title and content. */
export interface WpPostFields {
  readonly title?: string
  readonly content?: string
  readonly status?: 'publish' | 'draft' | 'pending' | 'private' | 'future'
  readonly meta?: Readonly<Record<string, unknown>>
  readonly slug?: string
  readonly date_gmt?: string
}

export interface WpPostQuery {
  readonly page?: number
  /** 1–100 (WordPress's limit); default 10. */
  readonly per_page?: number
  /** ISO 8601; posts modified after it (WordPress 5.7+). */
  readonly modified_after?: string
  readonly search?: string
  /** Only the post with this slug (WordPress's `slug` filter). */
  readonly slug?: string
  /** A status or `any`; default WordPress's (publish). */
  readonly status?: string
}

/** A redirect to create: source path → target URL, 301 unless told. */
export interface WpRedirectInput {
  readonly url: string
  readonly target: string
  readonly code?: 301 | 302 | 307 | 308
  readonly regex?: boolean
  readonly title?: string
  /** The Redirection group; default 1 ("Redirections", made at install). */
  readonly group_id?: number
}
