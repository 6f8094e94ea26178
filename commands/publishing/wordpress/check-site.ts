import { WordPressError } from './errors.js'
import type { ExchangeResult } from './request.js'
import { shaped, type Call } from './shape.js'
import { WpIndexSchema, WpPluginSchema, WpThemeSchema, WpUserSchema, type SeoPlugin, type SiteCheck, type WpPlugin } from './types.js'
import { z } from 'zod'
import { wordPressVersionOfFeed } from './wp-version.js'

interface CheckParts {
  readonly root: URL
  readonly call: Call
  readonly fetchText: (url: URL, limit: number) => Promise<ExchangeResult>
  readonly feedUrl: URL
  readonly feedHeadBytes: number
}

/**
 * The connection check, in the order a person would look: the REST index (is this WordPress, which plugin
 * namespaces answer), the user the application password belongs to (does the password work: context=edit
 * needs a real login, so a server that drops the Authorization header is caught here, not at the first push),
 * then what the site runs: the active theme, the plugins (only administrators may list them: null otherwise,
 * and the namespaces tell which plugins answer), and the WordPress version.
 *
 * The version: WordPress does not put it in the REST API for anyone but site-health admins; every default
 * install prints it as the feed's `<generator>https://wordpress.org/?v=6.6.2</generator>` (the_generator),
 * which is public, cheap (only the feed's head is read) and needs no password (none is sent). Sites that hide
 * it (security plugins remove the generator) or have no feed give null; that never fails the check.
 */
export async function checkSite(parts: CheckParts): Promise<SiteCheck> {
  const { call } = parts
  const indexAnswer = await call('GET', '/')
  const index = shaped(WpIndexSchema, indexAnswer)
  if (!index.namespaces.includes('wp/v2'))
    throw new WordPressError(
      'invalid_response',
      `${indexAnswer.url}: a REST API without wp/v2 (not WordPress, or its core routes are turned off)`,
      indexAnswer.status,
    )
  const user = shaped(WpUserSchema, await call('GET', '/wp/v2/users/me', { query: { context: 'edit' } }))
  const [theme, plugins, wpVersion] = await Promise.all([
    optional(async () => {
      const themes = shaped(z.array(WpThemeSchema), await call('GET', '/wp/v2/themes', { query: { status: 'active' } }))
      return themes[0] ?? null
    }),
    optional(async () => shaped(z.array(WpPluginSchema), await call('GET', '/wp/v2/plugins'))),
    wordPressVersion(parts),
  ])
  const namespaces = new Set(index.namespaces)
  const active = (file: string) => plugins?.some((p) => p.plugin === file && p.status !== 'inactive') ?? false
  return {
    rest_url: new URL(indexAnswer.url).href,
    site_name: index.name,
    home_url: index.home,
    wp_version: wpVersion,
    user: { id: user.id, name: user.name, slug: user.slug, ...(user.roles ? { roles: user.roles } : {}) },
    theme: theme ? { stylesheet: theme.stylesheet, name: theme.name, version: theme.version } : null,
    plugins: plugins ? plugins.map((p) => ({ plugin: p.plugin, name: p.name, version: p.version, status: p.status })) : null,
    seo_plugin: seoPluginOf(namespaces, plugins),
    redirection: namespaces.has('redirection/v1') || active('redirection/redirection'),
    elementor: namespaces.has('elementor/v1') || active('elementor/elementor'),
  }
}

/** Yoast first when both are active (a site mid-migration; its fields are the ones the site still shows). */
function seoPluginOf(namespaces: ReadonlySet<string>, plugins: readonly WpPlugin[] | null): SeoPlugin | null {
  const active = (file: string) => plugins?.some((p) => p.plugin === file && p.status !== 'inactive') ?? false
  if (namespaces.has('yoast/v1') || active('wordpress-seo/wp-seo') || active('wordpress-seo-premium/wp-seo-premium')) return 'yoast'
  if (namespaces.has('rankmath/v1') || active('seo-by-rank-math/rank-math')) return 'rank_math'
  return null
}

/** A part the user may not be allowed to see (401/403 there, after users/me worked): null instead of a failure. */
async function optional<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof WordPressError && error.category === 'auth') return null
    throw error
  }
}

async function wordPressVersion(parts: CheckParts): Promise<string | null> {
  try {
    const answer = await parts.fetchText(parts.feedUrl, parts.feedHeadBytes)
    return wordPressVersionOfFeed(answer.text)
  } catch (error) {
    // The feed is extra: a site without one (or hiding it) is still connected. The policy is not extra.
    if (error instanceof WordPressError && error.category === 'blocked') throw error
    if (error instanceof WordPressError) return null
    throw error
  }
}
