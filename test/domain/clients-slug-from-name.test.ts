/**
 * The slug add_client derives from a client's name when given none: lower-case ASCII and
 * single hyphens, accents folded, within the slug's maximum length, and the candidates tried in order while
 * the organization's other clients hold them. Every result is a valid Slug.
 */
import t from 'tap'
import fc from 'fast-check'
import { slugCandidates, slugFromName } from '../../domain/clients/slug-from-name.js'
import { MAX_SLUG_LENGTH, Slug } from '../../domain/clients/values.js'

t.test('a name becomes lower-case ASCII words joined by single hyphens', async (t) => {
  const cases: [string, string][] = [
    ['Austin Plumbing', 'austin-plumbing'],
    ['  Acme   Plumbing & Heating, LLC.  ', 'acme-plumbing-heating-llc'],
    ['Café Olé', 'cafe-ole'],
    ['Zürich Ärzte GmbH', 'zurich-arzte-gmbh'],
    ['A1 Roofing (Austin)', 'a1-roofing-austin'],
    ["O'Brien’s Pub", 'obriens-pub'],
    ['---', ''],
    ['東京の歯医者', ''],
    ['', ''],
  ]
  for (const [name, slug] of cases) t.equal(slugFromName(name), slug, JSON.stringify(name))
})

t.test('a long name is cut to the maximum without a trailing hyphen', async (t) => {
  const slug = slugFromName(`${'a'.repeat(99)} b`)
  t.equal(slug, 'a'.repeat(99))
  t.ok(slug.length <= MAX_SLUG_LENGTH)
})

t.test('candidates: the name, then -2, -3 …, then -<client id>', async (t) => {
  const candidates = slugCandidates('Acme Plumbing', 4711)
  t.same(candidates.slice(0, 3), ['acme-plumbing', 'acme-plumbing-2', 'acme-plumbing-3'])
  t.equal(candidates.at(-1), 'acme-plumbing-4711')
  t.equal(new Set(candidates).size, candidates.length, 'all different')
  t.same(slugCandidates('東京', 1), [], 'no slug from the name: nothing to try')
  const long = slugCandidates('x'.repeat(300), 123_456_789)
  t.ok(
    long.every((slug) => slug.length <= MAX_SLUG_LENGTH),
    'every candidate fits, suffix included',
  )
  t.equal(long.at(-1), `${'x'.repeat(MAX_SLUG_LENGTH - 10)}-123456789`)
})

t.test('every derived slug is a valid, canonical Slug (property)', async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'binary' }), fc.integer({ min: 1, max: 2 ** 31 }), (name, id) => {
        for (const slug of [slugFromName(name), ...slugCandidates(name, id)]) {
          const parsed = Slug.safeParse(slug)
          if (!parsed.success || parsed.data !== slug) return false
        }
        return true
      }),
    ),
  )
})
