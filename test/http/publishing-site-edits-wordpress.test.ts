/**
 * Site edits that go live on a client's WordPress site, end to end through the RPCs and the job engine,
 * against the local WordPress stand-in: connect → prompted_edit (written from the live post, its version
 * recorded) → apply (the stand-in's page changes, a snapshot records it) → rollback (it changes back, exactly)
 * → a change made on the site meanwhile makes apply refuse (site_edit_conflict, nothing written) → a 500 and a
 * timeout become push failures, each resolved by the next success. Then Elementor pages (only the widgets'
 * text changes), meta optimizations (the SEO plugin's fields), redirects (Redirection, its id recorded) and a
 * client without a connection (the built-in publisher, as before).
 */
import t from 'tap'
import { startWordPressStandIn, standInSettings } from '../support/stand-ins/wordpress.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'

const SITE = 'https://harbor-street-bakery.example.com'

async function setup(t: Parameters<typeof startTestSystem>[0], options: Parameters<typeof startWordPressStandIn>[0] = {}) {
  const wp = await startWordPressStandIn(options)
  t.teardown(() => wp.close())
  const ts = await startTestSystem(t, {
    runProcessors: true,
    jobs: QUICK_JOBS,
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED },
    // A quick timeout and retry, so the timeout case below takes a second, not a minute.
    publishing: standInSettings({ timeoutMs: 1500, maxAttempts: 2, backoffBaseMs: 10 }),
  })
  const org = await orgWithKey(ts, 'Harbor')
  const clientId = await ts.call<number>('add_client', clientPayload('Harbor Street Bakery'), org.key)
  const connect = () =>
    ts.call(
      'set_client_wordpress',
      { client_id: clientId, base_url: wp.url, username: wp.username, application_password: wp.applicationPassword },
      org.key,
    )
  const promptedEdit = async (instruction: string, pages: (number | string)[]) => {
    const posted = await postJob(ts.app, org.key, { kind: 'prompted_edit', client_id: clientId, payload: { instruction, pages } })
    if (posted.statusCode !== 202) throw new Error(`POST /api/v1/jobs answered ${posted.statusCode}: ${posted.body}`)
    const done = await waitForJob(ts.app, org.key, posted.json().job_id, (job) => job.status === 'done' || job.status === 'failed')
    if (done.status !== 'done') throw new Error(`prompted_edit ${done.status}: ${JSON.stringify(done.error ?? done)}`)
    return done.result
  }
  return { ts, wp, org, clientId, connect, promptedEdit }
}

/** The client's unresolved push failures, read right after the answer: a refused apply waits for what it recorded too. */
async function failures(ts: TestSystem, key: string, clientId: number) {
  const all = await ts.call<any[]>('get_unresolved_push_failures', {}, key)
  return all.filter((f) => f.client_id === clientId)
}

