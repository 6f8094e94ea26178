/**
 * The documents a newcomer reads link to each other: every relative link in the READMEs, CONTRIBUTING.md and
 * the bench notes names a file that exists, and every #anchor a heading of its target, as GitHub renders
 * them. The reference lives in the areas' READMEs and the top-level README links into it, so a link to a
 * section that is elsewhere would send a reader nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import t from 'tap'
import { ROOT } from './spawn.js'

const areaReadmes = readdirSync(path.join(ROOT, 'domain'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(ROOT, 'domain', entry.name, 'README.md')))
  .map((entry) => `domain/${entry.name}/README.md`)
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'ops/README.md', 'ops/bench/NOTES.md', 'processors/README.md', ...areaReadmes]

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line)
    if (!heading) continue
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Markdown links outside code: [text](target), target without a scheme. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    if (fenced) continue
    const prose = line.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) if (!/^[a-z]+:/.test(match[1]!)) links.push(match[1]!)
  }
  return links
}

t.test('the anchor rule', async (t) => {
  t.same(
    [
      ...anchorsOf(
        '# Jobs\n## Where a target is missed, and why\n```sh\n# not a heading\n```\n## API documents, versioning and pagination\n## Jobs',
      ),
    ],
    ['jobs', 'where-a-target-is-missed-and-why', 'api-documents-versioning-and-pagination', 'jobs-1'],
  )
})

for (const document of DOCUMENTS) {
  t.test(`${document}: every relative link resolves`, async (t) => {
    const text = readFileSync(path.join(ROOT, document), 'utf8')
    const links = relativeLinks(text)
    for (const link of links) {
      const [file, anchor] = link.split('#') as [string, string | undefined]
      const target = file === '' ? path.join(ROOT, document) : path.resolve(path.dirname(path.join(ROOT, document)), file)
      t.ok(existsSync(target), `${link}: ${path.relative(ROOT, target)} exists`)
      if (anchor === undefined || !existsSync(target) || !target.endsWith('.md')) continue
      t.ok(anchorsOf(readFileSync(target, 'utf8')).has(anchor), `${link}: #${anchor} is a heading of ${path.relative(ROOT, target)}`)
    }
    if (links.length === 0) t.pass('no relative links')
  })
}
