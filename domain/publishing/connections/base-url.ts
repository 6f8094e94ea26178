import { DomainError } from '../../shared/errors.js'

/**
 * A WordPress site's address as the service stores and calls it: http(s), no user:password@ (credentials
 * travel in the Authorization header, never in a URL that listings show), no query or fragment, no trailing
 * slash, and without a `/wp-json` suffix (a caller who pastes the REST root gets the site). A site installed
 * in a sub-folder keeps its path (`https://example.com/blog`). Whether the address may be reached (public
 * addresses only, https unless allowed) is the WordPress client's policy check, at connect time.
 */
export function normalizeBaseUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw invalid('not an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`scheme ${url.protocol.replace(/:$/, '')}: use https`)
  if (url.username !== '' || url.password !== '')
    throw invalid('user:password@ in the URL is not allowed: give username and application_password')
  if (url.hostname === '') throw invalid('no host')
  url.search = ''
  url.hash = ''
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/wp-json$/i, '')
    .replace(/\/+$/, '')
  return `${url.origin}${path}`
}

const invalid = (detail: string) => new DomainError('validation_failed', 'The request parameters are invalid', `base_url: ${detail}`)