t.test('connect → prompted_edit → apply → rollback → conflict → 500 and timeout as push failures that resolve', async (t) => {
  const { ts, wp, org, clientId, connect, promptedEdit } = await setup(t, { seo: 'yoast' })
  const about = wp.site.addPage({ title: 'About us', slug: 'about', content: '<p>We bake sourdough every morning since 1998.</p>' })
  const pageId = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/about` } }, org.key)
  await connect()

  // prompted_edit reads the live post (found by its slug), writes from its raw HTML and records its version.
  const staged = await promptedEdit('replace sourdough with rye bread', [`${SITE}/about`])
  t.match(staged.pages, [
    { page_id: pageId, status: 'staged', wp_post_id: about.id, proposed_content: '<p>We bake rye bread every morning since 1998.</p>' },
  ])
  const editId: number = staged.pages[0].edit_id
  const payload = JSON.parse((await ts.call('get_site_edit', { edit_id: editId }, org.key)).payload)
  t.same(payload.wordpress, {
    post_type: 'pages',
    post_id: about.id,
    base_modified_gmt: about.modified_gmt,
    field: 'content',
    proposed: '<p>We bake rye bread every morning since 1998.</p>',
    before: '<p>We bake sourdough every morning since 1998.</p>',
  })

  // apply: the site's page changes; the edit records the WordPress publisher and a snapshot of what it wrote.
  const applied = await ts.call('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, org.key)
  t.match(applied, { status: 'applied', approved_by: 'Dana' })
  t.equal(wp.site.get('page', about.id)!.content, '<p>We bake rye bread every morning since 1998.</p>', 'the live page changed')
  const appliedEvent = (await streamEvents(ts, `site_edit-${editId}`)).find((e) => e.type === 'SiteEditApplied')!
  t.match(appliedEvent.data, {
    publisher: 'wordpress',
    remote: {
      kind: 'wordpress_post',
      post_type: 'pages',
      post_id: about.id,
      before: { content: '<p>We bake sourdough every morning since 1998.</p>' },
    },
  })
  t.equal(
    (await ts.call('get_latest_snapshot', { page_id: pageId }, org.key)).content,
    '<p>We bake rye bread every morning since 1998.</p>',
  )
  const writes = wp.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/wp/v2/pages/${about.id}`))
  t.equal(writes.length, 1, 'one write to the site')
  t.same(writes[0]!.body, { content: '<p>We bake rye bread every morning since 1998.</p>' }, 'only the field the edit changes is sent')

  // rollback: exactly what was there before, back on the site.
  t.match(await ts.call('rollback_site_edit', { edit_id: editId }, org.key), { status: 'rolled_back' })
  t.equal(wp.site.get('page', about.id)!.content, '<p>We bake sourdough every morning since 1998.</p>', 'the live page changed back')
  t.equal((await ts.call('get_latest_snapshot', { page_id: pageId }, org.key)).source, 'site_edit_rollback')

  // A change made on the site after the edit was written: apply refuses, nothing is written.
  const next = await promptedEdit('replace every morning with every day', [`${SITE}/about`])
  const nextEdit: number = next.pages[0].edit_id
  wp.site.editOnSite('page', about.id, { content: '<p>We bake sourdough every morning since 1998. Closed Mondays.</p>' })
  const postsBefore = wp.requests.filter((r) => r.method === 'POST').length
  const conflict = await ts.rpc('apply_site_edit', { edit_id: nextEdit }, org.key)
  expectError(t, conflict, 409, 'site_edit_conflict')
  t.equal(wp.requests.filter((r) => r.method === 'POST').length, postsBefore, 'nothing was written')
  t.equal(
    wp.site.get('page', about.id)!.content,
    '<p>We bake sourdough every morning since 1998. Closed Mondays.</p>',
    "the site's change stands",
  )
  t.match(await ts.call('get_site_edit', { edit_id: nextEdit }, org.key), { status: 'proposed' })
  t.match(await failures(ts, org.key, clientId), [{ operation: 'apply_site_edit', category: 'conflict', edit_id: nextEdit }])

  // Staged again from the changed page: a 500 (twice: every attempt) is a push failure, then a timeout another.
  const third = await promptedEdit('replace Closed Mondays with Open every day', [`${SITE}/about`])
  const thirdEdit: number = third.pages[0].edit_id
  wp.site.failNext(2, 500, { path: `/wp-json/wp/v2/pages/${about.id}` })
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: thirdEdit }, org.key), 502, 'site_publish_failed')
  wp.site.inject({ kind: 'stall' }, { times: 2, path: `/wp-json/wp/v2/pages/${about.id}` })
  expectError(t, await ts.rpc('apply_site_edit', { edit_id: thirdEdit }, org.key), 502, 'site_publish_failed')
  const open = await failures(ts, org.key, clientId)
  t.same(open.map((f) => [f.operation, f.category, f.http_status]).sort(), [
    ['apply_site_edit', 'conflict', null],
    ['apply_site_edit', 'server_error', 500],
    ['apply_site_edit', 'timeout', null],
  ])
  t.equal(await ts.call('count_unresolved_push_failures', { client_id: clientId }, org.key), 3)
  t.equal(wp.site.get('page', about.id)!.content, '<p>We bake sourdough every morning since 1998. Closed Mondays.</p>', 'still unchanged')

  // The next success resolves them all (the same operation), with the automatic note.
  wp.site.clearFaults()
  t.match(await ts.call('apply_site_edit', { edit_id: thirdEdit }, org.key), { status: 'applied' })
  t.equal(wp.site.get('page', about.id)!.content, '<p>We bake sourdough every morning since 1998. Open every day.</p>')
  t.same(await failures(ts, org.key, clientId), [], 'resolved by the next success')
  t.equal(await ts.call('count_unresolved_push_failures', { client_id: clientId }, org.key), 0)

  // A rollback after someone changed the page on the site refuses too, and leaves their change.
  wp.site.editOnSite('page', about.id, { title: 'About Harbor Street' })
  expectError(t, await ts.rpc('rollback_site_edit', { edit_id: thirdEdit }, org.key), 409, 'site_edit_conflict')
  t.match(await ts.call('get_site_edit', { edit_id: thirdEdit }, org.key), { status: 'applied' })
  t.match(await failures(ts, org.key, clientId), [{ operation: 'rollback_site_edit', category: 'conflict' }])
})

