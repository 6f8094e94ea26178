/**
 * The analysis of captured answers, on answers written as the engines write them: the client named
 * first, named later, absent, only cited; directories, media and competitors among the sources; business
 * names in numbered lists, bullets, bold text, headings and tables; and item_keys that stay stable.
 */
import t from 'tap'
import { analyze, ANALYSIS_VERSION } from '../../domain/aeo/analysis/analyze.js'
import { registrableDomain } from '../../domain/aeo/analysis/domains.js'
import { namedBusinesses } from '../../domain/aeo/analysis/entities.js'
import { nameKey, sentences } from '../../domain/aeo/analysis/text.js'
import { AeoReport } from '../../domain/aeo/captures/events.js'
import * as f from './aeo-analysis-fixtures.js'

const keys = (report: ReturnType<typeof analyze>) => report.findings.map((x) => x.item_key)
const names = (report: ReturnType<typeof analyze>) => report.entity_table.map((e) => e.name)

t.test('registrable domains: no www, subdomains folded, two-label suffixes kept, junk is empty', async (t) => {
  t.equal(registrableDomain('https://www.yelp.com/biz/x'), 'yelp.com')
  t.equal(registrableDomain('http://maps.google.com/?cid=1'), 'google.com')
  t.equal(registrableDomain('acmeplumbing.com/services'), 'acmeplumbing.com', 'scheme optional')
  t.equal(registrableDomain('https://shop.example.co.uk/a'), 'example.co.uk')
  t.equal(registrableDomain('https://WWW.Example.COM.'), 'example.com')
  t.equal(registrableDomain('not a url'), '')
  t.equal(registrableDomain(''), '')
})

t.test('name keys ignore case, punctuation, "the" and legal suffixes', async (t) => {
  t.equal(nameKey('The Acme Plumbing Co., Inc.'), 'acme plumbing')
  t.equal(nameKey('Acme Plumbing LLC'), 'acme plumbing')
  t.equal(nameKey('S&D Plumbing'), nameKey('S and D Plumbing'))
})

t.test('named first: a numbered list with bold names, the own site cited', async (t) => {
  const report = analyze(f.input(f.namedFirst, f.namedFirstCitations))
  t.match(report.scorecard, {
    present: true,
    named: true,
    named_first: true,
    position: 1,
    named_count: 4,
    cited: true,
    own_domain_citations: 1,
    citation_count: 3,
  })
  t.strictSame(
    names(report),
    ['Radiant Plumbing & Air Conditioning', 'S&D Plumbing', 'Reliant Plumbing'],
    'other businesses in order; labels such as "Check reviews" are not businesses',
  )
  t.strictSame(
    report.entity_table.map((e) => e.position),
    [2, 3, 4],
  )
  t.equal(report.entity_table[0]!.domain, 'radiantplumbing.com', "a competitor's cited site is linked to it")
  const classes = Object.fromEntries(report.source_table.map((s) => [s.domain, s.class]))
  t.strictSame(classes, { 'acmeplumbing.com': 'own', 'yelp.com': 'directory', 'radiantplumbing.com': 'competitor' })
  t.ok(report.claim_map.length >= 2, 'sentences about the client')
  t.ok(report.claim_map.every((c) => /acme/i.test(c.sentence)))
  t.strictSame(report.findings, [], 'named first and cited: nothing to do')
  t.ok(AeoReport.safeParse(report).success, 'the report fits the event contract')
})

t.test('named later: headings per business, not cited, directories and media cited', async (t) => {
  const report = analyze(f.input(f.namedLater, f.namedLaterCitations))
  t.match(report.scorecard, {
    present: true,
    named: true,
    named_first: false,
    position: 3,
    named_count: 3,
    cited: false,
    own_domain_citations: 0,
  })
  t.strictSame(
    names(report),
    ['Radiant Plumbing & Air Conditioning', 'Reliant Plumbing'],
    '"What to look for" is a heading, not a business',
  )
  t.strictSame(keys(report), [
    'site:citable:drain-cleaning',
    'listing:angi.com',
    'listing:yelp.com',
    'reviews:drain-cleaning',
    'market:leader:radiant-plumbing-air-conditioning',
  ])
  const byKey = Object.fromEntries(report.findings.map((x) => [x.item_key, x]))
  t.equal(byKey['site:citable:drain-cleaning']!.tier, 'B')
  t.equal(byKey['listing:yelp.com']!.tier, 'C')
  t.equal(byKey['market:leader:radiant-plumbing-air-conditioning']!.tier, 'X')
  t.match(byKey['listing:angi.com']!.evidence, /position 3 of 3/)
  t.equal(report.source_table.find((s) => s.domain === 'statesman.com')?.class, 'media')
})

