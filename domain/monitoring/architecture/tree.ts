import { pageUrlKey } from '../../pages/url.js'

/**
 * The site architecture as a graph (get_site_architecture): pages are nodes, internal links are edges, and
 * the home page is where a visitor starts. Pure: the caller hands in the latest crawl's pages and the links
 * of their latest snapshots. URLs are compared by `pageUrlKey` (domain/pages/url.ts), and a URL that
 * redirects stands for where it ends, so a link to `/old` that answers 301 to `/new` counts as a link to
 * `/new`, at no extra click.
 */

/** A page of the crawl. */
export interface ArchitecturePage {
  readonly url: string
  readonly page_id: number | null
  /** The HTTP status the crawl saw; null when it has none (a failed fetch). */
  readonly status: number | null
  readonly in_sitemap: boolean
  /** Where the URL's redirects end, when it redirects; null or the URL itself otherwise. */
  readonly final_url: string | null
}

export interface ArchitectureLink {
  readonly from_url: string
  readonly to_url: string
}

export interface ArchitectureInput {
  /** The client's website URL: the home page, depth 0. */
  readonly home_url: string
  readonly pages: readonly ArchitecturePage[]
  readonly links: readonly ArchitectureLink[]
}

/** Pages deeper than this many clicks from the home page are listed as deep. */
export const DEEP_PAGE_CLICKS = 3
/** How many linking pages each page names (the count is always whole). */
export const MAX_INLINK_SOURCES = 3
/** Pages listed in full; the rest are counted. */
export const MAX_PAGES_LISTED = 1000
/** Orphan and deep pages listed each; the rest are counted. */
export const MAX_FLAGGED_LISTED = 200
/** The tree shows this many levels of path segments below the root… */
export const MAX_TREE_LEVELS = 6
/** …at most this many children under one node (the biggest branches first)… */
export const MAX_TREE_CHILDREN = 50
/** …and this many nodes in all; what is cut is counted in its parent's `omitted_children`. */
export const MAX_TREE_NODES = 500
/** Redirect chains are followed this far (a loop ends there). */
const MAX_ALIAS_HOPS = 10

export interface ArchitecturePageView {
  url: string
  page_id: number | null
  status: number | null
  in_sitemap: boolean
  /** Clicks from the home page over internal links; null when no link path reaches the page. */
  depth: number | null
  /** Distinct pages linking here (the page itself not counted). */
  inlinks: number
  /** Up to MAX_INLINK_SOURCES of them, shallowest first. */
  inlink_sources: string[]
}

export interface TreeNode {
  /** The path segment ('' for the root; `//host` for a page on another host of the site). */
  segment: string
  /** The path from the root to here, e.g. /services/drains. */
  path: string
  /** The crawled page at exactly this path, if any (null for a folder no page sits at). */
  url: string | null
  page_id: number | null
  depth: number | null
  /** Crawled pages at this node and below it (whole, even where children are cut). */
  pages: number
  children: TreeNode[]
  /** Children not shown (beyond the level, breadth or node bounds). */
  omitted_children: number
}

/**
 * A node of the tree as the answer lists it: flat, in drawing order (pre-order: a node, then its children's
 * branches alphabetically), so an agent draws it line by line, indented by `level`.
 */
export interface TreeRow {
  path: string
  /** The parent's path; null for the root. */
  parent: string | null
  segment: string
  /** 0 for the root, 1 for its children, … */
  level: number
  url: string | null
  page_id: number | null
  depth: number | null
  pages: number
  omitted_children: number
}

/** The nested tree flattened in pre-order. */
export function treeRows(root: TreeNode): TreeRow[] {
  const rows: TreeRow[] = []
  const visit = (node: TreeNode, parent: string | null, level: number) => {
    const { children, ...rest } = node
    rows.push({ ...rest, parent, level })
    for (const child of children) visit(child, node.path, level + 1)
  }
  visit(root, null, 0)
  return rows
}

export interface SiteArchitecture {
  home_url: string
  summary: {
    pages: number
    reachable: number
    unreachable: number
    max_depth: number | null
    orphans: number
    deep: number
    links: number
  }
  pages: ArchitecturePageView[]
  orphan_pages: ArchitecturePageView[]
  deep_pages: ArchitecturePageView[]
  tree: TreeRow[]
}

interface Node {
  readonly key: string
  readonly page: ArchitecturePage
  depth: number | null
  readonly out: Set<string>
  readonly inlinks: Set<string>
}

const byUrl = (a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)

