/**
 * Keywords, pure: the keyword set (get-or-create by normalized text, soft delete, bringing a deleted keyword
 * back or leaving it deleted, the per-client cap) and the built-in generator (patterns per service and
 * service × city, question keyword forms, de-duplication, priority order, the max, determinism).
 */
import t from 'tap'
import type { KeywordEvent } from '../../domain/keywords/events.js'
import { acceptableKeyword, generateKeywords, questionKeyword, type KeywordGeneratorInput } from '../../domain/keywords/generate.js'
import { keywordSet, MAX_KEYWORDS_PER_CLIENT, type NewKeyword } from '../../domain/keywords/keyword-set.js'
import { keywordKey } from '../../domain/keywords/text.js'
import { spec } from './given-when-then.js'

const given = spec(keywordSet)
const added = (id: number, keyword: string, source: 'manual' | 'generated' | 'aeo' = 'manual'): KeywordEvent => ({
  type: 'KeywordAdded',
  data: { client_id: 7, keyword_id: id, keyword, keyword_key: keywordKey(keyword), source, service: '', location: '', intent: null },
})
const fresh = (id: number, keyword: string, source: 'manual' | 'generated' = 'manual'): NewKeyword => ({
  keyword_id: id,
  keyword,
  source,
  service: '',
  location: '',
})
const add = (keywords: NewKeyword[], deleted: 'restore' | 'keep' = 'restore', overflow: 'refuse' | 'truncate' = 'refuse') =>
  ({ type: 'AddKeywords', client_id: 7, keywords, deleted, overflow }) as const

t.test('the keyword set', async (t) => {
  given()
    .when(add([fresh(1, '  Drain   Cleaning ')]))
    .then(t, [{ ...added(1, 'Drain Cleaning') }])
  given(added(1, 'drain cleaning'))
    .when(add([fresh(2, 'DRAIN cleaning!'), fresh(3, 'plumber'), fresh(4, 'Plumber')]))
    .then(t, [added(3, 'plumber')])
  given(added(1, 'a b'), { type: 'KeywordDeleted', data: { client_id: 7, keyword_id: 1 } })
    .when(add([fresh(2, 'A B')], 'restore'))
    .then(t, [{ type: 'KeywordRestored', data: { client_id: 7, keyword_id: 1, source: 'manual' } }])
  given(added(1, 'a b'), { type: 'KeywordDeleted', data: { client_id: 7, keyword_id: 1 } })
    .when(add([fresh(2, 'a b', 'generated')], 'keep'))
    .thenNothingHappens(t)
  given(added(1, 'a b'))
    .when({ type: 'DeleteKeyword', client_id: 7, keyword_id: 1 })
    .then(t, [{ type: 'KeywordDeleted', data: { client_id: 7, keyword_id: 1 } }])
  given(added(1, 'a b'), { type: 'KeywordDeleted', data: { client_id: 7, keyword_id: 1 } })
    .when({ type: 'DeleteKeyword', client_id: 7, keyword_id: 1 })
    .thenNothingHappens(t)
  given().when({ type: 'DeleteKeyword', client_id: 7, keyword_id: 9 }).thenThrows(t, 'not_found')
  given()
    .when(add([fresh(1, '???')]))
    .thenThrows(t, 'validation_failed')
  given()
    .when(add([fresh(1, 'x'.repeat(101))]))
    .thenThrows(t, 'validation_failed')

  const full = Array.from({ length: MAX_KEYWORDS_PER_CLIENT }, (_, i) => added(i + 1, `keyword ${i}`))
  given(...full)
    .when(add([fresh(90001, 'one more')]))
    .thenThrows(t, 'keyword_limit')
  given(...full)
    .when(add([fresh(90001, 'one more', 'generated')], 'keep', 'truncate'))
    .thenNothingHappens(t)
  given(...full)
    .when(add([fresh(90001, 'keyword 3')]))
    .thenNothingHappens(t)
})