t.test('absent: bullets with bold names; directories, Google and media cited', async (t) => {
  const report = analyze(f.input(f.absent, f.absentCitations))
  t.match(report.scorecard, { present: false, named: false, named_first: false, position: null, named_count: 3, cited: false })
  t.strictSame(names(report), ['Radiant Plumbing & Air Conditioning', 'S&D Plumbing', 'Abacus Plumbing, Air Conditioning & Electrical'])
  t.strictSame(report.claim_map, [])
  t.equal(report.source_table.find((s) => s.domain === 'sdplumbing.com')?.class, 'competitor')
  t.equal(report.source_table.find((s) => s.domain === 'google.com')?.class, 'directory')
  const tiers = Object.fromEntries(report.findings.map((x) => [x.item_key, x.tier]))
  t.strictSame(tiers, {
    'site:service-page:drain-cleaning:austin-tx': 'A',
    'listing:bbb.org': 'C',
    'listing:google.com': 'C',
    'reviews:drain-cleaning': 'C',
    'market:coverage:statesman.com': 'X',
    'market:leader:radiant-plumbing-air-conditioning': 'X',
  })
  t.match(report.findings[0]!.evidence, /Named instead: Radiant Plumbing/)
})

t.test('only cited: the own site is a source but the answer names no business', async (t) => {
  const report = analyze(f.input(f.onlyCited, f.onlyCitedCitations, f.costQ))
  t.match(report.scorecard, {
    present: true,
    named: false,
    named_first: false,
    position: null,
    named_count: 0,
    cited: true,
    own_domain_citations: 1,
  })
  t.strictSame(report.entity_table, [])
  t.strictSame(keys(report), ['site:name-on-page:drain-cleaning', 'listing:homeguide.com'])
})

t.test('a comparison table: the first cell of each row is the business', async (t) => {
  const report = analyze(f.input(f.table))
  t.match(report.scorecard, { named: true, position: 2, named_count: 3 })
  t.strictSame(names(report), ['Radiant Plumbing & Air Conditioning', 'Reliant Plumbing'])
  t.equal(report.claim_map[0]?.sentence, 'Acme Plumbing — Drain cleaning — 4.8')
})

t.test('plain prose: businesses named in running text, "A and B" is two names, "Smith and Sons" one', async (t) => {
  const report = analyze(f.input(f.prose))
  t.match(report.scorecard, { named: true, named_first: false, position: 3, named_count: 4 })
  t.strictSame(names(report), ['Reliant Plumbing', 'Radiant Plumbing', 'Smith and Sons Plumbing'])
  t.ok(keys(report).includes('market:leader:reliant-plumbing'))
})

t.test('bold numbered names with ratings; "Why we like it" and "Emergency Services to Expect" are labels', async (t) => {
  const report = analyze(f.input(f.boldNumbered))
  t.match(report.scorecard, { named: true, position: 2, named_count: 3 })
  t.strictSame(names(report), ['Radiant Plumbing & Air Conditioning', 'Mr. Rooter Plumbing of Austin'])
})

t.test('a cost question the client is absent from asks for pricing guidance (tier B)', async (t) => {
  const report = analyze(f.input(f.absent, [], f.costQ))
  t.ok(keys(report).includes('site:pricing:drain-cleaning'))
  t.ok(keys(report).includes('site:service-page:drain-cleaning:austin-tx'))
})

t.test('retrieved but not cited sources are listed apart and do not count as cited', async (t) => {
  const report = analyze(f.input(f.absent, [], f.bestOf, [{ url: 'https://acmeplumbing.com/' }, { url: 'https://www.yelp.com/x' }]))
  t.match(report.scorecard, { cited: false, present: false, retrieved_own: 1, retrieved_count: 2, citation_count: 0 })
  t.strictSame(report.source_table, [], 'the source table lists cited domains only')
  const cited = analyze(
    f.input(f.absent, [{ url: 'https://www.yelp.com/a' }], f.bestOf, [{ url: 'https://yelp.com/b' }, { url: 'https://acmeplumbing.com/' }]),
  )
  t.match(cited.source_table, [{ domain: 'yelp.com', class: 'directory', count: 1, retrieved: 1 }])
  t.notOk(
    keys(report).some((k) => k.startsWith('listing:')),
    'a directory only retrieved is not a listing finding',
  )
})

t.test('the client is found by its site name too, and its own listing entry is not a competitor', async (t) => {
  const text = `Top picks:\n\n1. **AcmePlumbing.com** – fast drain service.\n2. **Reliant Plumbing** – upfront pricing.`
  const report = analyze(f.input(text))
  t.match(report.scorecard, { named: true, named_first: true, position: 1, named_count: 2 })
  t.strictSame(names(report), ['Reliant Plumbing'])
})