t.test('an Elementor page: only its widgets’ text changes, the layout stays; rollback restores the data exactly', async (t) => {
  const { ts, wp, org, clientId, connect, promptedEdit } = await setup(t, { elementor: true })
  const layout = [
    {
      id: 'a1',
      elType: 'section',
      settings: { layout: 'boxed' },
      elements: [
        {
          id: 'b2',
          elType: 'column',
          settings: { _column_size: 100 },
          elements: [
            { id: 'c3', elType: 'widget', widgetType: 'heading', settings: { title: 'Fresh sourdough', header_size: 'h1' }, elements: [] },
            {
              id: 'd4',
              elType: 'widget',
              widgetType: 'text-editor',
              settings: { editor: '<p>Sourdough baked at dawn.</p>' },
              elements: [],
            },
          ],
        },
      ],
    },
  ]
  const data = JSON.stringify(layout)
  const home = wp.site.addPage({ title: 'Home', slug: 'home', content: '<p>rendered copy</p>', meta: { _elementor_data: data } })
  const pageId = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/`, wp_post_id: home.id } }, org.key)
  await connect()

  const staged = await promptedEdit('replace sourdough with rye', [home.id])
  t.match(staged.pages, [{ page_id: pageId, status: 'staged', proposed_content: 'Fresh rye\n\n<p>rye baked at dawn.</p>' }])
  const editId: number = staged.pages[0].edit_id
  await ts.call('apply_site_edit', { edit_id: editId }, org.key)
  const written = JSON.parse(wp.site.get('page', home.id)!.meta._elementor_data as string)
  const expected = structuredClone(layout)
  expected[0]!.elements[0]!.elements[0]!.settings.title = 'Fresh rye'
  expected[0]!.elements[0]!.elements[1]!.settings.editor = '<p>rye baked at dawn.</p>'
  t.same(written, expected, 'only the text settings changed')
  t.equal(wp.site.get('page', home.id)!.content, '<p>rendered copy</p>', 'the post content is not touched')
  await ts.call('rollback_site_edit', { edit_id: editId }, org.key)
  t.equal(wp.site.get('page', home.id)!.meta._elementor_data, data, 'the data is back, byte for byte')
})

t.test('redirects go through Redirection (its id recorded, a retry adopts rather than doubles); no plugin is a push failure', async (t) => {
  const { ts, wp, org, clientId, connect } = await setup(t)
  await connect()
  const stage = (from: string, to: string) =>
    ts.call<number>(
      'create_site_edit',
      {
        client_id: clientId,
        operation: 'redirect',
        page_url: `${SITE}${from}`,
        payload: JSON.stringify({ from_url: `${SITE}${from}`, to_url: `${SITE}${to}`, status_code: 301 }),
      },
      org.key,
    )
  const edit = await stage('/old-menu', '/menu')
  // The create's answer is lost after the site made it (a reset): the apply fails, and the next one adopts it.
  wp.site.inject({ kind: 'reset' }, { path: '/wp-json/redirection/v1/redirect', times: 1 })
  wp.site.addRedirect('/unrelated', `${wp.url}/elsewhere`)
  const first = await ts.rpc('apply_site_edit', { edit_id: edit }, org.key)
  // Whether the reset hit the list or the create, no second redirect appears after the retry.
  if (first.statusCode !== 200) {
    expectError(t, first, 502, 'site_publish_failed')
    t.match(await ts.call('apply_site_edit', { edit_id: edit }, org.key), { status: 'applied' })
  }
  const made = wp.site.redirects().filter((r) => r.url === '/old-menu')
  t.equal(made.length, 1, 'one redirect on the site')
  t.match(made[0], { action_code: 301, action_data: { url: `${SITE}/menu` } })
  t.match(await ts.call('list_redirects', { client_id: clientId, applied_only: true }, org.key), [
    { edit_id: edit, status: 'applied', publisher: 'wordpress', remote_id: String(made[0]!.id) },
  ])
  await ts.call('rollback_site_edit', { edit_id: edit }, org.key)
  t.equal(wp.site.redirects().filter((r) => r.url === '/old-menu').length, 0, 'rollback removed it')

  wp.site.setPlugins({ redirection: false })
  await ts.call('check_client_connection', { client_id: clientId }, org.key)
  const second = await stage('/old-cakes', '/cakes')
  const refused = await ts.rpc('apply_site_edit', { edit_id: second }, org.key)
  expectError(t, refused, 502, 'site_publish_failed')
  t.match(refused.json().detail, /Redirection plugin is not active/)
  t.match(await failures(ts, org.key, clientId), [{ operation: 'redirect', category: 'not_found' }])
})

t.test(
  'a meta optimization writes the SEO plugin’s fields; an edit not written from the live page is refused; no connection: built-in',
  async (t) => {
    const { ts, wp, org, clientId, connect } = await setup(t, { seo: 'rank_math' })
    const menu = wp.site.addPage({ title: 'Menu', slug: 'menu', meta: { rank_math_title: 'Menu', rank_math_description: '' } })
    const pageId = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/menu` } }, org.key)
    await ts.call('add_snapshot', { snapshot: { page_id: pageId, content: '<p>Our breads</p>' } }, org.key)

    // Staged before the client was connected: the built-in publisher applies it then; once connected, it is refused.
    const stageRewrite = (proposed: string) =>
      ts.call<number>(
        'create_site_edit',
        {
          client_id: clientId,
          operation: 'rewrite',
          page_url: `${SITE}/menu`,
          payload: JSON.stringify({ proposed_content: proposed, page_id: pageId }),
        },
        org.key,
      )
    const before = await stageRewrite('<p>Our rye</p>')
    const builtIn = await stageRewrite('<p>Our bread</p>')
    await ts.call('apply_site_edit', { edit_id: builtIn }, org.key)
    const builtInApplied = (await streamEvents(ts, `site_edit-${builtIn}`)).find((e) => e.type === 'SiteEditApplied')!
    t.match(builtInApplied.data, { publisher: 'built-in' })
    t.notOk(builtInApplied.data.remote, 'nothing on a site to undo')

    await connect()
    const refused = await ts.rpc('apply_site_edit', { edit_id: before }, org.key)
    expectError(t, refused, 422, 'site_edit_unpublishable')
    t.match(refused.json().detail, /not written from the live WordPress page/)
    t.equal(wp.site.get('page', menu.id)!.content, '', 'nothing written')
    // The edit applied before the connection is undone where it was applied: in the service only.
    t.match(await ts.call('rollback_site_edit', { edit_id: builtIn }, org.key), { status: 'rolled_back' })

    // A meta_rewrite payload, as a meta optimization stages it: Rank Math's two fields.
    const meta = await ts.call<number>(
      'create_site_edit',
      {
        client_id: clientId,
        operation: 'meta_rewrite',
        page_url: `${SITE}/menu`,
        payload: JSON.stringify({
          optimization_id: 1,
          page_id: pageId,
          page_url: `${SITE}/menu`,
          query: 'rye bread harbor',
          title: 'Rye Bread & Sourdough | Harbor Street Bakery',
          description: 'Rye and sourdough baked every morning on Harbor Street.',
          current_title: 'Menu',
          current_description: '',
          before_snapshot_id: null,
          proposed_content: '<p>Our bread</p>',
          writer: 'built-in',
        }),
      },
      org.key,
    )
    await ts.call('apply_site_edit', { edit_id: meta }, org.key)
    t.match(wp.site.get('page', menu.id)!.meta, {
      rank_math_title: 'Rye Bread & Sourdough | Harbor Street Bakery',
      rank_math_description: 'Rye and sourdough baked every morning on Harbor Street.',
    })
    await ts.call('rollback_site_edit', { edit_id: meta }, org.key)
    t.match(wp.site.get('page', menu.id)!.meta, { rank_math_title: 'Menu', rank_math_description: '' }, 'the fields as they were')
  },
)

