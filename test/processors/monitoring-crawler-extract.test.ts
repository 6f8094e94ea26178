/**
 * The extractor (processors/monitoring/scans/crawler/extract.ts): a pure function from one response to a
 * PageState, shared by crawls and render scans. Every field, the bounds, and what the content hash covers.
 */
import t from 'tap'
import { MAX_LINKS, PageState } from '../../domain/monitoring/page-state.js'
import { decodeBody } from '../../processors/monitoring/scans/crawler/charset.js'
import { countWords, extractPageState } from '../../processors/monitoring/scans/crawler/extract.js'
import { normalizeUrl, sameSite } from '../../processors/monitoring/scans/crawler/urls.js'

const HTML = { 'content-type': 'text/html; charset=utf-8' }
const page = `<!doctype html><html><head>
<title>  Garden
  tools </title>
<base href="https://acme.example/shop/">
<meta name="Description" content="Spades, forks and rakes.">
<meta name="robots" content="max-snippet:50">
<link rel="canonical" href="/shop/tools#top">
<link rel="alternate" hreflang="de-DE" href="https://acme.example/de/shop/tools">
<link rel="alternate" hreflang="x-default" href="tools">
<script type="application/ld+json">[{"@type":"Product"},{"@type":["Offer","Product"]}]</script>
<script type="application/ld+json">{"@graph":[{"@type":"BreadcrumbList","item":{"@type":"ListItem"}}]}</script>
<script type="application/ld+json">{ broken</script>
<style>.x { color: red }</style>
</head><body>
<nav><a href="/">Home</a><a href="/">Home again</a><a href="tools#reviews">Reviews</a></nav>
<article><h1>Garden tools</h1><p>Our spades are forged, not stamped. Our forks don't bend.</p>
<h3>Care</h3><p>Oil the blades every autumn.</p>
<img src="spade.jpg" alt="A spade"><img src="fork.jpg" alt=""><img src="rake.jpg"><img alt="no source">
<a href="https://WWW.Acme.Example:443/about">About</a><a href="https://other.example/x#y">Elsewhere</a>
<a href="mailto:shop@acme.example">Mail</a><a href="javascript:void(0)">Nothing</a></article>
<script>var hidden = 'not text'</script>
</body></html>`

