/**
 * What a first-time user copies: the README's quick start defines every shell variable it uses, and every
 * local URL in the README, the areas' READMEs and the generated documents names the port the service really
 * listens on by default (ops/config.ts), so a pasted example reaches the service `npm start` runs.
 */
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import { loadConfig } from '../../ops/config.js'
import { startTestSystem } from '../support/system.js'
import { appWith, registryWith } from './docs-support.js'

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
/** The areas' own READMEs (domain/<area>/README.md), where the top-level README sends readers for reference. */
const AREA_READMES = readdirSync(new URL('../../domain/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => new URL(`../../domain/${entry.name}/README.md`, import.meta.url))
  .flatMap((url) => {
    try {
      return [{ path: url.pathname, text: readFileSync(url, 'utf8') }]
    } catch {
      return []
    }
  })
const DEFAULTS = loadConfig({})

/**
 * Every http(s) URL on this machine (127.0.0.1, localhost, [::1]) that names a port, with that port. (Prose
 * about loopback addresses, such as the redirect-URI rules, names none; a URL with a port is an example.)
 */
function localUrls(text: string): { url: string; port: number }[] {
  const found: { url: string; port: number }[] = []
  for (const match of text.matchAll(/\bhttps?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)[^\s"'`)<>\]]*/g))
    found.push({ url: match[0], port: Number(match[1]) })
  return found
}

/** The fenced code blocks of a markdown text, with the line each starts on. */
function codeBlocks(markdown: string): { line: number; lang: string; body: string }[] {
  const blocks: { line: number; lang: string; body: string }[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l))
    if (end < 0) break
    blocks.push({ line: i + 1, lang: open[1]!, body: lines.slice(i + 1, end).join('\n') })
    i = end
  }
  return blocks
}

t.test('the default port is what the examples assume', async (t) => {
  t.equal(DEFAULTS.port, 8080, 'ops/config.ts: PORT defaults to 8080')
  t.equal(new URL(DEFAULTS.baseUrl).port, String(DEFAULTS.port), 'and the default BASE_URL uses it')
})

t.test('every local URL in the README uses the default port', async (t) => {
  const urls = localUrls(README)
  t.ok(urls.length >= 3, `${urls.length} local URLs in the README`)
  for (const { url, port } of urls) t.equal(port, DEFAULTS.port, url)
  t.ok(AREA_READMES.length >= 4, `${AREA_READMES.length} area READMEs`)
  for (const { path, text } of AREA_READMES) for (const { url, port } of localUrls(text)) t.equal(port, DEFAULTS.port, `${path}: ${url}`)
})

t.test("the README's quick start defines every shell variable it uses", async (t) => {
  const quickStart = codeBlocks(README).filter((b) => b.lang === 'sh' && b.body.includes('create_api_key'))
  t.equal(quickStart.length, 1, 'one quick-start block creates an API key')
  const body = quickStart[0]!.body
  const used = [...new Set([...body.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!))]
  t.ok(used.length > 0, `it uses ${used.join(', ')}`)
  for (const name of used) {
    const defined = body.search(new RegExp(`^\\s*(?:export\\s+)?${name}=`, 'm'))
    const firstUse = body.search(new RegExp(`\\$\\{?${name}\\b`))
    t.ok(defined >= 0 && defined < firstUse, `$${name} is defined before its first use`)
  }
  t.match(body, /ORG_KEY=\$\(curl[^)]*create_api_key/s, "ORG_KEY comes from create_api_key's answer")
})

t.test('every local URL in the generated documents uses the configured port', async (t) => {
  const ts = await startTestSystem(t)
  // The documents as a default install serves them: no BASE_URL, so the base is the default one.
  const app = await appWith(t, ts, registryWith(), { baseUrl: DEFAULTS.baseUrl })
  for (const url of ['/developers.md', '/llms.txt', '/llms-full.txt', '/changelog.md', '/api/v1/openapi.json']) {
    const response = await app.inject({ url })
    t.equal(response.statusCode, 200, url)
    const urls = localUrls(response.body)
    t.ok(urls.length > 0 || url === '/changelog.md', `${url}: ${urls.length} local URLs`)
    for (const found of urls) t.equal(found.port, DEFAULTS.port, `${url}: ${found.url}`)
  }
})
