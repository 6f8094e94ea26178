/**
 * Page search intent, pure: the page's intent record (one classification per content hash, a request
 * answered once per page, a person's override set, repeated and cleared), the deterministic rules (each
 * intent from the places a page says it, the client's cities, services and name, the tie-break, confidence
 * and the evidence list), the page reader (headings, hidden markup, entities, unclosed tags), and the
 * language model's request and answer.
 */
import t from 'tap'
import { isSecretField } from '../../domain/exports/secret-columns.js'
import {
  intentEventSchemas,
  MAX_SIGNAL_DETAIL,
  MAX_SIGNALS,
  type PageIntentClassifiedData,
  type PageIntentEvent,
} from '../../domain/search/intent/events.js'
import { intentRequest, readIntentAnswer } from '../../domain/search/intent/model-answer.js'
import { pageIntent, REMEMBERED_REQUESTS } from '../../domain/search/intent/page-intent.js'
import { cut, MAX_HEADINGS, readPageText, storableText } from '../../domain/search/intent/page-text.js'
import { classifyIntentByRules, wordsOf, type IntentRuleInput } from '../../domain/search/intent/rules.js'
import { spec } from './given-when-then.js'

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)

const classification = (hash: string, extra: Partial<PageIntentClassifiedData> = {}): PageIntentClassifiedData => ({
  page_id: 9,
  client_id: 7,
  content_sha256: hash,
  snapshot_id: 31,
  intent: 'local',
  confidence: 0.8,
  signals: [{ intent: 'local', source: 'title', detail: '"near me" in the title', weight: 3 }],
  classifier: 'rules',
  model: null,
  fallback_reason: null,
  request_id: null,
  ...extra,
})
const classified = (hash: string, extra: Partial<PageIntentClassifiedData> = {}): PageIntentEvent => ({
  type: 'PageIntentClassified',
  data: classification(hash, extra),
})
const record = (hash: string, extra: Partial<PageIntentClassifiedData> = {}) =>
  ({ type: 'RecordClassification', classification: classification(hash, extra) }) as const
const override = (intent: 'local' | 'transactional' | null, note = '') =>
  ({ type: 'SetOverride', page_id: 9, client_id: 7, intent, note }) as const

t.test('the page intent record: one classification per content, a request answered once', async (t) => {
  const given = spec(pageIntent)
  given()
    .when(record(HASH_A))
    .then(t, [classified(HASH_A)])
  given(classified(HASH_A))
    .when(record(HASH_A, { intent: 'commercial' }))
    .thenNothingHappens(t)
  given(classified(HASH_A))
    .when(record(HASH_B))
    .then(t, [classified(HASH_B)])
  // A request classifies known content again, once.
  given(classified(HASH_A))
    .when(record(HASH_A, { request_id: 'r1', classifier: 'model', model: 'openai:gpt-test' }))
    .then(t, [classified(HASH_A, { request_id: 'r1', classifier: 'model', model: 'openai:gpt-test' })])
  given(classified(HASH_A), classified(HASH_A, { request_id: 'r1' }))
    .when(record(HASH_B, { request_id: 'r1' }))
    .thenNothingHappens(t)
  given(classified(HASH_A, { request_id: 'r1' }))
    .when(record(HASH_A, { request_id: 'r2' }))
    .then(t, [classified(HASH_A, { request_id: 'r2' })])

  const state = [
    classified(HASH_A, { classifier: 'rules', model: 'anthropic:claude-test', fallback_reason: 'Anthropic 529: Overloaded' }),
    classified(HASH_B, { classifier: 'model', model: 'anthropic:claude-test' }),
  ].reduce(pageIntent.evolve, pageIntent.initialState())
  t.same(state.classified.get(HASH_A), { intent: 'local', classifier: 'rules', fellBack: true }, 'a fallback is remembered as one')
  t.same(state.classified.get(HASH_B), { intent: 'local', classifier: 'model', fellBack: false })
  t.equal(pageIntent.streamOf(9), 'page_intent-9')

  const many = Array.from({ length: REMEMBERED_REQUESTS + 5 }, (_, i) => classified(HASH_A, { request_id: `r${i}` }))
  const remembered = many.reduce(pageIntent.evolve, pageIntent.initialState())
  t.equal(remembered.requests.length, REMEMBERED_REQUESTS, 'the requests remembered are bounded')
  t.equal(remembered.requests.at(-1), `r${REMEMBERED_REQUESTS + 4}`, 'the newest kept')
})

