/**
 * The site-change rule, pure (domain/monitoring/changes/): every kind, the body threshold, severities, the
 * bounds on before/after, and attribution (site_edit by field, external, unknown for a first observation).
 */
import t from 'tap'
import { type AttributionContext, NO_SITE_EDIT, type SiteEditSnapshot } from '../../domain/monitoring/changes/attribution.js'
import { BODY_CHANGE_MIN_WORDS, type ChangeSubject, siteChangesBetween, withChangeIds } from '../../domain/monitoring/changes/diff.js'
import { MAX_CHANGE_VALUE, SiteChangeDetected } from '../../domain/monitoring/changes/events.js'
import { BODY_CHANGE_MEDIUM_WORDS } from '../../domain/monitoring/changes/severity.js'
import { wordDifference, wordsContained } from '../../domain/monitoring/changes/words.js'
import type { PageState } from '../../domain/monitoring/page-state.js'

const URL_ = 'https://acme.example/services'
const BODY = 'Acme Plumbing fixes leaking pipes, blocked drains and broken water heaters across Austin every day of the week.'

function state(extra: Partial<PageState> = {}): PageState {
  return {
    url: URL_,
    final_url: URL_,
    status: 200,
    redirects: [],
    content_type: 'text/html; charset=utf-8',
    canonical: URL_,
    robots: null,
    noindex: false,
    title: 'Plumbing services | Acme',
    meta_description: 'Plumbing services in Austin.',
    headings: [
      { level: 1, text: 'Plumbing services' },
      { level: 2, text: 'Drains' },
    ],
    word_count: 18,
    internal_links: [],
    outgoing_links: [],
    images: [],
    json_ld_types: [],
    hreflang: [],
    main_text: BODY,
    truncated: false,
    content_hash: 'a'.repeat(64),
    ...extra,
  }
}

const SUBJECT: ChangeSubject = { client_id: 7, page_id: 41, snapshot_id: 902, previous_snapshot_id: 901 }
const between = (before: PageState | null, after: PageState, attribution: AttributionContext = NO_SITE_EDIT) =>
  siteChangesBetween(before, after, SUBJECT, attribution)
const kinds = (changes: ReturnType<typeof between>) => changes.map((c) => c.kind)
const edit = (extra: Partial<SiteEditSnapshot> = {}): AttributionContext => ({
  latestSiteEdit: { edit_id: 55, snapshot_id: 900, source: 'site_edit', title: 'Plumbing services | Acme', content: '', ...extra },
})

t.test('a first observation is one page_added, attribution unknown, nothing to compare with', async (t) => {
  const changes = between(null, state(), edit({ title: 'Plumbing services | Acme' }))
  t.same(kinds(changes), ['page_added'])
  t.match(changes[0], { severity: 'low', attribution: 'unknown', edit_id: null, previous_snapshot_id: null, after: '200', url: URL_ })
})

t.test('equal states: no change', async (t) => {
  t.same(between(state(), state()), [])
})

t.test('every content field, each reported once with its before and after, external without an edit', async (t) => {
  const changes = between(
    state(),
    state({
      title: 'Emergency plumbing | Acme',
      meta_description: 'Call us any time.',
      canonical: 'https://acme.example/plumbing',
      robots: 'nofollow',
      headings: [{ level: 1, text: 'Emergency plumbing' }],
    }),
  )
  t.same(kinds(changes), ['title_changed', 'meta_description_changed', 'canonical_changed', 'robots_changed', 'headings_changed'])
  t.ok(changes.every((c) => c.attribution === 'external' && c.edit_id === null && c.previous_snapshot_id === 901 && c.snapshot_id === 902))
  t.match(changes[0], { before: 'Plumbing services | Acme', after: 'Emergency plumbing | Acme', severity: 'medium' })
  t.match(changes[1], { before: 'Plumbing services in Austin.', after: 'Call us any time.', severity: 'low' })
  t.match(changes[2], { severity: 'medium' })
  t.match(changes[3], { before: null, after: 'nofollow', severity: 'low' }, 'robots changed without noindex: low')
  t.match(changes[4], { before: 'h1: Plumbing services | h2: Drains', after: 'h1: Emergency plumbing', severity: 'medium' })
})