/** Depth first (unreachable last), then URL: the order every list of the answer uses. */
function byDepthThenUrl(a: ArchitecturePageView, b: ArchitecturePageView): number {
  const da = a.depth ?? Number.POSITIVE_INFINITY
  const db = b.depth ?? Number.POSITIVE_INFINITY
  return da !== db ? da - db : byUrl(a, b)
}

/** The map from a redirecting URL's key to where it ends, and the resolver that follows it. */
function aliasResolver(pages: readonly ArchitecturePage[]): (key: string) => string {
  const alias = new Map<string, string>()
  for (const page of pages) {
    if (page.final_url === null) continue
    const from = pageUrlKey(page.url)
    const to = pageUrlKey(page.final_url)
    if (from !== to) alias.set(from, to)
  }
  return (key) => {
    const seen = [key]
    for (let hop = 0; hop < MAX_ALIAS_HOPS; hop++) {
      const next = alias.get(seen.at(-1)!)
      if (next === undefined) break
      const loopStart = seen.indexOf(next)
      // A redirect loop: every URL on it stands for the same node, named by its smallest key.
      if (loopStart >= 0) return seen.slice(loopStart).sort()[0]!
      seen.push(next)
    }
    return seen.at(-1)!
  }
}

/**
 * The graph's nodes: one per resolved URL. The page fetched at that URL itself stands for it (else the first
 * redirecting URL by order); it is in the sitemap when any URL standing for it is.
 */
function nodesOf(pages: readonly ArchitecturePage[], resolve: (key: string) => string): Map<string, Node> {
  const groups = new Map<string, ArchitecturePage[]>()
  for (const page of [...pages].sort(byUrl)) {
    const key = resolve(pageUrlKey(page.url))
    const group = groups.get(key)
    if (group) group.push(page)
    else groups.set(key, [page])
  }
  const nodes = new Map<string, Node>()
  for (const [key, group] of groups) {
    const chosen = group.find((p) => pageUrlKey(p.url) === key) ?? group[0]!
    const inSitemap = group.some((p) => p.in_sitemap)
    nodes.set(key, { key, page: { ...chosen, in_sitemap: inSitemap }, depth: null, out: new Set(), inlinks: new Set() })
  }
  return nodes
}

/** Breadth-first from the home page: each node's fewest clicks. */
function assignDepths(nodes: Map<string, Node>, homeKey: string | null): void {
  if (homeKey === null) return
  const home = nodes.get(homeKey)
  if (!home) return
  home.depth = 0
  const queue: Node[] = [home]
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!
    for (const target of [...node.out].sort()) {
      const next = nodes.get(target)!
      if (next.depth !== null) continue
      next.depth = node.depth! + 1
      queue.push(next)
    }
  }
}

/** The home page's node: the website URL itself, else its site root. */
function homeKeyOf(homeUrl: string, nodes: Map<string, Node>, resolve: (key: string) => string): string | null {
  const candidates = [homeUrl]
  const origin = originOf(homeUrl)
  if (origin !== null) candidates.push(`${origin}/`)
  for (const candidate of candidates) {
    const key = resolve(pageUrlKey(candidate))
    if (nodes.has(key)) return key
  }
  return null
}

function originOf(url: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url.trim())
  return match ? match[1]!.toLowerCase() : null
}

function viewOf(node: Node, nodes: Map<string, Node>): ArchitecturePageView {
  const sources = [...node.inlinks]
    .map((key) => nodes.get(key)!)
    .sort((a, b) => (a.depth ?? Number.POSITIVE_INFINITY) - (b.depth ?? Number.POSITIVE_INFINITY) || (a.key < b.key ? -1 : 1))
    .slice(0, MAX_INLINK_SOURCES)
    .map((n) => n.page.url)
  return {
    url: node.page.url,
    page_id: node.page.page_id,
    status: node.page.status,
    in_sitemap: node.page.in_sitemap,
    depth: node.depth,
    inlinks: node.inlinks.size,
    inlink_sources: sources,
  }
}

