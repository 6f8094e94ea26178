/**
 * The question generator: natural phrasings per service × location across the five kinds, plural and
 * provider services, clients without locations, no duplicates, the bounds, and determinism.
 */
import t from 'tap'
import { promptKey } from '../../domain/aeo/prompt.js'
import { generateQuestions, MAX_GENERATED, MAX_LOCATIONS, MAX_SERVICES, type GeneratorInput } from '../../domain/aeo/questions/generate.js'
import { article, pluralize, serviceTerm, singularize } from '../../domain/aeo/questions/phrasing.js'
import { DomainError } from '../../domain/shared/errors.js'

const austin = { name: 'Austin, TX', city: 'Austin' }
const roundRock = { name: 'Round Rock, TX', city: 'Round Rock' }
const plumbing: GeneratorInput = {
  clientName: 'Acme Plumbing',
  services: ['Emergency Plumber', 'Drain cleaning', 'Water Heater Repair'],
  locations: [austin, roundRock],
}

const prompts = (input: GeneratorInput) => generateQuestions(input).map((q) => q.prompt)

t.test('phrasings a buyer would ask, for provider and work services', async (t) => {
  const all = prompts(plumbing)
  for (const expected of [
    'best emergency plumber in Austin, TX',
    'who is a good emergency plumber near Round Rock?',
    'how much does an emergency plumber cost in Austin, TX?',
    'who is the best emergency plumber in Austin, TX?',
    'compare the top emergency plumbers in Austin, TX',
    'is Acme Plumbing a trustworthy emergency plumber in Austin, TX?',
    'best company for drain cleaning in Austin, TX',
    'how much does drain cleaning cost in Austin, TX?',
    'which company is best for drain cleaning in Austin, TX?',
    'compare the top companies for drain cleaning in Round Rock, TX',
    'is Acme Plumbing a trustworthy choice for drain cleaning in Austin, TX?',
    'who should I hire for water heater repair near Round Rock?',
  ]) {
    t.ok(all.includes(expected), expected)
  }
  t.equal(all.length, 3 * 2 * 6, 'six phrasings per service × location')
})

t.test('every kind, with service, location and a priority', async (t) => {
  const questions = generateQuestions(plumbing)
  t.strictSame([...new Set(questions.map((q) => q.kind))].sort(), ['best-of', 'comparison', 'cost', 'near-me', 'trust'])
  for (const q of questions) {
    t.ok(plumbing.services.includes(q.service), `service of "${q.prompt}" is the client's`)
    t.ok(['Austin, TX', 'Round Rock, TX'].includes(q.location), `location of "${q.prompt}"`)
    t.ok(q.prompt.includes(q.location.split(',')[0]!), `"${q.prompt}" names its location`)
    t.ok(Number.isInteger(q.priority) && q.priority >= 1 && q.priority <= 100, 'priority 1–100')
  }
  const priorities = questions.map((q) => q.priority)
  t.strictSame(
    priorities,
    [...priorities].sort((a, b) => b - a),
    'highest priority first',
  )
  t.equal(questions[0]!.prompt, 'best emergency plumber in Austin, TX', 'the first service in the first location leads')
})

t.test('plural services agree with their verb and never read "a implants"', async (t) => {
  const all = prompts({
    clientName: 'Bravo Dental',
    services: ['Implants', 'Water heaters', 'Dentists'],
    locations: [{ name: 'Miami, FL', city: 'Miami' }],
  })
  t.ok(all.includes('how much do implants cost in Miami, FL?'))
  t.ok(all.includes('how much do water heaters cost in Miami, FL?'))
  t.ok(all.includes('best dentist in Miami, FL'), 'a plural provider is asked in the singular')
  t.ok(all.includes('compare the top dentists in Miami, FL'))
  t.ok(all.includes('how much does a dentist cost in Miami, FL?'))
  for (const prompt of all) {
    t.notMatch(prompt, /\b(a|an) \w+s\b(?! (cost|in|near))/, `no article before a plural: ${prompt}`)
    t.notMatch(prompt, /does (implants|water heaters)/, `no "does" with a plural: ${prompt}`)
  }
})

