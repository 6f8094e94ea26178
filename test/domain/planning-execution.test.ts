/**
 * The pure rules execute_tier_a and fulfill_selected carry items out by: which pages link to a target and how
 * the link is added, where a gone page redirects, and the draft page's URL, title and template.
 */
import t from 'tap'
import { draftPageContent, draftPageTitle, draftPageUrl, slugOf } from '../../domain/planning/execution/draft-page.js'
import { linkSources, linksTo, withLinkTo, wordsOf } from '../../domain/planning/execution/internal-links.js'
import { closestLivePage } from '../../domain/planning/execution/redirect-target.js'

const site = 'https://acme.example.com'
const page = (id: number, path: string, title: string, content = '<p>Text</p>') => ({ id, url: `${site}${path}`, title, content })

t.test('wordsOf keeps meaningful words of text and paths', async (t) => {
  t.same([...wordsOf('/services/water-heaters')], ['services', 'water', 'heaters'])
  t.same([...wordsOf('Plumber near me in Austin')], ['plumber', 'austin'], 'stop words and short words out')
})

t.test('linksTo: absolute and root-relative hrefs, trailing slash aside', async (t) => {
  const target = `${site}/services/drains`
  t.ok(linksTo('<a href="https://ACME.example.com/services/drains/">x</a>', target))
  t.ok(linksTo("<a href='/services/drains'>x</a>", target))
  t.notOk(linksTo('<a href="/services/drains-old">x</a>', target))
  t.notOk(linksTo('services/drains in text', target))
})

t.test('withLinkTo adds one related link before </body>, or at the end; nothing when it links already', async (t) => {
  const target = { url: `${site}/heaters`, anchor: 'Water heaters & more' }
  t.equal(
    withLinkTo('<html><body><p>Hi</p></body></html>', target),
    `<html><body><p>Hi</p><p class="related-link">Related: <a href="${site}/heaters">Water heaters &amp; more</a></p>\n</body></html>`,
  )
  t.equal(
    withLinkTo('<p>Hi</p>', target),
    `<p>Hi</p>\n<p class="related-link">Related: <a href="${site}/heaters">Water heaters &amp; more</a></p>\n`,
  )
  t.equal(withLinkTo('<a href="/heaters">heaters</a>', target), null)
})

t.test('linkSources: most related first, ties by id, never the target or a page that links already, at most 3', async (t) => {
  const target = { id: 1, url: `${site}/services/water-heaters`, title: 'Water heaters', anchor: 'tankless water heater' }
  const candidates = [
    page(1, '/services/water-heaters', 'Water heaters'),
    page(2, '/about', 'About us'),
    page(3, '/services/drains', 'Drain services'),
    page(4, '/blog/tankless-water-heater-guide', 'Tankless water heater guide'),
    page(5, '/contact', 'Contact', '<a href="/services/water-heaters">heaters</a>'),
    page(6, '/faq', 'FAQ'),
  ]
  t.same(
    linkSources(target, candidates).map((c) => c.id),
    [4, 3, 2],
    'the guide (3 shared words), the services page (1), then the lowest id',
  )
  t.same(
    linkSources(target, candidates, 1).map((c) => c.id),
    [4],
  )
  t.same(linkSources(target, [candidates[0]!, candidates[4]!]), [], 'nothing left to link from')
})

t.test('closestLivePage: the longest shared path, then shared words, then the shortest path', async (t) => {
  const live = [
    { id: 1, url: `${site}/`, title: 'Home' },
    { id: 2, url: `${site}/services`, title: 'Services' },
    { id: 3, url: `${site}/services/drains`, title: 'Drain cleaning' },
    { id: 4, url: `${site}/blog/drain-tips`, title: 'Drain tips' },
  ]
  t.equal(closestLivePage(`${site}/services/drains/old-offer`, live)?.id, 3)
  t.equal(closestLivePage(`${site}/services/roofing`, live)?.id, 2)
  t.equal(closestLivePage(`${site}/drain-tips-2019`, live)?.id, 4, 'no shared path: the words decide')
  t.equal(closestLivePage(`${site}/careers`, live)?.id, 1, 'nothing closer: the home page')
  t.equal(closestLivePage(`${site}/`, [live[0]!]), null, 'never to itself')
})

t.test('the draft page: a slug URL, a titled template that states only what it was given', async (t) => {
  t.equal(slugOf('Émergency Plumber — Austin!'), 'emergency-plumber-austin')
  t.equal(draftPageUrl(`${site}/`, 'Emergency plumber'), `${site}/emergency-plumber`)
  t.equal(draftPageUrl(site, '!!!'), `${site}/new-page`)
  const brief = { keyword: 'emergency plumber', business: 'Acme <Plumbing>', location: 'Austin, TX', services: ['Drains', ''] }
  t.equal(draftPageTitle(brief), 'Emergency Plumber in Austin')
  t.equal(draftPageTitle({ ...brief, keyword: 'austin emergency plumber' }), 'Austin Emergency Plumber', 'the city is not repeated')
  const html = draftPageContent(brief)
  t.match(html, '<h1>Emergency Plumber in Austin</h1>')
  t.match(html, 'Acme &lt;Plumbing&gt; can help', 'escaped')
  t.match(html, '<ul><li>Drains</li></ul>')
  t.notMatch(html, /\$|\d+%|free|guarantee/i, 'no prices, offers or promises')
  t.notMatch(draftPageContent({ ...brief, services: [] }), '<ul>', 'no services: no list')
})
