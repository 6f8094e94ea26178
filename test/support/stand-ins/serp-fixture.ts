/**
 * What a Google results page shows, as the rank stand-ins (dataforseo-serp.ts, serpapi.ts) are told it: each
 * renders it in its provider's own wire format. Tests describe the page once and check both providers.
 */
export interface SerpFixture {
  /** Organic result URLs, in order (position 1 first). */
  readonly organic: readonly string[]
  /** The map pack's businesses. */
  readonly localPack?: readonly { readonly title: string; readonly url?: string | null }[]
  /** The featured snippet's source URL. */
  readonly featuredSnippet?: string
  /** People Also Ask questions. */
  readonly peopleAlsoAsk?: readonly string[]
  /** Google's AI Overview and the URLs it cites; `deferred` (SerpApi): it comes by a second request. */
  readonly aiOverview?: { readonly references: readonly string[]; readonly deferred?: boolean }
}

/** The search a stand-in received, in provider-neutral terms. */
export interface ReceivedSearch {
  readonly keyword: string
  readonly location: string | null
  readonly device: string
}

/** What a stand-in does with the next call (a script of these is used up call by call). */
export type StandInBehaviour =
  /** Answer the page (after `delayMs`). */
  | { readonly kind: 'ok'; readonly delayMs?: number }
  /** An HTTP error with the provider's own body for it (429: with Retry-After when given). */
  | {
      readonly kind: 'http'
      readonly status: 401 | 402 | 429 | 500 | 502 | 503
      readonly retryAfterSeconds?: number
      readonly message?: string
    }
  /** DataForSEO: HTTP 200 whose task (or whole response: `envelope`) carries this status_code. */
  | { readonly kind: 'status'; readonly statusCode: number; readonly message: string; readonly envelope?: boolean }
  /** Never answer (the caller's timeout fires). */
  | { readonly kind: 'hang' }

export const hostOfUrl = (url: string) => new URL(url).hostname

export const titleOf = (url: string) => {
  const u = new URL(url)
  const words = u.pathname.split('/').filter(Boolean).join(' ').replace(/[-_]/g, ' ')
  return `${words || 'Home'} | ${u.hostname.replace(/^www\./, '')}`
}
