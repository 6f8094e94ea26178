/**
 * The WordPress client (commands/publishing/wordpress/) against the local WordPress stand-in: the connection
 * check, reading and writing pages and posts, the Redirection plugin's redirects.
 */
import t, { type Test } from 'tap'
import { wordPressClient } from '../../commands/publishing/wordpress/client.js'
import { wordPressVersionOfFeed } from '../../commands/publishing/wordpress/wp-version.js'
import {
  standInSettings as testSettings,
  startWordPressStandIn,
  wordPressFailure as failure,
  type WordPressStandInOptions,
} from '../support/stand-ins/wordpress.js'

async function standIn(tt: Test, options: WordPressStandInOptions = {}) {
  const wp = await startWordPressStandIn(options)
  tt.teardown(() => wp.close())
  return wp
}

t.test('checkSite reports what the site runs, with the password checked', async (t) => {
  const wp = await standIn(t)
  const check = await wordPressClient(testSettings(), wp.credentials).checkSite()
  t.same(check, {
    rest_url: `${wp.url}/wp-json/`,
    site_name: 'Harbor Street Bakery',
    home_url: wp.url,
    wp_version: '6.6.2',
    user: { id: 1, name: 'Dana Baker', slug: 'editor', roles: ['administrator'] },
    theme: { stylesheet: 'astra', name: 'Astra', version: '4.8.3' },
    plugins: [
      { plugin: 'wordpress-seo/wp-seo', name: 'Yoast SEO', version: '23.5', status: 'active' },
      { plugin: 'seo-by-rank-math/rank-math', name: 'Rank Math SEO', version: '1.0.228', status: 'inactive' },
      { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.0', status: 'active' },
      { plugin: 'elementor/elementor', name: 'Elementor', version: '3.24.4', status: 'inactive' },
      { plugin: 'akismet/akismet', name: 'Akismet Anti-spam: Spam Protection', version: '5.3.3', status: 'inactive' },
    ],
    seo_plugin: 'yoast',
    redirection: true,
    elementor: false,
  })
  const rest = wp.requests.filter((r) => r.path.startsWith('/wp-json'))
  t.ok(rest.length >= 4 && rest.every((r) => r.auth === 'valid'), 'every REST request carried the application password')
  // Sent without the spaces WordPress shows, as WordPress itself strips them.
  const sent = Buffer.from(rest[0]!.authorization!.replace(/^Basic /, ''), 'base64').toString()
  t.equal(sent, 'editor:abcdEFGH1234ijklMNOP5678')
  const feed = wp.requests.find((r) => r.query.feed === 'rss2')
  t.ok(feed, 'the version came from the feed')
  t.equal(feed!.authorization, undefined, 'the public feed is not sent the password')
})

t.test('an editor may not list plugins: plugins null, the plugins still known from the REST namespaces', async (t) => {
  const wp = await standIn(t, { roles: ['editor'], seo: 'rank_math', elementor: true, redirection: false, wpVersion: null })
  const check = await wordPressClient(testSettings(), wp.credentials).checkSite()
  t.equal(check.plugins, null)
  t.same(check.user.roles, ['editor'])
  t.equal(check.seo_plugin, 'rank_math')
  t.equal(check.elementor, true)
  t.equal(check.redirection, false)
  t.equal(check.wp_version, null, 'a site that hides its generator has no known version')
  t.same(check.theme, { stylesheet: 'astra', name: 'Astra', version: '4.8.3' }, 'the active theme is visible to editors')
})

t.test('no SEO plugin, no Redirection', async (t) => {
  const wp = await standIn(t, { seo: null, redirection: false })
  const check = await wordPressClient(testSettings(), wp.credentials).checkSite()
  t.equal(check.seo_plugin, null)
  t.equal(check.redirection, false)
})

t.test('a wrong application password or user is an auth failure naming WordPress code, never the password', async (t) => {
  const wp = await standIn(t)
  const wrong = { ...wp.credentials, applicationPassword: 'zzzz yyyy xxxx wwww vvvv uuuu' }
  const e = await failure(wordPressClient(testSettings(), wrong).checkSite())
  t.equal(e.category, 'auth')
  t.equal(e.status, 401)
  t.equal(e.code, 'incorrect_password')
  t.match(e.message, /incorrect_password/)
  t.notMatch(e.message, /zzzz|zzzzyyyy/)
  t.notMatch(e.message, new RegExp(Buffer.from('editor:zzzzyyyyxxxxwwwwvvvvuuuu').toString('base64')))
  t.equal(wp.requests.length, 1, 'a 401 is not retried')

  const unknown = await failure(wordPressClient(testSettings(), { ...wp.credentials, username: 'nobody' }).getPost('pages', 1))
  t.equal(unknown.category, 'auth')
  t.equal(unknown.code, 'invalid_username')
})

t.test('pages and posts: read with context=edit, update, create, list', async (t) => {
  const wp = await standIn(t, { elementor: true })
  const about = wp.site.addPage({ title: 'About us', content: '<p>Since 1998</p>', meta: { _yoast_wpseo_title: 'About | Bakery' } })
  wp.site.addPage({ title: 'Contact', status: 'draft' })
  wp.site.addPost({ title: 'Sourdough tips', content: 'Feed the starter' })
  const client = wordPressClient(testSettings(), wp.credentials)

  const read = await client.getPost('pages', about.id)
  t.equal(read.id, about.id)
  t.equal(read.type, 'page')
  t.equal(read.slug, 'about-us')
  t.equal(read.title.raw, 'About us')
  t.equal(read.content.raw, '<p>Since 1998</p>')
  t.equal(read.meta._yoast_wpseo_title, 'About | Bakery')
  t.equal(read.meta._elementor_data, '', 'registered meta is there, empty')
  t.equal(read.link, `${wp.url}/about-us/`)
  t.equal(read.modified_gmt, about.modified_gmt)

  const updated = await client.updatePost('pages', about.id, {
    title: 'About the bakery',
    meta: { _yoast_wpseo_metadesc: 'A harbour bakery', not_registered: 'ignored' },
  })
  t.equal(updated.title.raw, 'About the bakery')
  t.equal(updated.meta._yoast_wpseo_metadesc, 'A harbour bakery')
  t.notOk('not_registered' in updated.meta, 'unregistered meta is ignored, as WordPress does')
  t.ok(updated.modified_gmt > read.modified_gmt, 'modified_gmt moves forward on a write')
  t.equal(wp.site.get('page', about.id)!.title, 'About the bakery', 'the site stored it')

  // A person edits the page in wp-admin: the client sees the newer modified_gmt.
  const edited = wp.site.editOnSite('page', about.id, { content: '<p>Edited by hand</p>' })
  const again = await client.getPost('pages', about.id)
  t.equal(again.content.raw, '<p>Edited by hand</p>')
  t.equal(again.modified_gmt, edited.modified_gmt)
  t.ok(again.modified_gmt > updated.modified_gmt)

  const created = await client.createPost('posts', { title: 'Rye bread', content: '<p>Dark and dense</p>', status: 'draft' })
  t.equal(created.status, 'draft')
  t.equal(created.slug, 'rye-bread')
  t.same(wp.site.get('post', created.id)?.content, '<p>Dark and dense</p>')

  const published = await client.listPosts('pages')
  t.same(
    published.posts.map((p) => p.title.raw),
    ['About the bakery'],
    'the draft is not listed by default (publish only)',
  )
  t.equal(published.total, 1)
  const everything = await client.listPosts('pages', { status: 'any', per_page: 1 })
  t.equal(everything.total, 2)
  t.equal(everything.totalPages, 2)
  t.equal(everything.posts.length, 1)
  const since = await client.listPosts('posts', { status: 'any', modified_after: `${created.modified_gmt.slice(0, 18)}0` })
  t.ok(since.posts.some((p) => p.id === created.id))
  const found = await client.listPosts('posts', { search: 'starter' })
  t.same(
    found.posts.map((p) => p.slug),
    ['sourdough-tips'],
  )
  const beyond = await failure(client.listPosts('posts', { page: 9 }))
  t.equal(beyond.category, 'rejected', 'a page past the end is a 400')
  t.equal(beyond.code, 'rest_post_invalid_page_number')
})

t.test('a missing post is not_found; an invalid field is rejected; neither retried', async (t) => {
  const wp = await standIn(t)
  const client = wordPressClient(testSettings(), wp.credentials)
  const missing = await failure(client.getPost('pages', 404))
  t.equal(missing.category, 'not_found')
  t.equal(missing.code, 'rest_post_invalid_id')
  const page = wp.site.addPage({ title: 'Home' })
  const before = wp.requests.length
  const invalid = await failure(client.updatePost('pages', page.id, { status: 'bogus' as 'draft' }))
  t.equal(invalid.category, 'rejected')
  t.equal(invalid.status, 400)
  t.match(invalid.message, /rest_invalid_param/)
  t.equal(wp.requests.length - before, 1)
})

t.test('redirects through the Redirection plugin: list, create, delete', async (t) => {
  const wp = await standIn(t)
  wp.site.addRedirect('/old-menu', '/menu/')
  const client = wordPressClient(testSettings(), wp.credentials)
  const listed = await client.listRedirects()
  t.same(
    listed.map((r) => [r.url, r.action_data?.url, r.action_code]),
    [['/old-menu', '/menu/', 301]],
  )
  const created = await client.createRedirect({ url: '/cakes-2019', target: '/cakes/', code: 308 })
  t.equal(created.url, '/cakes-2019')
  t.equal(created.action_data?.url, '/cakes/')
  t.equal(created.action_code, 308)
  t.equal(created.match_type, 'url')
  t.same(
    wp.site.redirects().map((r) => r.url),
    ['/old-menu', '/cakes-2019'],
  )
  await client.deleteRedirect(created.id)
  t.same(
    wp.site.redirects().map((r) => r.url),
    ['/old-menu'],
  )
  // Many redirects: read page by page.
  for (let i = 0; i < 250; i++) wp.site.addRedirect(`/r/${i}`, '/')
  t.equal((await client.listRedirects()).length, 251)

  wp.site.setPlugins({ redirection: false })
  const off = await failure(client.listRedirects())
  t.equal(off.category, 'not_found', 'Redirection inactive: its routes are not there')
  t.equal(off.code, 'rest_no_route')
})

t.test('an editor may not manage redirects (auth)', async (t) => {
  const wp = await standIn(t, { roles: ['editor'] })
  const error = await failure(wordPressClient(testSettings(), wp.credentials).listRedirects())
  t.equal(error.category, 'auth')
  t.equal(error.status, 403)
  t.equal(error.code, 'rest_forbidden')
})

t.test('a site with plain permalinks: the client moves to ?rest_route= once, and stays there', async (t) => {
  const wp = await standIn(t, { permalinks: 'plain' })
  const page = wp.site.addPage({ title: 'Opening hours' })
  const client = wordPressClient(testSettings(), wp.credentials)
  const check = await client.checkSite()
  t.equal(check.rest_url, `${wp.url}/?rest_route=/`)
  t.equal(check.rest_url, wp.restUrl)
  t.equal((await client.updatePost('pages', page.id, { title: 'Hours' })).title.raw, 'Hours')
  const missed = wp.requests.filter((r) => r.path.startsWith('/wp-json'))
  t.equal(missed.length, 1, 'only the first request went to /wp-json/')
  t.ok(
    wp.requests.filter((r) => r.query.rest_route).every((r) => r.auth === 'valid'),
    'the credentials go along',
  )
  const missing = await failure(client.getPost('pages', 999))
  t.equal(missing.code, 'rest_post_invalid_id', "WordPress's own 404 stays a 404")
})

t.test("the version is read from the feed's generator, and only WordPress's", async (t) => {
  t.equal(wordPressVersionOfFeed('<channel><generator>https://wordpress.org/?v=6.6.2</generator></channel>'), '6.6.2')
  t.equal(wordPressVersionOfFeed('<generator>https://wordpress.org/?v=6.7-RC1</generator>'), '6.7-RC1')
  t.equal(wordPressVersionOfFeed('<generator>Site Kit</generator>'), null)
  t.equal(wordPressVersionOfFeed('<channel></channel>'), null)
})

t.test('a site whose feed is off still checks (version unknown)', async (t) => {
  const wp = await standIn(t, { feed: false })
  const check = await wordPressClient(testSettings(), wp.credentials).checkSite()
  t.equal(check.wp_version, null)
  t.equal(check.site_name, 'Harbor Street Bakery')
})