t.test('severity high: title lost, noindex added; medium when noindex is removed; headings without the h1: low', async (t) => {
  const lost = between(state(), state({ title: null }))
  t.match(lost, [{ kind: 'title_changed', severity: 'high', before: 'Plumbing services | Acme', after: null }])
  const noindex = between(state(), state({ robots: 'noindex, follow', noindex: true }))
  t.match(noindex, [{ kind: 'robots_changed', severity: 'high', after: 'noindex, follow' }])
  const indexedAgain = between(state({ robots: 'noindex', noindex: true }), state())
  t.match(indexedAgain, [{ kind: 'robots_changed', severity: 'medium', before: 'noindex', after: null }])
  const h2 = between(
    state(),
    state({
      headings: [
        { level: 1, text: 'Plumbing services' },
        { level: 2, text: 'Water heaters' },
      ],
    }),
  )
  t.match(h2, [{ kind: 'headings_changed', severity: 'low' }])
})

t.test('page_gone: now 404 or 410, or a 200 page now redirecting elsewhere; only that change is reported', async (t) => {
  const gone = between(state(), state({ status: 404, title: 'Not found', main_text: 'Nothing here.' }))
  t.match(gone, [{ kind: 'page_gone', severity: 'high', before: '200', after: '404', attribution: 'external' }])
  t.same(kinds(between(state(), state({ status: 410 }))), ['page_gone'])
  const moved = between(
    state(),
    state({ final_url: 'https://acme.example/plumbing', redirects: [{ url: URL_, status: 301 }], title: 'Plumbing' }),
  )
  t.match(moved, [{ kind: 'page_gone', after: '200 → https://acme.example/plumbing' }])
  t.same(
    between(state({ status: 404 }), state({ status: 410 })).map((c) => c.kind),
    ['status_changed'],
    'gone already: only the status',
  )
})

t.test('a redirect to the same address (https, www, a trailing slash) is redirect_changed, not gone', async (t) => {
  const slash = between(state(), state({ final_url: `${URL_}/`, redirects: [{ url: URL_, status: 301 }] }))
  t.same(slash, [], 'the same address: no redirect target to report')
  const before = state({ final_url: 'https://acme.example/a', redirects: [{ url: URL_, status: 301 }] })
  const after = state({ final_url: 'https://acme.example/b', redirects: [{ url: URL_, status: 301 }] })
  t.match(between(before, after), [
    { kind: 'redirect_changed', severity: 'medium', before: 'https://acme.example/a', after: 'https://acme.example/b' },
  ])
})

t.test('status_changed; error pages are not compared field by field', async (t) => {
  const broken = between(state(), state({ status: 500, title: 'Server error', main_text: 'Something went wrong on our end today.' }))
  t.same(kinds(broken), ['status_changed'])
  t.match(broken[0], { before: '200', after: '500', severity: 'medium' })
  const back = between(state({ status: 404, title: 'Not found' }), state())
  t.same(kinds(back), ['status_changed'], 'a page back from 404 is a status change')
})