t.test('every field of an HTML page', async (t) => {
  const state = extractPageState('https://acme.example/shop/tools', 'https://acme.example/shop/tools', 200, HTML, page, {
    redirects: [{ url: 'http://acme.example/shop/tools', status: 301 }],
  })
  PageState.parse(state)
  t.equal(state.title, 'Garden tools', 'whitespace collapsed')
  t.equal(state.meta_description, 'Spades, forks and rakes.', 'the meta name is matched in any case')
  t.equal(state.canonical, 'https://acme.example/shop/tools', 'absolute, without fragment')
  t.equal(state.robots, 'max-snippet:50')
  t.equal(state.noindex, false)
  t.same(state.hreflang, [
    { lang: 'de-de', href: 'https://acme.example/de/shop/tools' },
    { lang: 'x-default', href: 'https://acme.example/shop/tools' },
  ])
  t.same(state.json_ld_types, ['Product', 'Offer', 'BreadcrumbList'], 'distinct; @graph members; nested items and broken blocks ignored')
  t.same(state.headings, [
    { level: 1, text: 'Garden tools' },
    { level: 3, text: 'Care' },
  ])
  t.same(state.internal_links, ['https://acme.example/', 'https://acme.example/shop/tools', 'https://www.acme.example/about'])
  t.same(state.outgoing_links, ['https://other.example/x'])
  t.same(state.images, [
    { src: 'https://acme.example/shop/spade.jpg', alt: 'A spade' },
    { src: 'https://acme.example/shop/fork.jpg', alt: '' },
    { src: 'https://acme.example/shop/rake.jpg', alt: null },
  ])
  t.match(state.main_text, /Our spades are forged, not stamped\. Our forks don't bend\./)
  t.notMatch(state.main_text, /not text|color: red/, 'scripts and styles are not text')
  t.equal(state.word_count, countWords(state.main_text))
  t.same(state.redirects, [{ url: 'http://acme.example/shop/tools', status: 301 }])
  t.equal(state.truncated, false)
})

t.test('robots: the meta tag and X-Robots-Tag together', async (t) => {
  const both = extractPageState('https://a.example/', 'https://a.example/', 200, { ...HTML, 'X-Robots-Tag': 'noindex' }, page)
  t.equal(both.robots, 'max-snippet:50, noindex')
  t.equal(both.noindex, true)
  const none = extractPageState(
    'https://a.example/',
    'https://a.example/',
    200,
    HTML,
    '<html><head><meta name="robots" content="none"></head></html>',
  )
  t.equal(none.noindex, true, '"none" means noindex, nofollow')
  const pdf = extractPageState(
    'https://a.example/f.pdf',
    'https://a.example/f.pdf',
    200,
    { 'content-type': 'application/pdf', 'x-robots-tag': 'noindex' },
    '%PDF',
  )
  t.equal(pdf.noindex, true, 'the header speaks for non-HTML too')
})

t.test('a non-HTML response: its status and empty content', async (t) => {
  const state = extractPageState(
    'https://a.example/data.json',
    'https://a.example/data.json',
    500,
    { 'content-type': 'application/json' },
    '{"a":"<h1>x</h1>"}',
  )
  PageState.parse(state)
  t.match(state, {
    status: 500,
    content_type: 'application/json',
    title: null,
    headings: [],
    main_text: '',
    word_count: 0,
    internal_links: [],
  })
  const sniffed = extractPageState('https://a.example/', 'https://a.example/', 200, {}, '<!DOCTYPE html><title>No header</title>')
  t.equal(sniffed.title, 'No header', 'without a Content-Type, HTML is recognised by its start')
})

t.test('the content hash: what the page says, not where or how much was read', async (t) => {
  const a = extractPageState('https://a.example/x', 'https://a.example/x', 200, HTML, page)
  const moved = extractPageState('https://a.example/y', 'https://a.example/x', 200, HTML, page, { truncated: true })
  t.equal(moved.content_hash, a.content_hash, 'url and truncated are left out')
  const edited = extractPageState('https://a.example/x', 'https://a.example/x', 200, HTML, page.replace('autumn', 'spring'))
  t.not(edited.content_hash, a.content_hash, 'a word changed: another hash')
  const status = extractPageState('https://a.example/x', 'https://a.example/x', 404, HTML, page)
  t.not(status.content_hash, a.content_hash, 'the status is part of it')
  t.equal(extractPageState('https://a.example/x', 'https://a.example/x', 200, HTML, page).content_hash, a.content_hash, 'deterministic')
})

t.test('bounds: lists cut at page-state.ts’s maximums, long values cut', async (t) => {
  const links = Array.from({ length: MAX_LINKS + 200 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('')
  const long = `<html><head><title>${'t'.repeat(900)}</title></head><body>${links}<p>${'word '.repeat(30_000)}</p></body></html>`
  const state = extractPageState('https://a.example/', 'https://a.example/', 200, HTML, long)
  PageState.parse(state)
  t.equal(state.internal_links.length, MAX_LINKS)
  t.equal(state.title?.length, 500)
  t.equal(state.main_text.length <= 100_000, true)
  t.ok(state.word_count >= 30_000, 'the words are counted before the text is cut')
})

t.test('a page Readability finds no article in: the body text stands in', async (t) => {
  const state = extractPageState(
    'https://a.example/',
    'https://a.example/',
    200,
    HTML,
    '<html><body><div>Just</div><div>two words</div></body></html>',
  )
  t.equal(state.main_text, 'Just two words')
  t.equal(state.word_count, 3)
})

t.test('decoding: charset from the header, then the meta tag; invalid bytes replaced', async (t) => {
  t.equal(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=ISO-8859-1'), 'café')
  t.equal(
    decodeBody(Buffer.from('<meta charset="windows-1252"><p>\x80</p>', 'latin1'), 'text/html'),
    '<meta charset="windows-1252"><p>€</p>',
  )
  t.equal(decodeBody(Buffer.from([0x61, 0xff, 0x62]), 'text/html; charset=utf-8'), 'a\uFFFDb')
  t.equal(decodeBody(Buffer.from('abc'), 'text/html; charset=no-such-thing'), 'abc', 'an unknown label falls back to UTF-8')
  t.equal(decodeBody(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]), 'text/html; charset=iso-8859-1'), 'hi', 'a BOM wins')
})

t.test('URLs: normal form and same site', async (t) => {
  t.equal(normalizeUrl('HTTPS://Acme.Example:443/A/b?Q=1#frag'), 'https://acme.example/A/b?Q=1')
  t.equal(normalizeUrl('http://user:pw@acme.example:80/'), 'http://acme.example/')
  t.equal(normalizeUrl('../up', 'https://acme.example/a/b/c'), 'https://acme.example/a/up')
  t.equal(normalizeUrl('mailto:x@acme.example'), null)
  t.equal(normalizeUrl('http://'), null)
  t.ok(sameSite('https://www.acme.example/x', 'acme.example'))
  t.notOk(sameSite('https://shop.acme.example/x', 'acme.example'))
  t.notOk(sameSite('https://acme.example:8443/x', 'acme.example'))
})
