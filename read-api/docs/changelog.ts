import { readFileSync } from 'node:fs'
import { API_VERSION } from '../version.js'
import type { DocsContext } from './context.js'
import { deprecationOf } from './deprecation.js'

/** The hand-written release notes (prose); read once. */
const RELEASE_NOTES = readFileSync(new URL('./CHANGELOG.md', import.meta.url), 'utf8').trim()

/**
 * GET /changelog.md: the deprecations come from the registry (so a deprecated method is listed the moment it
 * is marked, with its sunset), then the hand-written release notes.
 */
export function changelogMd(ctx: DocsContext): string {
  const deprecated = ctx.registry
    .all()
    .map(deprecationOf)
    .filter((d) => d !== null)
    .sort((a, b) => a.sunset.localeCompare(b.sunset) || a.method.localeCompare(b.method))
  const lines = [
    '# RankRelay API changelog',
    '',
    `Current version: ${API_VERSION} (path /api/v1). Additive changes (new methods, optional parameters, response fields,`,
    'webhook events) may appear at any time: ignore fields you do not know. Breaking changes only come under a new',
    'major path. A method is retired only after 60 days of notice: the api.deprecation webhook event, the',
    '`deprecated` mark in the capabilities and OpenAPI documents, and Deprecation / Sunset / Link headers on every call.',
    '',
    '## Deprecations',
    '',
  ]
  if (deprecated.length === 0) lines.push('Nothing is deprecated.')
  else {
    lines.push('| method | deprecated since | sunset | replacement |', '|---|---|---|---|')
    for (const d of deprecated)
      lines.push(`| \`${d.method}\` | ${d.since} | ${d.sunset} | ${d.replacement ? `\`${d.replacement}\`` : '–'} |`)
  }
  lines.push('', RELEASE_NOTES, '')
  return lines.join('\n')
}
