/**
 * Reference documents, pure: the organization's documents aggregate (add, a retried add, titles unique per
 * scope ignoring case and whitespace, the count limit, updates as versions, the same values again, a rescope,
 * delete and delete again), and voiceGuide (which documents apply, their order, the bound, truncation).
 */
import t from 'tap'
import type { ReferenceDocsEvent } from '../../domain/content/reference-docs/events.js'
import { orgReferenceDocs } from '../../domain/content/reference-docs/org-reference-docs.js'
import { REFERENCE_DOCS_PER_ORG_MAX, titleKey } from '../../domain/content/reference-docs/rules.js'
import { docsForClient, type VoiceGuideDoc, voiceGuide } from '../../domain/content/reference-docs/voice-guide.js'
import { spec } from './given-when-then.js'

const given = spec(orgReferenceDocs)

const added = (doc_id: number, overrides: Partial<Extract<ReferenceDocsEvent, { type: 'ReferenceDocAdded' }>['data']> = {}) =>
  ({
    type: 'ReferenceDocAdded',
    data: { doc_id, client_id: null, kind: 'brand_voice', title: `Doc ${doc_id}`, body: 'Plain.', version: 1, ...overrides },
  }) as const satisfies ReferenceDocsEvent

const add = (doc_id: number, title: string, client_id: number | null = null) =>
  ({ type: 'AddReferenceDoc', doc_id, client_id, kind: 'brand_voice', title, body: 'Plain.' }) as const

t.test('adding: normalized values, a retried add, titles unique per scope', async (t) => {
  given()
    .when({ type: 'AddReferenceDoc', doc_id: 1, client_id: null, kind: 'style_guide', title: '  House \t style ', body: '\n\n  Short.\n' })
    .then(t, [added(1, { kind: 'style_guide', title: 'House style', body: '  Short.' })])
  given(added(1)).when(add(1, 'Doc 1')).thenNothingHappens(t)
  given(added(1, { title: 'House voice' }))
    .when(add(2, 'HOUSE   voice'))
    .thenThrows(t, 'reference_doc_title_taken', { detail: 'reference document 1 of the organization is titled "House voice"' })
  given(added(1, { title: 'House voice' }))
    .when(add(2, 'House voice', 7))
    .then(t, [added(2, { title: 'House voice', client_id: 7 })])
  given(added(1, { title: 'House voice', client_id: 7 }))
    .when(add(2, 'house voice', 7))
    .thenThrows(t, 'reference_doc_title_taken', { detail: 'reference document 1 of client 7 is titled "House voice"' })
  given(added(1, { title: 'House voice' }), {
    type: 'ReferenceDocDeleted',
    data: { doc_id: 1, client_id: null, title: 'House voice', version: 1 },
  })
    .when(add(2, 'House voice'))
    .then(t, [added(2, { title: 'House voice' })])
})

t.test('the count limit counts live documents only', async (t) => {
  const full = Array.from({ length: REFERENCE_DOCS_PER_ORG_MAX }, (_, i) => added(i + 1))
  given(...full)
    .when(add(1000, 'One more'))
    .thenThrows(t, 'reference_doc_limit')
  given(...full, { type: 'ReferenceDocDeleted', data: { doc_id: 1, client_id: null, title: 'Doc 1', version: 1 } })
    .when(add(1000, 'One more'))
    .then(t, [added(1000, { title: 'One more' })])
})

t.test('updating: a new version with the whole values; the same again is nothing', async (t) => {
  given(added(1))
    .when({ type: 'UpdateReferenceDoc', doc_id: 1, body: 'Plainer.' })
    .then(t, [{ type: 'ReferenceDocUpdated', data: { ...added(1).data, body: 'Plainer.', version: 2 } }])
  given(added(1)).when({ type: 'UpdateReferenceDoc', doc_id: 1, body: 'Plain.', title: ' Doc  1 ' }).thenNothingHappens(t)
  given(added(1))
    .when({ type: 'UpdateReferenceDoc', doc_id: 1, client_id: 7, kind: 'other' })
    .then(t, [{ type: 'ReferenceDocUpdated', data: { ...added(1).data, client_id: 7, kind: 'other', version: 2 } }])
  given(added(1, { client_id: 7 }))
    .when({ type: 'UpdateReferenceDoc', doc_id: 1, client_id: null })
    .then(t, [{ type: 'ReferenceDocUpdated', data: { ...added(1).data, client_id: null, version: 2 } }])
  given(added(1, { title: 'A' }), added(2, { title: 'B', client_id: 7 }))
    .when({ type: 'UpdateReferenceDoc', doc_id: 2, client_id: null })
    .then(t, [{ type: 'ReferenceDocUpdated', data: { ...added(2).data, title: 'B', client_id: null, version: 2 } }])
  given(added(1, { title: 'A' }), added(2, { title: 'a', client_id: 7 }))
    .when({ type: 'UpdateReferenceDoc', doc_id: 2, client_id: null })
    .thenThrows(t, 'reference_doc_title_taken')
  given(added(1)).when({ type: 'UpdateReferenceDoc', doc_id: 9, body: 'x' }).thenThrows(t, 'not_found')
})

