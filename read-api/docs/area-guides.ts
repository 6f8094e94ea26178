import { readdirSync, readFileSync } from 'node:fs'

/**
 * The areas' references (domain/<area>/README.md) as sections of the served guide. The READMEs are the one
 * text: a reader of the repository and a reader of /developers.md see the same words, so they cannot drift.
 * Every area folder with a README is included, so a new area's reference is served without touching code;
 * an area cut into sub-areas (domain/search/ranks/…) has each sub-area's README after its own, one level down.
 */
export interface AreaGuide {
  /** The area's folder name under domain/. */
  readonly area: string
  /** The README's first heading. */
  readonly title: string
  /** The README after its first heading. */
  readonly body: string
}

const DOMAIN = new URL('../../domain/', import.meta.url)

/** The READMEs as they are in the repository, in folder order; read once. */
export const AREA_GUIDES: readonly AreaGuide[] = readAreaGuides()

function readAreaGuides(): AreaGuide[] {
  return readdirSync(DOMAIN, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((area) => {
      let text: string
      try {
        text = readFileSync(new URL(`${area}/README.md`, DOMAIN), 'utf8')
      } catch {
        return []
      }
      const { title, body } = splitHeading(text, `domain/${area}/README.md`)
      const parts = subAreaReadmes(area).map((sub) => {
        const section = splitHeading(sub.text, `domain/${area}/${sub.name}/README.md`)
        // One level down: the sub-area's headings sit under the area's.
        return [`## ${section.title}`, demoted(section.body)].join('\n\n')
      })
      return [{ area, title, body: [body, ...parts].join('\n\n') }]
    })
}

/** Headings one level deeper, outside fenced code (a shell comment is not a heading). */
function demoted(body: string): string {
  let fenced = false
  return body
    .split('\n')
    .map((line) => {
      if (/^```/.test(line)) fenced = !fenced
      else if (!fenced && /^#{1,3} /.test(line)) return `#${line}`
      return line
    })
    .join('\n')
}

function splitHeading(text: string, file: string): { title: string; body: string } {
  const heading = /^# (.+)\n/.exec(text)
  if (!heading) throw new Error(`${file} must start with a "# " heading`)
  return { title: heading[1]!.trim(), body: text.slice(heading[0].length).trim() }
}

/** The READMEs of an area's sub-folders, in folder order. */
function subAreaReadmes(area: string): { name: string; text: string }[] {
  return readdirSync(new URL(`${area}/`, DOMAIN), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => {
      try {
        return [{ name, text: readFileSync(new URL(`${area}/${name}/README.md`, DOMAIN), 'utf8') }]
      } catch {
        return []
      }
    })
}

/** The address the READMEs' examples use: `npm start`'s default (ops/config.ts). */
const LOCAL_BASE = 'http://127.0.0.1:8080'

/**
 * One README's body as served: headings two levels deeper (the guide's section is level 2 and the area
 * level 3), links to repository files reduced to their text (the server does not serve the repository),
 * and the examples' address and `$BASE` replaced by the service's base URL. Fenced code is left as it is,
 * apart from the address, so a shell comment is never taken for a heading.
 */
export function servedAreaBody(body: string, baseUrl: string): string {
  let fenced = false
  return body
    .split('\n')
    .map((line) => {
      if (/^```/.test(line)) fenced = !fenced
      else if (!fenced && /^#{1,4} /.test(line)) line = `##${line}`
      if (!fenced) line = line.replace(/\[([^\]]+)\]\((?!https?:|#|mailto:)[^)]*\)/g, '$1')
      return line.replace(/\$BASE\b/g, () => baseUrl).replaceAll(LOCAL_BASE, baseUrl)
    })
    .join('\n')
}

/** The guide's "Area reference" section: a list of the areas, then each README. */
export function areaReferenceSection(baseUrl: string, guides: readonly AreaGuide[] = AREA_GUIDES): string[] {
  const out = [
    '## Area reference',
    '',
    "Each area's rules, errors and limits in prose, beyond what the method list says: the same text as the `README.md` in the area's folder of the source.",
    '',
    ...guides.map((g) => `- ${g.title}`),
    '',
  ]
  for (const guide of guides) out.push(`### ${guide.title}`, '', servedAreaBody(guide.body, baseUrl), '')
  return out
}
