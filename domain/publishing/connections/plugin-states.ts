import type { SiteCheckData } from './events.js'
import type { SeoPluginKind } from './values.js'

/**
 * The plugins the service relies on, by the plugin file WordPress names them with (`<folder>/<main file>`,
 * as /wp/v2/plugins answers): an SEO plugin for titles and descriptions (Yoast SEO or Rank Math), Redirection
 * for redirects, Elementor for pages built with it.
 */
export const RELIED_PLUGINS = {
  yoast: 'wordpress-seo/wp-seo',
  rank_math: 'seo-by-rank-math/rank-math',
  redirection: 'redirection/redirection',
  elementor: 'elementor/elementor',
} as const

export interface PluginState {
  /** Whether the plugin is installed; null when the check could not list plugins (the user may not). */
  readonly installed: boolean | null
  /** Whether it is active (from the plugin list, or from what the REST API shows when there is none). */
  readonly active: boolean
  readonly version: string | null
}

export interface PluginStates {
  readonly seo: PluginState & { readonly kind: SeoPluginKind | null }
  readonly redirection: PluginState
  readonly elementor: PluginState
}

type Listed = NonNullable<SiteCheckData['plugins']>[number]

/** A plugin file as listed, without the `.php` some sites' answers keep. */
const fileOf = (plugin: string) => plugin.replace(/\.php$/, '')

const isActive = (status: string) => status === 'active' || status === 'network-active'

function stateOf(listed: readonly Listed[] | null, file: string, activeByRest: boolean): PluginState {
  if (listed === null) return { installed: null, active: activeByRest, version: null }
  const found = listed.find((p) => fileOf(p.plugin) === file)
  if (!found) return { installed: false, active: false, version: null }
  return { installed: true, active: isActive(found.status), version: found.version }
}

/**
 * The relied-on plugins' states from a check. With a plugin list, the list decides; without one, the check's
 * own findings (the REST namespaces an active plugin registers) say what is active, and installed is unknown.
 * Yoast and Rank Math both present: the active one (Yoast when both are active, as the check reports it).
 */
export function pluginStatesOf(check: Pick<SiteCheckData, 'plugins' | 'seo_plugin' | 'redirection' | 'elementor'>): PluginStates {
  const listed = check.plugins
  const yoast = stateOf(listed, RELIED_PLUGINS.yoast, check.seo_plugin === 'yoast')
  const rankMath = stateOf(listed, RELIED_PLUGINS.rank_math, check.seo_plugin === 'rank_math')
  const seoKind: SeoPluginKind | null =
    check.seo_plugin ??
    (yoast.active ? 'yoast' : rankMath.active ? 'rank_math' : yoast.installed ? 'yoast' : rankMath.installed ? 'rank_math' : null)
  const seoState =
    seoKind === 'rank_math'
      ? rankMath
      : seoKind === 'yoast'
        ? yoast
        : { installed: listed === null ? null : false, active: false, version: null }
  return {
    seo: { kind: seoKind, ...seoState },
    redirection: stateOf(listed, RELIED_PLUGINS.redirection, check.redirection),
    elementor: stateOf(listed, RELIED_PLUGINS.elementor, check.elementor),
  }
}