t.test("the page intent record: a person's override", async (t) => {
  const given = spec(pageIntent)
  const overridden = (intent: 'local' | 'transactional', note = ''): PageIntentEvent => ({
    type: 'PageIntentOverridden',
    data: { page_id: 9, client_id: 7, intent, note },
  })
  const cleared: PageIntentEvent = { type: 'PageIntentOverrideCleared', data: { page_id: 9, client_id: 7 } }
  given()
    .when(override('transactional', 'booking form'))
    .then(t, [overridden('transactional', 'booking form')])
  given(overridden('transactional', 'booking form')).when(override('transactional', 'booking form')).thenNothingHappens(t)
  given(overridden('transactional', 'booking form'))
    .when(override('transactional', 'the form'))
    .then(t, [overridden('transactional', 'the form')])
  given(overridden('transactional'))
    .when(override('local'))
    .then(t, [overridden('local')])
  given(overridden('transactional')).when(override(null)).then(t, [cleared])
  given(overridden('transactional'), cleared).when(override(null)).thenNothingHappens(t)
  given().when(override(null)).thenNothingHappens(t)
  // Classifications leave the override alone (the record keeps both).
  const state = [overridden('local'), classified(HASH_A, { intent: 'informational' })].reduce(pageIntent.evolve, pageIntent.initialState())
  t.same(state.override, { intent: 'local', note: '' })
})

const client = {
  name: 'Acme Plumbing',
  services: ['Drain cleaning', 'Water heater repair'],
  locations: [
    { name: 'Austin, TX', city: 'Austin', state: 'TX' },
    { name: 'Round Rock, TX', city: '', state: 'TX' },
  ],
}
const page = (url: string, title: string, content = ''): IntentRuleInput => ({ url, title, content, client })
const intentOf = (input: IntentRuleInput) => classifyIntentByRules(input).intent

t.test('the rules: each intent from what the page says', async (t) => {
  t.equal(
    intentOf(
      page(
        'https://acmeplumbing.com/blog/how-to-unclog-a-drain',
        'How to Unclog a Drain: 7 Tips',
        '<h2>Why drains clog</h2><p>Learn the signs of a blocked pipe.</p>',
      ),
    ),
    'informational',
  )
  t.equal(
    intentOf(
      page('https://acmeplumbing.com/best-water-heaters', 'Best Tankless Water Heaters Compared (Reviews)', '<p>Prices from $899.</p>'),
    ),
    'commercial',
  )
  t.equal(
    intentOf(
      page(
        'https://acmeplumbing.com/book-online',
        'Book a Plumber Online',
        '<h1>Schedule service</h1><p>Get a free quote today. Book now.</p>',
      ),
    ),
    'transactional',
  )
  t.equal(intentOf(page('https://acmeplumbing.com/about-us', 'About Us', '<h1>Our story</h1><p>Meet the team.</p>')), 'navigational')
  t.equal(intentOf(page('https://acmeplumbing.com/', 'Acme Plumbing')), 'navigational', 'the root with the brand as title')
  t.equal(
    intentOf(
      page(
        'https://acmeplumbing.com/drain-cleaning-austin',
        'Drain Cleaning in Austin',
        '<h1>Drain cleaning near me</h1><p>Visit us at 1200 Congress Ave, Austin. Call (512) 555-0100.</p>',
      ),
    ),
    'local',
  )
  t.equal(intentOf(page('/service-areas/round-rock', 'Round Rock Plumbers')), 'local', "a location's name stands in for its city")
})

