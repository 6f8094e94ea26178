/**
 * The areas' READMEs in the served guide: every domain/<area>/README.md is a section of /developers.md, read
 * from the file itself (one text for both readers), with its headings under the guide's, its links to
 * repository files reduced to their text, and its examples on the service's own address.
 */
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import { AREA_GUIDES, areaReferenceSection, servedAreaBody } from '../../read-api/docs/area-guides.js'
import { developersMd } from '../../read-api/docs/developers-md.js'
import type { DocsContext } from '../../read-api/docs/context.js'
import { createRegistry } from '../../read-api/rpc/index.js'

const DOMAIN = new URL('../../domain/', import.meta.url)
const BASE = 'https://api.rankrelay.test'

const readmes = readdirSync(DOMAIN, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    try {
      return [{ area: entry.name, text: readFileSync(new URL(`${entry.name}/README.md`, DOMAIN), 'utf8') }]
    } catch {
      return []
    }
  })

t.test('every area README is a guide section, titled by its first heading', async (t) => {
  t.ok(readmes.length >= 10, `${readmes.length} area READMEs`)
  t.same(AREA_GUIDES.map((g) => g.area).sort(), readmes.map((r) => r.area).sort(), 'one section per README')
  for (const { area, text } of readmes) {
    const guide = AREA_GUIDES.find((g) => g.area === area)!
    t.equal(`# ${guide.title}`, text.split('\n')[0], `${area}: the title is the README's first heading`)
    t.ok(guide.body.length > 200, `${area}: the body is the README's text`)
  }
})

t.test('a README body as served', async (t) => {
  const body = [
    'See [the OAuth reference](../oauth/README.md#tokens), [RFC 6749](https://www.rfc-editor.org/rfc/rfc6749) and [MCP](#mcp).',
    '',
    '## Rate limits',
    '',
    '```sh',
    'BASE=http://127.0.0.1:8080',
    'curl -s $BASE/api/v1/jobs/12 -H "Authorization: Bearer $KEY"   # [not a link](x.md)',
    '# 202 {"job_id": 12}',
    '```',
    '',
    'Open http://127.0.0.1:8080/sdk/ or $BASE/llms.txt; $BASE_URL is a setting.',
  ].join('\n')
  t.equal(
    servedAreaBody(body, BASE),
    [
      'See the OAuth reference, [RFC 6749](https://www.rfc-editor.org/rfc/rfc6749) and [MCP](#mcp).',
      '',
      '#### Rate limits',
      '',
      '```sh',
      `BASE=${BASE}`,
      `curl -s ${BASE}/api/v1/jobs/12 -H "Authorization: Bearer $KEY"   # [not a link](x.md)`,
      '# 202 {"job_id": 12}',
      '```',
      '',
      `Open ${BASE}/sdk/ or ${BASE}/llms.txt; $BASE_URL is a setting.`,
    ].join('\n'),
    'headings go two levels down, repository links keep their text, code is untouched but for the address',
  )
  const section = areaReferenceSection(BASE, [{ area: 'jobs', title: 'Jobs', body: 'Background work.' }])
  t.same(
    section,
    ['## Area reference', '', section[2], '', '- Jobs', '', '### Jobs', '', 'Background work.', ''],
    'a contents list, then each area',
  )
})

t.test('/developers.md ends with every area reference', async (t) => {
  // The context a request gets (read-api/docs/context.ts), without a server: the guide is a pure function of it.
  const ctx = {
    registry: createRegistry(),
    baseUrl: BASE,
    bodyLimit: 1024 * 1024,
    now: new Date(),
    isServed: () => true,
    securityContact: 'mailto:security@rankrelay.test',
    rateLimitPerMinute: 600,
    sandboxKey: null,
    jobKinds: [],
    routes: [],
  } as DocsContext
  const guide = developersMd(ctx)
  const start = guide.indexOf('\n## Area reference\n')
  t.ok(
    start > guide.indexOf('\n## Security\n'),
    "after the guide's own sections (its first code block of each language stays the webhook verifier)",
  )
  t.match(guide, '- [Area reference](#area-reference)', 'listed in the contents')
  const reference = guide.slice(start)
  for (const g of AREA_GUIDES) t.ok(reference.includes(`\n### ${g.title}\n`), `${g.area}: its section`)
  t.notMatch(reference, /\]\((?!https?:|#|mailto:)[^)]*\)/, 'no link to a repository file')
  t.notMatch(reference, /127\.0\.0\.1:8080|\$BASE\b/, "the examples use the service's address")
})
