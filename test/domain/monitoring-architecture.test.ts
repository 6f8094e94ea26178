/**
 * The site architecture, pure (domain/monitoring/architecture/tree.ts): click depth by breadth-first search
 * from the home page, inlinks, orphans, deep pages, redirects standing for their target, cycles, pages no link
 * reaches, and the URL tree with its bounds.
 */
import t from 'tap'
import {
  type ArchitectureLink,
  type ArchitecturePage,
  MAX_PAGES_LISTED,
  MAX_TREE_CHILDREN,
  MAX_TREE_LEVELS,
  MAX_TREE_NODES,
  siteArchitecture,
  treeRows,
  urlTree,
} from '../../domain/monitoring/architecture/tree.js'

const S = 'https://acme.example'
const page = (path: string, extra: Partial<ArchitecturePage> = {}): ArchitecturePage => ({
  url: `${S}${path}`,
  page_id: null,
  status: 200,
  in_sitemap: false,
  final_url: null,
  ...extra,
})
const link = (from: string, to: string): ArchitectureLink => ({ from_url: `${S}${from}`, to_url: `${S}${to}` })
const depthOf = (arch: ReturnType<typeof siteArchitecture>, path: string) => arch.pages.find((p) => p.url === `${S}${path}`)?.depth

t.test('depth is the fewest clicks from the home page, over a graph with a cycle', async (t) => {
  const arch = siteArchitecture({
    home_url: `${S}/`,
    pages: ['/', '/a', '/b', '/c', '/d', '/e'].map((p) => page(p)),
    links: [link('/', '/a'), link('/a', '/b'), link('/b', '/c'), link('/c', '/d'), link('/d', '/e'), link('/e', '/a'), link('/', '/c')],
  })
  t.same(
    arch.pages.map((p) => [p.url.slice(S.length), p.depth]),
    [
      ['/', 0],
      ['/a', 1],
      ['/c', 1],
      ['/b', 2],
      ['/d', 2],
      ['/e', 3],
    ],
    'the shortcut / → /c wins over / → a → b → c; the cycle e → a ends the search',
  )
  t.equal(arch.summary.max_depth, 3)
  t.equal(arch.summary.links, 7)
  t.same(arch.deep_pages, [], 'nothing deeper than three clicks')
  const a = arch.pages.find((p) => p.url === `${S}/a`)!
  t.equal(a.inlinks, 2, '/a is linked from / and /e')
  t.same(a.inlink_sources, [`${S}/`, `${S}/e`], 'the shallowest source first')
})

t.test('deep pages, unreachable pages and orphans', async (t) => {
  const arch = siteArchitecture({
    home_url: S, // the website URL without a trailing slash is still the home page
    pages: [
      page('/'),
      page('/1'),
      page('/1/2'),
      page('/1/2/3'),
      page('/1/2/3/4', { in_sitemap: true }),
      page('/lonely', { in_sitemap: true }),
      page('/island'),
      page('/island-child', { in_sitemap: true }),
    ],
    links: [link('/', '/1'), link('/1', '/1/2'), link('/1/2', '/1/2/3'), link('/1/2/3', '/1/2/3/4'), link('/island', '/island-child')],
  })
  t.same(
    arch.deep_pages.map((p) => [p.url.slice(S.length), p.depth]),
    [['/1/2/3/4', 4]],
    'four clicks is deep',
  )
  t.same(
    arch.orphan_pages.map((p) => p.url.slice(S.length)),
    ['/lonely'],
    'an orphan is in the sitemap and linked from nowhere: /island-child is linked (from a page no link reaches) and /island is in no sitemap',
  )
  t.equal(depthOf(arch, '/island'), null, 'no link path from the home page: no depth')
  t.equal(depthOf(arch, '/island-child'), null)
  t.match(arch.summary, { pages: 8, reachable: 5, unreachable: 3, orphans: 1, deep: 1 })
  t.same(
    arch.pages.slice(-3).map((p) => p.url.slice(S.length)),
    ['/island', '/island-child', '/lonely'],
    'unreachable pages come last',
  )
})

t.test('a redirect stands for its target: links to it count as links to where it ends, at no extra click', async (t) => {
  const arch = siteArchitecture({
    home_url: `${S}/`,
    pages: [
      page('/'),
      page('/old', { status: 301, final_url: `${S}/new`, in_sitemap: true }),
      page('/new', { page_id: 9 }),
      page('/loop-a', { status: 302, final_url: `${S}/loop-b` }),
      page('/loop-b', { status: 302, final_url: `${S}/loop-a` }),
    ],
    links: [link('/', '/old'), link('/new', '/'), link('/', '/loop-a')],
  })
  const target = arch.pages.find((p) => p.url === `${S}/new`)!
  t.match(target, { depth: 1, inlinks: 1, page_id: 9, in_sitemap: true }, 'the sitemap listed /old, which ends at /new')
  t.notOk(
    arch.pages.some((p) => p.url === `${S}/old`),
    'the redirecting URL is not a page of its own',
  )
  t.equal(arch.summary.pages, 3, 'a redirect loop ends (its two URLs stand for one node) and the answer comes back')
  t.same(arch.orphan_pages, [])
})