t.test('the rules: evidence, confidence, defaults and the tie-break', async (t) => {
  const local = classifyIntentByRules(page('https://acmeplumbing.com/drain-cleaning-austin', 'Drain Cleaning in Austin'))
  t.match(local.signals, [
    { intent: 'local', source: 'client', detail: `"austin": the client's location Austin, TX, in the URL`, weight: 4 },
    { intent: 'local', source: 'client', detail: `"austin": the client's location Austin, TX, in the title`, weight: 4 },
    { intent: 'commercial', source: 'client', detail: `the client's service "Drain cleaning" names the page`, weight: 2 },
  ])
  // 8 of 10 for local, with more than enough evidence: 0.8.
  t.equal(local.confidence, 0.8)

  const nothing = classifyIntentByRules(page('https://acmeplumbing.com/p?id=4', 'Untitled', '<p>Lorem ipsum dolor sit amet.</p>'))
  t.same(nothing, { intent: 'informational', confidence: 0, signals: [] }, 'no evidence: the default, with confidence 0')

  const thin = classifyIntentByRules(page('https://acmeplumbing.com/x', 'Guide'))
  t.same(thin.intent, 'informational')
  t.equal(thin.confidence, 0.5, 'little evidence: confidence scaled down (3 of the 6 for full)')

  // "contact" and "contact us": only the longer phrase counts.
  const contact = classifyIntentByRules(page('https://acmeplumbing.com/p', 'Contact Us'))
  t.same(
    contact.signals.map((s) => s.detail),
    ['"contact us" in the title'],
  )
  // A tie goes to the more specific intent: local before navigational.
  const tie = classifyIntentByRules(page('https://acmeplumbing.com/p', 'Contact us near me'))
  t.equal(tie.intent, 'local')
  t.equal(tie.confidence, 0.5)

  const words = Array.from({ length: 1300 }, (_, i) => `word${i}`).join(' ')
  const article = classifyIntentByRules(
    page('https://acmeplumbing.com/p', 'Pipes', `<h2>What is a P-trap?</h2><h2>Do I need one?</h2><p>${words}</p>`),
  )
  t.equal(article.intent, 'informational')
  t.ok(
    article.signals.some((s) => s.detail === '2 headings are questions'),
    'question headings count',
  )
  t.ok(
    article.signals.some((s) => s.detail.startsWith('long-form text (')),
    'long text counts',
  )

  const crowded = classifyIntentByRules(
    page(
      'https://acmeplumbing.com/best-cheap-affordable-compare-reviews-pricing-cost-vs-alternatives-financing-warranty-licensed',
      'Best cheap affordable compare reviews pricing cost vs alternatives financing warranty licensed',
      'best cheap affordable compare reviews pricing cost',
    ),
  )
  t.equal(crowded.signals.length, MAX_SIGNALS, 'at most MAX_SIGNALS signals')
  t.ok(
    crowded.signals.every((s, i) => i === 0 || s.weight <= crowded.signals[i - 1]!.weight),
    'strongest first',
  )
  t.ok(crowded.confidence <= 0.95, 'rules never claim certainty')
  t.equal(
    crowded.signals.filter((s) => s.source === 'text' && s.intent === 'commercial').length,
    0,
    'the URL and title, the strongest, fill the list before the text',
  )
  t.same(
    classifyIntentByRules(page('https://a.example/x', 'Tips')),
    classifyIntentByRules(page('https://a.example/x', 'Tips')),
    'deterministic',
  )

  const long = classifyIntentByRules({
    url: 'https://a.example/x',
    title: 'T',
    content: '',
    client: { name: 'A', services: [`${'💧'.repeat(200)} cleaning`], locations: [] },
  })
  t.equal(long.signals.length, 0, 'a service that is not in the page adds nothing')
  const emoji = classifyIntentByRules({
    url: `https://a.example/${'x'.repeat(10)}`,
    title: 'austin',
    content: '',
    client: { name: 'A', services: [], locations: [{ name: `Austin ${'💧'.repeat(200)}`, city: 'Austin', state: 'TX' }] },
  })
  t.ok(
    emoji.signals.every((s) => s.detail.length <= MAX_SIGNAL_DETAIL && storableText(s.detail, MAX_SIGNAL_DETAIL) === s.detail),
    'details are bounded and whole',
  )
})

t.test('words and bounded text', async (t) => {
  t.equal(wordsOf('Café  Drain-Cleaning/AUSTIN!'), ' cafe drain cleaning austin ')
  t.equal(cut('ab💧', 3), 'ab', 'never half a surrogate pair')
  t.equal(cut('abc', 3), 'abc')
  t.equal(storableText(' a\u0000b\n\tc \uD800 ', 20), 'a b c \uFFFD')
})

