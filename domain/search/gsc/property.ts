import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/**
 * A Search Console property, as Search Console names it: a Domain property `sc-domain:example.com` (every
 * protocol and subdomain) or a URL-prefix property `https://www.example.com/` (that origin and path only,
 * always ending in a slash). The API takes the name as the siteUrl path parameter, so it must match the
 * property exactly as verified; these rules only catch what can never be a property name.
 */
export const GscPropertyType = z.enum(['domain', 'url_prefix']).describe('domain (sc-domain:…) or url_prefix (https://…/)')
export type GscPropertyType = z.infer<typeof GscPropertyType>

export const PROPERTY_MAX_LENGTH = 2048

export interface ParsedProperty {
  /** The property's name as the API takes it. */
  readonly property: string
  readonly type: GscPropertyType
}

const DOMAIN_PREFIX = 'sc-domain:'
/** A host name: labels of letters, digits and hyphens (punycode for others), at least one dot, no trailing dot. */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

function refuse(text: string, why: string): never {
  throw new DomainError(
    'validation_failed',
    `Not a Search Console property: ${why}`,
    `property "${text.slice(0, 120)}"`,
    'Use a Domain property as sc-domain:example.com or a URL-prefix property as https://www.example.com/, exactly as Search Console lists it',
  )
}

/**
 * The property's canonical name: a Domain property's host lower-cased; a URL prefix's scheme and host
 * lower-cased (as URLs compare them) with the trailing slash Search Console always shows added when missing.
 */
export function parseProperty(text: string): ParsedProperty {
  const trimmed = text.trim()
  if (trimmed.length === 0) refuse(text, 'empty')
  if (trimmed.length > PROPERTY_MAX_LENGTH) refuse(text, `longer than ${PROPERTY_MAX_LENGTH} characters`)
  if (trimmed.toLowerCase().startsWith(DOMAIN_PREFIX)) {
    const host = trimmed.slice(DOMAIN_PREFIX.length).toLowerCase()
    if (!HOST.test(host)) refuse(text, 'a Domain property names a bare host such as example.com (no scheme, path or port)')
    return { property: `${DOMAIN_PREFIX}${host}`, type: 'domain' }
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return refuse(text, 'neither sc-domain:… nor an absolute http(s) URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse(text, 'a URL-prefix property is an http or https URL')
  if (url.username !== '' || url.password !== '') refuse(text, 'a URL-prefix property carries no user name or password')
  if (url.search !== '' || url.hash !== '' || trimmed.includes('?') || trimmed.includes('#')) {
    refuse(text, 'a URL-prefix property has no query or fragment')
  }
  if (!HOST.test(url.hostname)) refuse(text, 'the URL has no valid host name')
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
  return { property: `${url.protocol}//${url.host}${path}`, type: 'url_prefix' }
}
