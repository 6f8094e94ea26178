/**
 * The snapshots sub-area's pure rules: the hash-equality rule, the page history a crawl is decided on (a
 * snapshot only on change, per source, the site edit since the last crawl), the crawl's get-or-create of pages
 * in the page set, the extractive summary, and the v1 → v2 upcast of PageSnapshotRecorded.
 */
import t from 'tap'
import { decode } from '../../commands/event-store/decode.js'
import type { SiteChangeEvent } from '../../domain/monitoring/changes/events.js'
import {
  initialPageHistory,
  isChange,
  lastRecorded,
  pageHistory,
  siteEditSince,
  type PageHistoryEvent,
  type RecordMonitoredState,
} from '../../domain/monitoring/snapshots/page-history.js'
import { sameContent } from '../../domain/monitoring/snapshots/same-content.js'
import { extractiveSummary, SUMMARY_MAX_CHARS, sentencesOf } from '../../domain/monitoring/snapshots/summary.js'
import type { PageEvent, PageSnapshotEvent } from '../../domain/pages/events.js'
import { pageIndex, pageSet } from '../../domain/pages/page-set.js'
import { fold } from '../../domain/shared/aggregate.js'
import { pageState } from '../http/monitoring-snapshots-states.js'
import { spec } from './given-when-then.js'

const URL_A = 'https://acme.example.com/drains'

function snapshot(over: Partial<PageSnapshotEvent['data']> & { snapshot_id: number }): PageSnapshotEvent {
  return {
    type: 'PageSnapshotRecorded',
    data: {
      page_id: 5,
      client_id: 3,
      title: 'Drains',
      content: 'text',
      source: 'add_snapshot',
      edit_id: null,
      scan_id: null,
      state: null,
      etag: null,
      last_modified: null,
      ...over,
    },
  }
}

const crawled = (snapshotId: number, state = pageState({ url: URL_A }), source: 'crawl' | 'render' = 'crawl') =>
  snapshot({ snapshot_id: snapshotId, source, state, scan_id: 1, content: state.main_text, title: state.title ?? '' })

const change = (changeId: number, snapshotId: number): SiteChangeEvent => ({
  type: 'SiteChangeDetected',
  data: {
    change_id: changeId,
    client_id: 3,
    page_id: 5,
    url: URL_A,
    kind: 'title_changed',
    severity: 'medium',
    before: 'a',
    after: 'b',
    words_changed: null,
    attribution: 'external',
    edit_id: null,
    snapshot_id: snapshotId,
    previous_snapshot_id: 1,
  },
})

t.test('the hash rule: equal hashes say the same, whatever the hex case; nothing recorded yet is a change', async (t) => {
  const hash = 'ab'.repeat(32)
  t.ok(sameContent(hash, hash))
  t.ok(sameContent(hash, hash.toUpperCase()))
  t.notOk(sameContent(hash, 'cd'.repeat(32)))
  t.notOk(sameContent(null, hash))
  const a = pageState({ url: URL_A })
  t.equal(pageState({ url: URL_A }).content_hash, a.content_hash, 'the same content, the same hash')
  t.equal(pageState({ url: URL_A, truncated: true }).content_hash, a.content_hash, 'truncation alone is not content')
  t.not(pageState({ url: URL_A, title: 'Other' }).content_hash, a.content_hash)
})

t.test('page history: per source the last state, where it is, and the site edit since', async (t) => {
  const state1 = pageState({ url: URL_A })
  const state2 = pageState({ url: URL_A, title: 'New' })
  const history = fold(pageHistory, [
    snapshot({ snapshot_id: 1 }),
    crawled(2, state1),
    change(10, 2),
    snapshot({ snapshot_id: 3, source: 'site_edit', edit_id: 77, title: 'New' }),
    crawled(4, state2, 'render'),
  ] as PageHistoryEvent[])
  t.equal(history.events, 5, 'every event of the stream counts toward the next revision')
  t.same(lastRecorded(history, 'crawl'), { snapshotId: 2, revision: 1, contentHash: state1.content_hash })
  t.same(lastRecorded(history, 'render'), { snapshotId: 4, revision: 4, contentHash: state2.content_hash })
  t.same(
    siteEditSince(history, 'crawl'),
    { snapshotId: 3, revision: 3, editId: 77, source: 'site_edit' },
    'the edit came after the last crawl',
  )
  t.equal(siteEditSince(history, 'render'), null, 'the render already saw it')
  t.notOk(isChange(history, 'crawl', pageState({ url: URL_A })), 'the same crawl again is no change')
  t.ok(isChange(history, 'crawl', state2), 'what the render saw is new to crawls')
  t.same(lastRecorded(initialPageHistory(), 'crawl'), null)
})

