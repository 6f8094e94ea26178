import type { SeoPluginName } from '../../domain/publishing/site-publisher/wordpress-target.js'
import type { WriteDeps } from '../command-handler.js'
import type { ServiceKey } from '../secrets/service-key.js'
import { loadSiteConnection, loadWordPressCredentials } from './connections.js'
import { wordPressClient, type WordPressClient } from './wordpress/client.js'
import type { WordPressSettings } from './wordpress/settings.js'

/**
 * A client's WordPress site, connected: the REST client with its sealed credentials opened, and what the site
 * runs (the plugins whose fields the publisher writes) from the connection's last successful check. A client
 * whose last check failed, or was never made, is checked now (the answer is not recorded: check_client_connection
 * records checks).
 */
export interface ConnectedSite {
  readonly clientId: number
  readonly baseUrl: string
  readonly wordpress: WordPressClient
  readonly seoPlugin: SeoPluginName | null
  readonly redirection: boolean
  readonly elementor: boolean
}

export interface ClientSites {
  /** The client's connected WordPress site, or null when it has no WordPress connection. */
  connected(clientId: number, signal?: AbortSignal): Promise<ConnectedSite | null>
}

export function clientSites(deps: Pick<WriteDeps, 'store'>, settings: WordPressSettings, serviceKey: ServiceKey): ClientSites {
  return {
    async connected(clientId, signal) {
      const credentials = await loadWordPressCredentials(deps, clientId, serviceKey)
      if (!credentials) return null
      const wordpress = wordPressClient(settings, credentials, signal)
      const last = (await loadSiteConnection(deps, clientId)).lastCheck
      const check = last?.ok ? last : await wordpress.checkSite()
      return {
        clientId,
        baseUrl: credentials.baseUrl,
        wordpress,
        seoPlugin: check.seo_plugin,
        redirection: check.redirection,
        elementor: check.elementor,
      }
    },
  }
}