const plumbing: KeywordGeneratorInput = {
  services: ['Emergency Plumber', 'Drain cleaning', 'Water Heater Repair'],
  locations: [
    { name: 'Austin, TX', city: 'Austin', state: 'TX' },
    { name: 'Round Rock', city: 'Round Rock', state: '' },
  ],
  questions: [
    {
      prompt: 'how much does drain cleaning cost in Austin, TX?',
      service: 'Drain cleaning',
      location: 'Austin, TX',
      kind: 'cost',
      priority: 75,
    },
    {
      prompt: 'is Acme a trustworthy emergency plumber in Austin, TX?',
      service: 'Emergency Plumber',
      location: 'Austin, TX',
      kind: 'trust',
      priority: 55,
    },
    { prompt: 'who is a good plumber near me?', service: '', location: '', kind: 'near-me', priority: 50 },
    { prompt: 'best drain cleaning in Austin?', service: 'Drain cleaning', location: 'Austin, TX', kind: 'best-of', priority: 90 },
  ],
  max: 1000,
}

t.test('the generator: search-style phrases from services × locations and questions', async (t) => {
  const all = generateKeywords(plumbing)
  const texts = all.map((k) => k.keyword)
  for (const expected of [
    'emergency plumber austin',
    'emergency plumbers austin',
    'emergency plumber austin tx',
    'best drain cleaning austin',
    'drain cleaning near me',
    'emergency drain cleaning round rock',
    'affordable water heater repair round rock',
    'water heater repair cost',
    'drain cleaning cost austin tx',
    'good plumber near me',
  ]) {
    t.ok(texts.includes(expected), expected)
  }
  t.notOk(
    texts.some((k) => k.includes('emergency emergency')),
    'no doubled emergency',
  )
  t.notOk(
    texts.some((k) => k.includes('trustworthy')),
    'trust questions (they name the client) are left out',
  )
  t.notOk(
    texts.some((k) => k.includes('round rock ') && k.endsWith(' ')),
    'no trailing state for a location without one',
  )
  t.equal(new Set(texts.map(keywordKey)).size, texts.length, 'no duplicates by normalized text')
  t.equal(texts[0], 'emergency plumber austin', 'the first service in the first city first')
  for (let i = 1; i < all.length; i++) t.ok(all[i - 1]!.priority >= all[i]!.priority, `ordered by priority at ${i}`)
  t.match(
    all.find((k) => k.keyword === 'best drain cleaning austin'),
    { source: 'generated', service: 'Drain cleaning', location: 'Austin, TX' },
    'the pattern wins over the same phrase from a question',
  )
  t.match(
    all.find((k) => k.keyword === 'drain cleaning cost austin tx'),
    { source: 'aeo', service: 'Drain cleaning' },
    "a question's own form",
  )
  t.match(
    all.find((k) => k.keyword === 'good plumber near me'),
    { source: 'aeo' },
  )
  t.ok(
    all.every((k) => acceptableKeyword(k.keyword)),
    'every keyword is acceptable',
  )
  t.same(generateKeywords(plumbing), all, 'deterministic')
  t.same(
    generateKeywords({ ...plumbing, max: 5 }).map((k) => k.keyword),
    texts.slice(0, 5),
    'max keeps the best-ranked',
  )
  t.same(generateKeywords({ services: [], locations: [], questions: [], max: 10 }), [], 'nothing to build from: nothing')
  const noPlaces = generateKeywords({ services: ['Implants'], locations: [], questions: [], max: 50 }).map((k) => k.keyword)
  t.same(noPlaces, ['implants near me', 'best implants near me', 'implants cost'], 'no locations: the per-service phrases')
})

t.test('question keyword forms', async (t) => {
  t.equal(questionKeyword('How much does drain cleaning cost in Austin, TX?'), 'drain cleaning cost austin tx')
  t.equal(questionKeyword('best emergency plumber near me'), 'best emergency plumber near me')
  t.equal(questionKeyword('who should I hire for roof repair near Round Rock?'), 'roof repair near round rock')
  t.equal(questionKeyword('who is it?'), null, 'too little left')
  t.notOk(acceptableKeyword('x'.repeat(81)), 'too long')
  t.notOk(acceptableKeyword('one two three four five six seven eight nine ten eleven'), 'too many words')
})