t.test('self-links, duplicate links and links to pages the crawl never saw are not edges', async (t) => {
  const arch = siteArchitecture({
    home_url: `${S}/`,
    pages: [page('/'), page('/a')],
    links: [link('/', '/'), link('/', '/a'), link('/', '/a/'), link('/', '/never-crawled'), { from_url: `${S}/a#top`, to_url: `${S}/` }],
  })
  t.equal(arch.summary.links, 2, '/ → /a once (a trailing slash and a fragment apart) and /a → /')
  t.equal(depthOf(arch, '/a'), 1)
  t.equal(arch.pages.find((p) => p.url === `${S}/`)!.inlinks, 1, 'the home page links to itself: not counted')
})

t.test('without a crawled home page nothing has a depth', async (t) => {
  const arch = siteArchitecture({ home_url: 'https://elsewhere.example/', pages: [page('/a')], links: [] })
  t.equal(arch.summary.reachable, 0)
  t.equal(arch.summary.max_depth, null)
  t.equal(arch.home_url, 'https://elsewhere.example/')
})

t.test('the URL tree nests path segments, counts whole branches and keeps foreign hosts apart', async (t) => {
  const arch = siteArchitecture({
    home_url: `${S}/`,
    pages: [
      page('/'),
      page('/services', { page_id: 2 }),
      page('/services/drains'),
      page('/services/pipes/burst'),
      page('/blog?page=2'),
      { ...page('/about'), url: 'https://www.acme.example/about' },
    ],
    links: [link('/', '/services')],
  })
  const tree = urlTree(arch.home_url, arch.pages)
  t.match(tree, { segment: '', path: '/', url: `${S}/`, depth: 0, pages: 6, omitted_children: 0 })
  t.same(
    tree.children.map((c) => c.segment),
    ['//www.acme.example', 'blog?page=2', 'services'],
    'children alphabetically; another host is a branch of its own',
  )
  const services = tree.children.find((c) => c.segment === 'services')!
  t.match(services, { path: '/services', page_id: 2, depth: 1, pages: 3 })
  const pipes = services.children.find((c) => c.segment === 'pipes')!
  t.match(pipes, { path: '/services/pipes', url: null, page_id: null, pages: 1 }, 'a folder no page sits at')
  t.equal(pipes.children[0]!.path, '/services/pipes/burst')
  t.same(
    arch.tree.map((row) => [row.level, row.path, row.parent]),
    [
      [0, '/', null],
      [1, '//www.acme.example', '/'],
      [2, '//www.acme.example/about', '//www.acme.example'],
      [1, '/blog?page=2', '/'],
      [1, '/services', '/'],
      [2, '/services/drains', '/services'],
      [2, '/services/pipes', '/services'],
      [3, '/services/pipes/burst', '/services/pipes'],
    ],
    'the answer lists the tree flat in drawing order, each row with its level and parent',
  )
  t.same(treeRows(tree), arch.tree)
})

t.test('the tree is bounded in levels, breadth and nodes, and says what it cut', async (t) => {
  const deepPath = Array.from({ length: 12 }, (_, i) => `l${i}`).join('/')
  const wide = Array.from({ length: 120 }, (_, i) => page(`/wide/p${String(i).padStart(3, '0')}`))
  const many = Array.from({ length: 40 }, (_, i) => Array.from({ length: 30 }, (_, j) => page(`/many/g${i}/p${j}`))).flat()
  const arch = siteArchitecture({ home_url: `${S}/`, pages: [page('/'), page(`/${deepPath}`), ...wide, ...many], links: [] })
  const rows = arch.tree
  t.equal(arch.summary.pages, 1322)
  t.equal(arch.pages.length, MAX_PAGES_LISTED, 'pages listed up to the bound; the summary counts them all')
  t.equal(rows[0]!.pages, 1322, 'the root counts every page, listed or not')
  t.ok(rows.length <= MAX_TREE_NODES, `at most ${MAX_TREE_NODES} nodes (${rows.length})`)
  t.ok(Math.max(...rows.map((r) => r.level)) <= MAX_TREE_LEVELS, `at most ${MAX_TREE_LEVELS} levels`)
  const childrenOf = (path: string) => rows.filter((r) => r.parent === path)
  const wideRow = rows.find((r) => r.path === '/wide')!
  t.equal(childrenOf('/wide').length + wideRow.omitted_children, 120, 'shown and omitted children add up')
  t.ok(childrenOf('/wide').length <= MAX_TREE_CHILDREN)
  for (const [i, row] of rows.entries()) {
    if (row.parent === null) continue
    const parentIndex = rows.findIndex((r) => r.path === row.parent)
    if (parentIndex < 0 || parentIndex >= i) t.fail(`${row.path} comes after its parent`)
  }
})

t.test('a chain deeper than the level bound is cut at the last level, which says so', async (t) => {
  const deepPath = Array.from({ length: 12 }, (_, i) => `l${i}`).join('/')
  const rows = siteArchitecture({ home_url: `${S}/`, pages: [page('/'), page(`/${deepPath}`)], links: [] }).tree
  const last = rows.at(-1)!
  t.equal(rows.length, MAX_TREE_LEVELS + 1, 'the root and one row per level')
  t.equal(last.level, MAX_TREE_LEVELS)
  t.equal(last.omitted_children, 1, 'one child cut below it')
  t.equal(last.pages, 1, 'its branch still counts the page below the cut')
})