t.test('item_keys are stable: the same situation in other words, order and months gives the same keys', async (t) => {
  const a = analyze(f.input(f.absent, f.absentCitations))
  const reordered = analyze(f.input(f.absent, [...f.absentCitations].reverse()))
  t.strictSame(keys(a), keys(reordered), 'citation order does not matter')
  const reworded = analyze(
    f.input(
      `Austin homeowners usually call one of these:\n\n- **Radiant Plumbing & Air Conditioning** (top reviews)\n- **Reliant Plumbing**\n\nCheck Google reviews before you hire.`,
      [{ url: 'https://www.google.com/maps/place/radiant' }, { url: 'https://bbb.org/us/tx/austin' }],
    ),
  )
  for (const key of [
    'site:service-page:drain-cleaning:austin-tx',
    'listing:google.com',
    'listing:bbb.org',
    'market:leader:radiant-plumbing-air-conditioning',
  ]) {
    t.ok(keys(reworded).includes(key), `${key} again`)
  }
  t.strictSame(
    analyze(f.input(f.namedLater, f.namedLaterCitations)),
    analyze(f.input(f.namedLater, f.namedLaterCitations)),
    'deterministic',
  )
  for (const finding of [...a.findings, ...reworded.findings]) {
    t.ok(/^[a-z]+:[a-z0-9:.-]+$/.test(finding.item_key) && finding.item_key.length <= 200, `${finding.item_key} is a plain key`)
  }
  t.equal(ANALYSIS_VERSION, 3, '2: place-led local names ("Austin Pipe Pros") are businesses; 3: a sentence end splits names')
})

t.test('entities: labels, places, platforms and sentences are not businesses', async (t) => {
  const text = [
    '## Best Plumbers in Austin, TX',
    '',
    '1. **Pros:** fast',
    '2. **Cost:** $150–$450',
    '3. **Yelp** has many reviews',
    '4. Licensed and insured technicians matter',
    '5. **Austin, TX**',
    '6. [Mr. Rooter Plumbing of Austin](https://www.mrrooter.com/austin/) – franchise',
    '',
    '**Bottom line:** call two companies.',
  ].join('\n')
  const found = namedBusinesses(text, { contextWords: ['Drain cleaning', 'Austin', 'TX'], placeNames: ['Austin, TX'] })
  t.strictSame(
    found.map((b) => b.name),
    ['Mr. Rooter Plumbing of Austin'],
  )
})

t.test('entities: a place-led local name ("Austin Pipe Pros") is a business; the place and the client\'s service is a label', async (t) => {
  const text = [
    '## Austin Drain Cleaning',
    '',
    '1. **Austin Pipe Pros**: upfront pricing.',
    '2. **Acme Plumbing**: 24/7.',
    '3. **Round Rock Plumbing Co**',
  ].join('\n')
  const context = { contextWords: ['Drain cleaning', 'Austin', 'TX', 'Round Rock'], placeNames: ['Austin, TX', 'Round Rock, TX'] }
  t.strictSame(
    namedBusinesses(text, context).map((b) => b.name),
    ['Austin Pipe Pros', 'Acme Plumbing', 'Round Rock Plumbing Co'],
  )
})

t.test('entities: a sentence end splits names; abbreviations and initials inside a name do not', async (t) => {
  const text =
    'For a burst pipe, call Reliant Plumbing. Austin Plumbing is also well reviewed. Smith Bros. Plumbing and J.R. Rooter Services serve Round Rock; so does St. Louis Plumbing Co. in Pflugerville.'
  // No places in this context: "Austin Plumbing" is then a business of its own (with the client's places it is a label, below).
  t.strictSame(
    namedBusinesses(text, { contextWords: [], placeNames: [] }).map((b) => [b.name, b.mentions]),
    [
      ['Reliant Plumbing', 1],
      ['Austin Plumbing', 1],
      ['Smith Bros. Plumbing', 1],
      ['J.R. Rooter Services', 1],
      ['St. Louis Plumbing Co', 1],
    ],
  )
  const report = analyze(f.input(text))
  t.strictSame(
    names(report),
    ['Reliant Plumbing', 'Smith Bros. Plumbing', 'J.R. Rooter Services', 'St. Louis Plumbing Co'],
    'through the analysis: no business spans two sentences',
  )
  t.match(report.scorecard, { named: false, named_count: 4 })
})

t.test('sentences split on end punctuation and lines, markdown removed', async (t) => {
  t.strictSame(sentences('**Acme** is good. It is fast!\n- Call now'), ['Acme is good.', 'It is fast!', 'Call now'])
})

t.test('a directory dump of an answer is bounded: at most 100 businesses and 50 claims', async (t) => {
  let text = ''
  for (let i = 0; text.length < 150_000; i++)
    text += `${i + 1}. **Business Number${i} Plumbing** – reliable. Acme Plumbing is mentioned too.\n`
  const report = analyze(f.input(text))
  t.equal(report.entity_table.length + 1, 100, '100 businesses, the client among them')
  t.equal(report.claim_map.length, 50)
  t.match(report.scorecard, { named: true, position: 2 })
})