t.test('body_changed counts words added + removed, below the threshold nothing', async (t) => {
  t.equal(BODY_CHANGE_MIN_WORDS, 5)
  const ticked = between(
    state({ main_text: `${BODY} Updated 26 November 2026.` }),
    state({ main_text: `${BODY} Updated 27 November 2026.` }),
  )
  t.same(ticked, [], 'a date ticking (2 words) is not a change')
  const more = between(state(), state({ main_text: `${BODY} We also install new kitchen sinks.` }))
  t.match(more, [{ kind: 'body_changed', words_changed: 6, severity: 'low', before: null, after: 'we also install new kitchen sinks' }])
  const rewritten = between(state(), state({ main_text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') }))
  t.equal(rewritten[0]?.words_changed, 60 + 18)
  t.equal(rewritten[0]?.severity, 'low')
  const large = between(state(), state({ main_text: Array.from({ length: BODY_CHANGE_MEDIUM_WORDS }, (_, i) => `w${i}`).join(' ') }))
  t.equal(large[0]?.severity, 'medium')
  t.equal(large[0]?.after?.split(' ').length, 40, 'after shows at most 40 added words')
})

t.test('word bags: order ignored, multiplicity counted, containment as bags', async (t) => {
  t.match(wordDifference('a b c', 'c b a'), { added: 0, removed: 0 })
  t.match(wordDifference('drain drain', 'drain'), { added: 0, removed: 1, removedWords: ['drain'] })
  t.match(wordDifference('Don’t stop', 'don’t go'), { added: 1, removed: 1, addedWords: ['go'] })
  t.ok(wordsContained('fixes pipes', BODY))
  t.notOk(wordsContained('pipes pipes', BODY), 'twice in the part, once in the whole')
  t.notOk(wordsContained('', BODY), 'nothing is not contained')
})

t.test('before and after are bounded, never cut inside a surrogate pair', async (t) => {
  const long = `${'x'.repeat(MAX_CHANGE_VALUE - 2)}😀😀😀`
  const [change] = between(state(), state({ title: long }))
  t.ok(change && change.after && change.after.length <= MAX_CHANGE_VALUE)
  t.ok(change?.after?.endsWith('…'))
  t.notOk(/[\uD800-\uDBFF]…$/.test(change?.after ?? ''), 'no lone high surrogate before the ellipsis')
})

t.test('attribution site_edit: the edit says the same as the crawl for the changed field', async (t) => {
  const before = state()
  const content =
    '<h1>Emergency plumbing</h1><p>Call Acme any hour: our <b>emergency</b> plumbers reach Austin homes within sixty minutes.</p>'
  const after = state({
    title: 'Emergency plumbing | Acme',
    headings: [{ level: 1, text: 'Emergency plumbing' }],
    main_text: 'Emergency plumbing. Call Acme any hour: our emergency plumbers reach Austin homes within sixty minutes.',
    meta_description: 'Something the edit never said.',
  })
  const changes = between(before, after, edit({ title: 'Emergency plumbing | Acme', content }))
  const by = Object.fromEntries(changes.map((c) => [c.kind, c]))
  t.match(by.title_changed, { attribution: 'site_edit', edit_id: 55 })
  t.match(by.headings_changed, { attribution: 'site_edit', edit_id: 55 })
  t.match(by.body_changed, { attribution: 'site_edit', edit_id: 55 }, "the edit's words (markup dropped) are all in the main text")
  t.match(by.meta_description_changed, { attribution: 'external', edit_id: null }, 'not in the edit: external')
})

t.test('attribution external: an edit that does not explain the change, or a change an edit cannot make', async (t) => {
  const other = edit({ title: 'Something else', content: '<p>Drain cleaning specials this month only.</p>' })
  const changes = between(
    state(),
    state({ title: 'Rebranded | Acme', main_text: `${BODY} Now part of the Rebrand Group of companies.` }),
    other,
  )
  t.ok(changes.length === 2 && changes.every((c) => c.attribution === 'external' && c.edit_id === null))
  const gone = between(state(), state({ status: 404 }), edit({ content: '404' }))
  t.match(gone, [{ kind: 'page_gone', attribution: 'external' }], 'a page gone is never an edit')
  const meta = between(
    state(),
    state({ meta_description: 'Fast Austin plumbers.' }),
    edit({ content: '<meta name="description" content="Fast Austin plumbers.">' }),
  )
  t.match(meta, [{ attribution: 'site_edit' }], 'an edit carrying its head tag explains the meta description')
  const removed = between(
    state(),
    state({ headings: [{ level: 1, text: 'Plumbing services' }] }),
    edit({ content: '<h1>Plumbing services</h1>' }),
  )
  t.match(removed, [{ kind: 'headings_changed', attribution: 'site_edit' }], 'a heading dropped that the edit no longer has')
  const rollback = between(
    state({ title: 'Emergency plumbing | Acme' }),
    state(),
    edit({ source: 'site_edit_rollback', edit_id: 56, title: 'Plumbing services | Acme' }),
  )
  t.match(rollback, [{ kind: 'title_changed', attribution: 'site_edit', edit_id: 56 }], 'a rollback is an edit of this service too')
})

t.test('withChangeIds numbers the drafts in order; every event matches the schema', async (t) => {
  const drafts = between(state(), state({ title: 'New', meta_description: 'New meta' }))
  const events = withChangeIds(drafts, [3001, 3002])
  t.same(
    events.map((e) => [e.type, e.data.change_id, e.data.kind]),
    [
      ['SiteChangeDetected', 3001, 'title_changed'],
      ['SiteChangeDetected', 3002, 'meta_description_changed'],
    ],
  )
  for (const e of events) t.ok(SiteChangeDetected.safeParse(e.data).success)
  t.throws(() => withChangeIds(drafts, [1]), /2 changes but 1 ids/)
})