t.test(
  'hostile answers while publishing: HTML, 30 MB, a redirect to a private address: clear failures, nothing written twice',
  async (t) => {
    const { ts, wp, org, clientId, connect, promptedEdit } = await setup(t)
    const about = wp.site.addPage({ title: 'About us', slug: 'about', content: '<p>Fresh sourdough.</p>' })
    await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/about` } }, org.key)
    await connect()
    const staged = await promptedEdit('replace sourdough with rye', [`${SITE}/about`])
    const editId: number = staged.pages[0].edit_id
    const route = `/wp-json/wp/v2/pages/${about.id}`
    const attempt = async (fault: Parameters<typeof wp.site.inject>[0], category: string, detail: RegExp) => {
      wp.site.inject(fault, { path: route, times: 2 })
      const answer = await ts.rpc('apply_site_edit', { edit_id: editId }, org.key)
      expectError(t, answer, 502, 'site_publish_failed', category)
      t.match(answer.json().detail, detail, category)
      wp.site.clearFaults()
    }
    await attempt({ kind: 'html' }, 'invalid_response', /invalid_response: .*HTML/i)
    await attempt({ kind: 'huge', bytes: 30 * 1024 * 1024 }, 'invalid_response', /invalid_response/)
    t.ok(wp.site.hugeBytesSent < 30 * 1024 * 1024, 'the 30 MB answer was not read to its end')
    await attempt({ kind: 'redirect', location: 'http://10.0.0.7/wp-json/wp/v2/pages/1' }, 'blocked', /blocked/)
    t.equal(wp.requests.filter((r) => r.method === 'POST').length, 0, 'nothing was written while the site misbehaved')
    t.same((await failures(ts, org.key, clientId)).map((f) => f.category).sort(), ['blocked', 'invalid_response', 'invalid_response'])
    t.match(await ts.call('apply_site_edit', { edit_id: editId }, org.key), { status: 'applied' })
    t.equal(wp.requests.filter((r) => r.method === 'POST').length, 1, 'written once, by the attempt that succeeded')
    t.equal(wp.site.get('page', about.id)!.content, '<p>Fresh rye.</p>')
    t.same(await failures(ts, org.key, clientId), [], 'the success resolved them')
  },
)

t.test(
  'an apply whose answer was lost after the site saved it: the retry adopts the write, and rollback still restores exactly',
  async (t) => {
    const { ts, wp, org, clientId, connect, promptedEdit } = await setup(t)
    const about = wp.site.addPage({ title: 'About us', slug: 'about', content: '<p>Fresh sourdough.</p>' })
    await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/about` } }, org.key)
    await connect()
    const staged = await promptedEdit('replace sourdough with rye', [`${SITE}/about`])
    const editId: number = staged.pages[0].edit_id
    // WordPress saves every write, and each answer is lost on the way back: the apply fails (network).
    wp.site.inject({ kind: 'lost_answer' }, { path: `/wp-json/wp/v2/pages/${about.id}`, method: 'POST', times: 2 })
    expectError(t, await ts.rpc('apply_site_edit', { edit_id: editId }, org.key), 502, 'site_publish_failed')
    t.equal(wp.site.get('page', about.id)!.content, '<p>Fresh rye.</p>', 'the site saved the write')
    const posts = wp.requests.filter((r) => r.method === 'POST').length

    t.match(await ts.call('apply_site_edit', { edit_id: editId }, org.key), { status: 'applied' })
    t.equal(wp.requests.filter((r) => r.method === 'POST').length, posts, 'adopted: not written again')
    t.match(await failures(ts, org.key, clientId), [], 'the timeout resolved by the success')
    await ts.call('rollback_site_edit', { edit_id: editId }, org.key)
    t.equal(wp.site.get('page', about.id)!.content, '<p>Fresh sourdough.</p>', 'rollback restores what the proposal was written from')
  },
)
