import type { SiteCheckInput } from '../../../domain/publishing/connections/site-connection.js'
import type { SiteChecker } from '../connections.js'
import { WordPressError, wordPressClient, type SiteCheck, type WordPressCredentials, type WordPressSettings } from '../wordpress/client.js'

/**
 * The connection check as recorded: what the WordPress client's checkSite found, or, when it failed, the
 * failure's category and message (the client keeps the password out of both). Anything but a WordPressError
 * is a bug of ours and is thrown on, not recorded as the site's fault.
 */
export function wordPressSiteChecker(settings: WordPressSettings, signal?: AbortSignal): SiteChecker {
  return async (credentials: WordPressCredentials): Promise<SiteCheckInput> => {
    try {
      return checkRecordOf(credentials.baseUrl, await wordPressClient(settings, credentials, signal).checkSite())
    } catch (error) {
      if (error instanceof WordPressError) return failedCheckOf(credentials.baseUrl, error)
      throw error
    }
  }
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const cutOrNull = (text: string | null | undefined, max: number) => (text === null || text === undefined ? null : cut(text, max))

/** Bounded to the event's limits: a site's strings are the site's, of any length. */
export function checkRecordOf(baseUrl: string, check: SiteCheck): SiteCheckInput {
  return {
    ok: true,
    base_url: baseUrl,
    site_name: cut(check.site_name, 500),
    wp_version: cutOrNull(check.wp_version, 50),
    theme: check.theme
      ? { stylesheet: cut(check.theme.stylesheet, 200), name: cut(check.theme.name, 500), version: cutOrNull(check.theme.version, 50) }
      : null,
    plugins:
      check.plugins?.slice(0, 1000).map((p) => ({
        plugin: cut(p.plugin, 300),
        name: cut(p.name, 500),
        version: cutOrNull(p.version, 50),
        status: cut(p.status, 30),
      })) ?? null,
    seo_plugin: check.seo_plugin,
    redirection: check.redirection,
    elementor: check.elementor,
    user: {
      id: check.user.id,
      name: cut(check.user.name, 500),
      slug: cut(check.user.slug, 200),
      roles: check.user.roles ? check.user.roles.slice(0, 50).map((r) => cut(r, 100)) : null,
    },
    error_category: null,
    error: null,
  }
}

export function failedCheckOf(baseUrl: string, error: WordPressError): SiteCheckInput {
  return {
    ok: false,
    base_url: baseUrl,
    site_name: null,
    wp_version: null,
    theme: null,
    plugins: null,
    seo_plugin: null,
    redirection: false,
    elementor: false,
    user: null,
    error_category: error.category,
    error: cut(error.message, 2000),
  }
}