t.test('deleting: once, then nothing; a deleted document takes no update', async (t) => {
  const deleted = { type: 'ReferenceDocDeleted', data: { doc_id: 1, client_id: null, title: 'Doc 1', version: 1 } } as const
  given(added(1)).when({ type: 'DeleteReferenceDoc', doc_id: 1 }).then(t, [deleted])
  given(added(1), deleted).when({ type: 'DeleteReferenceDoc', doc_id: 1 }).thenNothingHappens(t)
  given(added(1), deleted).when({ type: 'UpdateReferenceDoc', doc_id: 1, body: 'x' }).thenThrows(t, 'not_found')
  given().when({ type: 'DeleteReferenceDoc', doc_id: 1 }).thenThrows(t, 'not_found')
})

t.test('titleKey ignores case and whitespace runs', async (t) => {
  t.equal(titleKey('  House \n Voice '), titleKey('house voice'))
  t.not(titleKey('House voice'), titleKey('House voices'))
})

const doc = (id: number, kind: VoiceGuideDoc['kind'], client_id: number | null, body = `Body ${id}.`): VoiceGuideDoc => ({
  id,
  kind,
  client_id,
  title: `Title ${id}`,
  body,
})

t.test('voiceGuide: which documents apply and in what order', async (t) => {
  const docs = [
    doc(1, 'service_facts', null),
    doc(2, 'brand_voice', null),
    doc(3, 'other', 7),
    doc(4, 'brand_voice', 8),
    doc(5, 'style_guide', 7),
    doc(6, 'brand_voice', null),
  ]
  t.same(
    docsForClient(docs, 7).map((d) => d.id),
    [5, 3, 2, 6, 1],
    "the client's own first (by kind), then the organization's by kind, oldest first; never another client's",
  )
  t.same(
    docsForClient(docs, null).map((d) => d.id),
    [2, 6, 1],
    'no client: the organization-wide ones only',
  )
  t.equal(
    voiceGuide(docs, 8),
    [
      '### Brand voice: Title 4 (this client)\nBody 4.',
      '### Brand voice: Title 2\nBody 2.',
      '### Brand voice: Title 6\nBody 6.',
      '### Service facts: Title 1\nBody 1.',
    ].join('\n\n'),
  )
  t.equal(voiceGuide([], 7), '', 'no documents: nothing')
  t.equal(voiceGuide([doc(1, 'other', 9)], 7), '', "only another client's: nothing")
  t.same(
    docs.map((d) => d.id),
    [1, 2, 3, 4, 5, 6],
    'the input is left as it was',
  )
})

t.test('voiceGuide: bounded, cutting at a boundary and marking it', async (t) => {
  const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
  const docs = [doc(1, 'brand_voice', 7, long), doc(2, 'style_guide', null, 'Never shown.')]
  const guide = voiceGuide(docs, 7, 1000)
  t.ok(guide.length <= 1000, `at most the bound (${guide.length})`)
  t.ok(guide.startsWith('### Brand voice: Title 1 (this client)\nword0 word1'), 'the client document first')
  t.ok(guide.endsWith('\n[…truncated]'), 'marked')
  t.match(guide, /word\d+\n\[…truncated\]$/, 'cut after a whole word')
  t.notMatch(guide, /Never shown/, 'what comes after a cut document is left out')

  // A short document after a long one still fits when there is room; none is started in a sliver.
  const fits = voiceGuide([doc(1, 'brand_voice', null, 'x'.repeat(700)), doc(2, 'style_guide', null, 'Short.')], null, 1000)
  t.match(fits, /### Style guide: Title 2\nShort\.$/)
  const sliver = voiceGuide([doc(1, 'brand_voice', null, 'x'.repeat(900)), doc(2, 'style_guide', null, 'y'.repeat(300))], null, 1000)
  t.notMatch(sliver, /Title 2/, 'no document started with less than a useful room left')
  t.ok(sliver.length <= 1000)
  const every = voiceGuide(
    Array.from({ length: 50 }, (_, i) => doc(i + 1, 'other', null, 'z'.repeat(1000))),
    null,
  )
  t.ok(every.length <= 12_000, `the default bound holds (${every.length})`)
})
