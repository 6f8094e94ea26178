/**
 * The auditor's view, pure: the action table over every event type the domain records, the record an event
 * changed, before/after of its fields from earlier events, and the hidden fields.
 */
import t from 'tap'
import { actionOf, ENTITY_ACTIONS, typesWithActions } from '../../domain/monitoring/entity-changes/actions.js'
import { entityOf, MAX_ENTITY_IDS } from '../../domain/monitoring/entity-changes/entity.js'
import { boundedValue, fieldChanges, MAX_VALUE_CHARS } from '../../domain/monitoring/entity-changes/field-changes.js'
import { eventSchemas } from '../../domain/events.js'
import { isHiddenField } from '../../domain/shared/hidden-fields.js'

t.test('every event type the domain records has an action from the table', async (t) => {
  for (const type of Object.keys(eventSchemas)) {
    const action = actionOf(type)
    if (action === 'other') t.fail(`${type} matches no rule of domain/monitoring/entity-changes/actions.ts`)
  }
  t.equal(actionOf('SomethingNobodyKnows'), 'other', 'a type the domain does not know')
  t.ok(
    ENTITY_ACTIONS.filter((a) => a !== 'other').every((a) => Object.keys(eventSchemas).some((type) => actionOf(type) === a)),
    'every action names some event type',
  )
})

t.test('the table reads the verb, whole-type rules first', async (t) => {
  const cases: [string, string][] = [
    ['KeywordAdded', 'created'],
    ['PageUpdated', 'updated'],
    ['KeywordDeleted', 'deleted'],
    ['KeywordRestored', 'restored'],
    ['ClientStatusChanged', 'status_changed'],
    ['AeoItemStatusChanged', 'status_changed'],
    ['PagesDeactivated', 'status_changed'],
    ['SiteEditApplied', 'status_changed'],
    ['KeywordPageAssociated', 'linked'],
    ['KeywordPrimaryPageSet', 'linked'],
    ['KeywordPageDissociated', 'unlinked'],
    ['PageSnapshotRecorded', 'recorded'],
    ['RankCadenceSet', 'updated'],
    ['JobRequested', 'created'],
    ['JobCancelRequested', 'status_changed'],
  ]
  for (const [type, action] of cases) t.equal(actionOf(type), action, type)
  t.same(typesWithActions(['KeywordAdded', 'KeywordDeleted', 'PageUpdated'], new Set(['created', 'updated'] as const)), [
    'KeywordAdded',
    'PageUpdated',
  ])
})

t.test('the record an event changed: its own stream, else its first id field, else the client', async (t) => {
  t.match(entityOf('page-7', 'PageSnapshotRecorded', { page_id: 7, snapshot_id: 3, scan_id: 9 }, 34), {
    entity_type: 'page',
    entity_id: 7,
    id_field: null,
  })
  t.match(entityOf('site_edit-12', 'SiteEditApplied', { edit_id: 12 }, 34), { entity_type: 'site_edit', entity_id: 12 })
  t.match(entityOf('reference_docs-5', 'ReferenceDocUpdated', { doc_id: 3, client_id: 34 }, 34), {
    entity_type: 'reference_doc',
    entity_id: 3,
  })
  t.match(entityOf('blog_topics-34', 'BlogTopicStatusChanged', { topic_id: 8, client_id: 34 }, 34), {
    entity_type: 'blog_topic',
    entity_id: 8,
    id_field: 'topic_id',
  })
  t.match(entityOf('blog_schedule-34', 'BlogScheduleSet', { client_id: 34 }, 34), { entity_type: 'client', entity_id: 34 })
  t.match(entityOf('seo_insights-34', 'SeoInsightRaised', { insight_id: 5, keyword_id: 1, page_id: 2, client_id: 34 }, 34), {
    entity_type: 'seo_insight',
    entity_id: 5,
    id_field: 'insight_id',
  })
  t.match(entityOf('keyword_pages-34', 'KeywordPageAssociated', { keyword_id: 1, page_id: 2 }, 34), {
    entity_type: 'keyword',
    entity_id: 1,
  })
  t.match(entityOf('gsc-34', 'GscCaptureQueued', { capture_id: 4 }, 34), { entity_type: 'gsc_capture' })
  t.match(entityOf('aeo_captures-34', 'AeoCaptureIngested', { capture_id: 4 }, 34), { entity_type: 'aeo_capture' })
  const many = Array.from({ length: 80 }, (_, i) => i + 1)
  const deactivated = entityOf('pages-34', 'PagesDeactivated', { client_id: 34, page_ids: many }, 34)
  t.match(deactivated, { entity_type: 'page', entity_id: null })
  t.equal(deactivated.entity_ids!.length, MAX_ENTITY_IDS, 'a list names its first records only')
  t.match(entityOf('rank_cadence-34', 'RankCadenceSet', { client_id: 34, frequency: 'daily' }, 34), {
    entity_type: 'client',
    entity_id: 34,
  })
})

t.test("before and after: the same record's last earlier value; ids, secrets and unchanged fields left out", async (t) => {
  const earlier = [
    { data: { page_id: 1, title: 'One', slug: 'one' } },
    { data: { page_id: 2, title: 'Two', slug: 'two' } },
    { data: { page_id: 1, title: 'One again' } },
  ]
  t.same(fieldChanges({ page_id: 1, client_id: 34, title: 'Uno', slug: 'one', key_hash: 'abc' }, earlier, 'page_id'), [
    { field: 'title', before: 'One again', after: 'Uno' },
  ])
  t.same(
    fieldChanges({ page_id: 3, title: 'Three' }, earlier, 'page_id'),
    [{ field: 'title', before: null, after: 'Three' }],
    'a record the window never saw: nothing before',
  )
  t.same(
    fieldChanges({ status: 'paused' }, [{ data: { status: 'active' } }, { data: { name: 'x' } }], null),
    [{ field: 'status', before: 'active', after: 'paused' }],
    "a record's own stream: every earlier event is the record's",
  )
})

t.test('large values are cut to a preview that says how large', async (t) => {
  const long = 'x'.repeat(MAX_VALUE_CHARS + 50)
  t.equal(boundedValue(long), `${'x'.repeat(MAX_VALUE_CHARS)}… (${MAX_VALUE_CHARS + 50} characters)`)
  t.match(boundedValue({ links: Array.from({ length: 200 }, (_, i) => `https://a.example/${i}`) }), { json_chars: Number })
  t.same(boundedValue({ a: 1 }), { a: 1 })
  t.equal(boundedValue(7), 7)
})

t.test('hidden fields: digests and sealed secrets, not ordinary fields', async (t) => {
  for (const field of [
    'key_hash',
    'password_hash',
    'refresh_token_hash',
    'recovery_code_hashes',
    'sealed_credentials',
    'client_secret_sealed',
    'secret_hint',
  ]) {
    t.ok(isHiddenField(field), field)
  }
  for (const field of ['title', 'keyword', 'status', 'hash_algorithm']) t.notOk(isHiddenField(field), field)
})
