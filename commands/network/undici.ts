import { createRequire } from 'node:module'

const requireFromHere = createRequire(import.meta.url)

/**
 * undici (~95 CommonJS modules), loaded by the first outbound request that needs one of its Agents (a crawl,
 * a render, an OIDC sign-in), not with the app: most processes never make one. Required, not imported, because
 * the Agents are made in synchronous constructors.
 */
export const undici = (): typeof import('undici') => requireFromHere('undici') as typeof import('undici')