t.test('a client without locations gets location-free questions', async (t) => {
  const questions = generateQuestions({ clientName: 'Acme', services: ['Drain cleaning', 'Plumber'], locations: [] })
  const all = questions.map((q) => q.prompt)
  t.ok(all.includes('best company for drain cleaning near me'))
  t.ok(all.includes('how much does drain cleaning cost?'))
  t.ok(all.includes('who should I hire for drain cleaning near me?'))
  t.ok(all.includes('is Acme a trustworthy plumber?'))
  t.ok(all.includes('who is the best plumber to hire?'))
  for (const q of questions) {
    t.equal(q.location, '')
    t.notMatch(q.prompt, / in \?| in$|near \?| {2}/, `no dangling preposition or double space: ${q.prompt}`)
  }
})

t.test('no duplicate prompts, even when services repeat in other words', async (t) => {
  const questions = generateQuestions({ clientName: 'Acme', services: ['Plumber', 'PLUMBER', 'plumbers'], locations: [austin] })
  const keys = questions.map((q) => promptKey(q.prompt))
  t.equal(new Set(keys).size, keys.length, 'every prompt key once')
  t.equal(questions.length, 6, 'the three spellings are one service')
})

t.test('deterministic: the same client gives the same set', async (t) => {
  t.strictSame(generateQuestions(plumbing), generateQuestions(plumbing))
})

t.test('bounded: at most MAX_GENERATED, from the first services and locations', async (t) => {
  const services = Array.from({ length: 200 }, (_, i) => `Service ${i + 1}`)
  const locations = Array.from({ length: 500 }, (_, i) => ({ name: `Town ${i + 1}`, city: `Town ${i + 1}` }))
  const questions = generateQuestions({ clientName: 'Big', services, locations })
  t.equal(questions.length, MAX_GENERATED)
  t.ok(
    questions.every((q) => services.slice(0, MAX_SERVICES).includes(q.service)),
    'only the first services',
  )
  t.ok(
    questions.every((q) => locations.slice(0, MAX_LOCATIONS).some((l) => l.name === q.location)),
    'only the first locations',
  )
  const pairs = new Set(questions.map((q) => `${q.service} / ${q.location}`))
  t.equal(pairs.size, MAX_GENERATED / 6, 'whole pairs: every kind of each pair kept')
  t.ok(pairs.has('Service 1 / Town 1') && pairs.has('Service 2 / Town 1') && pairs.has('Service 1 / Town 2'), 'the main pairs first')
  t.strictSame([...new Set(questions.map((q) => q.kind))].sort(), ['best-of', 'comparison', 'cost', 'near-me', 'trust'])
})

t.test('no services: a coded error', async (t) => {
  for (const services of [[], ['   ']]) {
    try {
      generateQuestions({ clientName: 'Acme', services, locations: [austin] })
      t.fail('expected aeo_no_services')
    } catch (error) {
      t.ok(error instanceof DomainError, 'a DomainError')
      t.equal((error as DomainError).code, 'aeo_no_services')
    }
  }
})

t.test('phrasing helpers', async (t) => {
  t.equal(article('emergency plumber'), 'an')
  t.equal(article('HVAC technician'), 'an')
  t.equal(article('CPA'), 'a')
  t.equal(article('uniform cleaner'), 'a')
  t.equal(article('hourly handyman'), 'an')
  t.equal(pluralize('company'), 'companies')
  t.equal(pluralize('attorney'), 'attorneys')
  t.equal(pluralize('coach'), 'coaches')
  t.equal(pluralize('handyman'), 'handymen')
  t.equal(singularize('companies'), 'company')
  t.equal(singularize('coaches'), 'coach')
  t.equal(singularize('glass'), 'glass')
  t.equal(singularize('analysis'), 'analysis')
  t.match(serviceTerm('Drain Cleaning'), { text: 'drain cleaning', provider: false, does: 'does' })
  t.match(serviceTerm('Implants'), { text: 'implants', provider: false, does: 'do' })
  t.match(serviceTerm('Emergency Plumbers'), { provider: true, one: 'emergency plumber', many: 'emergency plumbers' })
  t.match(serviceTerm('HVAC Technician'), { provider: true, one: 'HVAC technician', many: 'HVAC technicians' })
  t.match(serviceTerm('Water heater'), { provider: false }, 'a heater is a thing, not a provider')
})