/** The architecture of a crawled site: depths, inlinks, orphans, deep pages and the bounded URL tree. */
export function siteArchitecture(input: ArchitectureInput): SiteArchitecture {
  const resolve = aliasResolver(input.pages)
  const nodes = nodesOf(input.pages, resolve)
  let links = 0
  for (const link of input.links) {
    const from = nodes.get(resolve(pageUrlKey(link.from_url)))
    const to = resolve(pageUrlKey(link.to_url))
    if (!from || from.key === to || !nodes.has(to) || from.out.has(to)) continue
    from.out.add(to)
    nodes.get(to)!.inlinks.add(from.key)
    links++
  }
  const homeKey = homeKeyOf(input.home_url, nodes, resolve)
  assignDepths(nodes, homeKey)

  const views = [...nodes.values()].map((node) => viewOf(node, nodes)).sort(byDepthThenUrl)
  const orphans = views.filter((v) => v.in_sitemap && v.inlinks === 0 && v.depth !== 0)
  const deep = views.filter((v) => v.depth !== null && v.depth > DEEP_PAGE_CLICKS)
  const reachable = views.filter((v) => v.depth !== null)
  const depths = reachable.map((v) => v.depth!)
  return {
    home_url: homeKey === null ? input.home_url : nodes.get(homeKey)!.page.url,
    summary: {
      pages: views.length,
      reachable: reachable.length,
      unreachable: views.length - reachable.length,
      max_depth: depths.length === 0 ? null : Math.max(...depths),
      orphans: orphans.length,
      deep: deep.length,
      links,
    },
    pages: views.slice(0, MAX_PAGES_LISTED),
    orphan_pages: orphans.slice(0, MAX_FLAGGED_LISTED),
    deep_pages: deep.slice(0, MAX_FLAGGED_LISTED),
    tree: treeRows(urlTree(homeKey === null ? input.home_url : nodes.get(homeKey)!.page.url, views)),
  }
}

interface Trie {
  readonly segment: string
  readonly path: string
  page: ArchitecturePageView | null
  pages: number
  readonly children: Map<string, Trie>
}

/** A URL's place in the tree: its path segments, a foreign host first as `//host`, the query kept on the last. */
function segmentsOf(url: string, homeOrigin: string | null): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url.trim())
  if (!match) return url.split('/').filter((s) => s !== '')
  const origin = match[1]!.toLowerCase()
  const segments = match[2]!.split('/').filter((s) => s !== '')
  const query = match[3] ?? ''
  if (query !== '') {
    if (segments.length === 0) segments.push(query)
    else segments[segments.length - 1] += query
  }
  return origin === homeOrigin ? segments : [`//${origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}`, ...segments]
}

/**
 * The URL tree: pages placed by their path segments under the home page's origin. Bounded by
 * MAX_TREE_LEVELS, MAX_TREE_CHILDREN and MAX_TREE_NODES (filled breadth-first, the biggest branches first);
 * every node's `pages` counts its whole branch, and `omitted_children` what was cut from under it.
 */
export function urlTree(homeUrl: string, pages: readonly ArchitecturePageView[]): TreeNode {
  const homeOrigin = originOf(homeUrl)
  const root: Trie = { segment: '', path: '/', page: null, pages: 0, children: new Map() }
  for (const page of pages) {
    let node = root
    node.pages++
    for (const segment of segmentsOf(page.url, homeOrigin)) {
      let child = node.children.get(segment)
      if (!child) {
        const path = node.path !== '/' ? `${node.path}/${segment}` : segment.startsWith('//') ? segment : `/${segment}`
        child = { segment, path, page: null, pages: 0, children: new Map() }
        node.children.set(segment, child)
      }
      child.pages++
      node = child
    }
    // Two URLs at one path (a trailing slash apart): the shallower, then the first by URL, sits there.
    if (node.page === null) node.page = page
  }
  const out = (trie: Trie): TreeNode => ({
    segment: trie.segment,
    path: trie.path,
    url: trie.page?.url ?? null,
    page_id: trie.page?.page_id ?? null,
    depth: trie.page?.depth ?? null,
    pages: trie.pages,
    children: [],
    omitted_children: 0,
  })
  const top = out(root)
  let budget = MAX_TREE_NODES - 1
  const queue: { trie: Trie; node: TreeNode; level: number }[] = [{ trie: root, node: top, level: 0 }]
  for (let i = 0; i < queue.length; i++) {
    const { trie, node, level } = queue[i]!
    const children = [...trie.children.values()].sort((a, b) => b.pages - a.pages || (a.segment < b.segment ? -1 : 1))
    for (const [index, child] of children.entries()) {
      if (level + 1 > MAX_TREE_LEVELS || index >= MAX_TREE_CHILDREN || budget <= 0) {
        node.omitted_children++
        continue
      }
      budget--
      const childNode = out(child)
      node.children.push(childNode)
      queue.push({ trie: child, node: childNode, level: level + 1 })
    }
    // Shown alphabetically, as a file tree is drawn; which ones are shown was decided by size above.
    node.children.sort((a, b) => (a.segment < b.segment ? -1 : a.segment > b.segment ? 1 : 0))
  }
  return top
}