t.test('the page reader: headings, hidden markup, entities, unclosed tags', async (t) => {
  const read = readPageText(
    '<html><head><style>h1{color:red}</style><script>var x = "<h1>no</h1>"</script></head><body>' +
      '<!-- <h2>hidden</h2> --><h1 class="t">Drain&nbsp;Cleaning &amp; Repair</h1><p>Call&#32;us &#x41;</p>' +
      '<h2><span>Why</span> choose us?</h2><h4>not a heading here</h4><header>x</header><h3>Hours</h3></body></html>',
  )
  t.same(read.headings, ['Drain Cleaning & Repair', 'Why choose us?', 'Hours'])
  t.notMatch(read.text, /color|var x|hidden/, 'styles, scripts and comments are not text')
  t.match(read.text, /Call us A/)
  t.same(readPageText('Plain text, no markup.'), { headings: [], text: 'Plain text, no markup.' })
  t.same(readPageText('<h1>Open <script>never closed'), { headings: [], text: 'Open' })
  t.same(readPageText('&#0; &#xD800; &bogus; &#65;').text, '&#0; &#xD800; &bogus; A', 'entities that are not characters stay as written')
  const many = Array.from({ length: MAX_HEADINGS + 5 }, (_, i) => `<h2>H${i}</h2>`).join('')
  t.equal(readPageText(many).headings.length, MAX_HEADINGS)
  // Stray and unclosed markup is read in one pass (a quadratic reader would not finish this in a test's time).
  const stray = `${'<h1 <script <!-- <'.repeat(20_000)}`
  t.type(readPageText(stray).text, 'string')
})

t.test("the model's request and answer", async (t) => {
  const request = intentRequest(
    page('https://acmeplumbing.com/drain-cleaning', 'Drain Cleaning', `<h1>Drain cleaning</h1><p>${'x'.repeat(10_000)}</p>`),
  )
  t.match(request.system, /informational, commercial|"informational", "commercial"/)
  t.match(request.system, /JSON only/)
  const prompt = JSON.parse(request.prompt)
  t.same(prompt.headings, ['Drain cleaning'])
  t.equal(prompt.text_excerpt.length, 4000, 'an excerpt of the text')
  t.same(prompt.business, { name: 'Acme Plumbing', services: client.services, locations: ['Austin, TX', 'Round Rock, TX'] })

  t.same(readIntentAnswer('{"intent": "local", "confidence": 0.91, "reasons": ["city in the title", "", 4, "phone number"]}'), {
    intent: 'local',
    confidence: 0.91,
    signals: [
      { intent: 'local', source: 'model', detail: 'city in the title', weight: 1 },
      { intent: 'local', source: 'model', detail: 'phone number', weight: 1 },
    ],
  })
  t.match(readIntentAnswer('Sure!\n```json\n{"intent": " Transactional ", "confidence": 7}\n```'), {
    intent: 'transactional',
    confidence: 1,
    signals: [],
  })
  t.equal(readIntentAnswer('{"intent": "commercial"}')?.confidence, 0.7, 'no confidence: the default')
  t.equal(readIntentAnswer('{"intent": "buying"}'), null, 'not one of the five')
  t.equal(readIntentAnswer('I think it is local.'), null, 'no JSON')
  const reasons = readIntentAnswer(
    JSON.stringify({ intent: 'local', reasons: ['a\u0000b', 'x'.repeat(1000), 1, 2, 3, 'c', 'd', 'e', 'f'] }),
  )!
  t.same(
    reasons.signals.map((s) => s.detail.length),
    [3, MAX_SIGNAL_DETAIL, 1, 1, 1],
    'at most five reasons, each cleaned and bounded',
  )
})

t.test('exports and replays carry every intent field (none is named like a secret)', async (t) => {
  for (const [type, schema] of Object.entries(intentEventSchemas)) {
    const secret = Object.keys(schema.shape).filter((field) => isSecretField(type, field))
    t.same(secret, [], `${type}: no field left out`)
  }
  const columns = ['content_sha256', 'classified_sha256', 'override_note', 'fallback_reason', 'signals', 'request_id', 'confidence']
  t.same(
    columns.filter((c) => isSecretField('page_intents', c) || isSecretField('page_intent_cache', c)),
    [],
    'nor any column',
  )
})
