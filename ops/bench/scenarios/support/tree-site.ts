import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The `crawl` bench's site: `total` article pages (`/` and `/p/1` … `/p/{total-1}`) linked as a tree (each
 * page links home, its parent and its ten children), every one listed in /sitemap.xml, named by robots.txt.
 * Pages are generated per request, so the server holds none of them. The monitoring tests' site
 * (test/support/stand-ins/test-site.ts, `tree`) serves the same pages.
 */
export function treePage(index: number, total: number): string {
  const children: string[] = []
  for (let c = index * 10 + 1; c <= index * 10 + 10 && c < total; c++) children.push(`<li><a href="/p/${c}">Guide ${c}</a></li>`)
  const parent = index === 0 ? '' : `<a href="${index <= 10 ? '/' : `/p/${Math.floor((index - 1) / 10)}`}">Up</a>`
  const paragraph = (topic: string) =>
    `<p>Our ${topic} team has spent years helping small shops grow. We write about what works, what does not, and why the details matter more than the slogans.</p>`
  const sections = [1, 2, 3]
    .map((s) => `<h2>Part ${s} of guide ${index}</h2>${paragraph(`section ${s}`)}${paragraph(`guide ${index}`)}${paragraph('soil')}`)
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide ${index}: growing things well</title>
<meta name="description" content="Guide ${index} of ${total}."><link rel="canonical" href="/${index === 0 ? '' : `p/${index}`}"></head>
<body><header><nav><a href="/">Home</a> ${parent}</nav></header><article><h1>Guide ${index}</h1>${sections}
<img src="/img/g${index}.jpg" alt="Guide ${index}"><img src="/img/divider.png" alt=""></article><ul>${children.join('')}</ul>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Guide ${index}"}</script></body></html>`
}

/** The tree's page index for a path, or -1 when the path is not one of its pages. */
export function treeIndex(path: string, total: number): number {
  const match = /^\/(?:p\/(\d+))?$/.exec(path)
  const index = match ? Number(match[1] ?? 0) : -1
  return index >= 0 && index < total ? index : -1
}

/** /sitemap.xml of the tree: every page. */
export function treeSitemap(base: string, total: number): string {
  const urls: string[] = [`<url><loc>${base}/</loc></url>`]
  for (let i = 1; i < total; i++) urls.push(`<url><loc>${base}/p/${i}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`
}

/** Serves the tree on 127.0.0.1; resolves with its base URL and a close function. */
export async function startTreeSite(total: number): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let base = ''
  let requests = 0
  const server = http.createServer((req, res) => {
    requests++
    const path = (req.url ?? '/').replace(/\?.*$/, '')
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      return void res.end(`User-agent: *\nDisallow:\nSitemap: ${base}/sitemap.xml\n`)
    }
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' })
      return void res.end(treeSitemap(base, total))
    }
    const index = treeIndex(path, total)
    const body = index < 0 ? '<!doctype html><title>Not found</title><h1>Not found</h1>' : treePage(index, total)
    res.writeHead(index < 0 ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
