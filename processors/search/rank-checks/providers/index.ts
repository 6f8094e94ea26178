import type { SearchProviderSettings } from '../../settings.js'
import { RateLimiter } from '../rate-limiter.js'
import { dataForSeoProvider } from './dataforseo.js'
import type { RankProvider } from './port.js'
import { serpApiProvider } from './serpapi.js'

/**
 * The rank provider the settings configure: DataForSEO when its login is set, else SerpApi when its key is,
 * else none (checks then fail with rank_provider_not_configured). Its calls are paced by one limiter of
 * SEARCH_PROVIDER_REQUESTS_PER_SECOND for the whole process and bounded by SEARCH_PROVIDER_TIMEOUT_MS.
 */
export function rankProviderFor(settings: SearchProviderSettings): RankProvider | null {
  const options = { timeoutMs: settings.timeoutMs, limiter: new RateLimiter(settings.requestsPerSecond) }
  if (settings.dataforseo) return dataForSeoProvider(settings.dataforseo, options)
  if (settings.serpapi) return serpApiProvider(settings.serpapi, options)
  return null
}