t.test('page history decides: a snapshot and its changes on a change, nothing when the hash is the same', async (t) => {
  const state1 = pageState({ url: URL_A })
  const state2 = pageState({ url: URL_A, title: 'New' })
  const record = (state: typeof state1, preparedAt: number, changes: SiteChangeEvent[]): RecordMonitoredState => ({
    type: 'RecordMonitoredState',
    preparedAt,
    snapshot: crawled(9, state).data as RecordMonitoredState['snapshot'],
    changes,
  })
  spec(pageHistory)()
    .when(record(state1, 0, []))
    .then(t, [crawled(9, state1)])
  spec(pageHistory)(crawled(2, state1))
    .when(record(state1, 1, []))
    .thenNothingHappens(t)
  spec(pageHistory)(crawled(2, state1))
    .when(record(state2, 1, [change(11, 9)]))
    .then(t, [crawled(9, state2), change(11, 9)])
  t.throws(
    () => pageHistory.decide(record(state2, 0, []), fold(pageHistory, [crawled(2, state1)])),
    /another revision/,
    'a command prepared on another state is refused',
  )
})

t.test('page set: a crawl get-or-creates its pages in one decision', async (t) => {
  const added = (pageId: number, url: string, title: string, slug: string): PageEvent => ({
    type: 'PageAdded',
    data: { page_id: pageId, client_id: 3, url, slug, wp_post_id: null, title, active: true },
  })
  const known = [added(1, '/about', 'About', 'about'), added(2, 'https://acme.example.com/', 'Home', '')]
  spec(pageSet)(...known)
    .when({
      type: 'AddCrawledPages',
      client_id: 3,
      pages: [
        { url: 'https://ACME.example.com/about/', title: 'About Acme', page_id: 11 },
        { url: 'https://acme.example.com', title: 'Home!', page_id: 12 },
        { url: 'https://acme.example.com/drains/', title: 'Drains', page_id: 13 },
        { url: 'https://acme.example.com/drains', title: 'Drains', page_id: 14 },
      ],
    })
    .then(t, [added(13, 'https://acme.example.com/drains/', 'Drains', 'drains')])
  const find = pageIndex(fold(pageSet, known))
  t.equal(find('https://acme.example.com/about')?.id, 1, 'a site-path page is found by an absolute URL’s path')
  t.equal(find('https://acme.example.com/')?.id, 2)
  t.equal(find('https://acme.example.com/contact'), undefined)
})

t.test('summary: the first whole sentences up to the limit; a long first sentence cut at a word', async (t) => {
  t.same(sentencesOf('Price is 3.5 dollars!  Visit example.com today?\nYes'), ['Price is 3.5 dollars!', 'Visit example.com today?', 'Yes'])
  t.equal(extractiveSummary(''), '')
  t.equal(extractiveSummary('One. Two!  Three?'), 'One. Two! Three?')
  // 20 characters a sentence and a space between: 14 sentences take 293 characters, 15 would take 314.
  const summary = extractiveSummary('First sentence here. '.repeat(20))
  t.equal(summary, Array(14).fill('First sentence here.').join(' '), 'as many whole sentences as fit in 300 characters')
  const runOn = `${'word '.repeat(200)}end`
  const cut = extractiveSummary(runOn)
  t.ok(cut.endsWith('…') && cut.length <= SUMMARY_MAX_CHARS && !cut.includes('wor…'), 'a run-on line is cut at a word, marked')
})

t.test('a v1 PageSnapshotRecorded reads as v2 without state, validators or scan', async (t) => {
  const v1 = { snapshot_id: 1, page_id: 5, client_id: 3, title: 'Drains', content: '<p>x</p>', source: 'add_snapshot', edit_id: null }
  const event = decode({
    id: 'e1',
    stream: 'page-5',
    revision: 0n,
    position: '1',
    recordedAt: new Date(0),
    type: 'PageSnapshotRecorded',
    data: v1,
    metadata: { schema_version: 1 },
  })
  t.same(event.data, { ...v1, state: null, etag: null, last_modified: null, scan_id: null })
  t.equal(event.metadata.schema_version, 2)
})
