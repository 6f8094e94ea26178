import fc from 'fast-check'
import t from 'tap'
import {
  CLIENT_STATUSES,
  ClientStatus,
  locationDisplayName,
  nameKey,
  parseLocationName,
  SettingKey,
  SettingValue,
  Slug,
  WebsiteUrl,
} from '../../domain/clients/values.js'
import { DomainError, NotFoundError } from '../../domain/shared/errors.js'
import { assertNever, Id, Month, Name } from '../../domain/shared/values.js'

/** Parses with a zod schema: the parsed value, or undefined when refused. */
function parsed<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  const result = schema.safeParse(value)
  return result.success ? result.data : undefined
}

t.test('Slug', async (t) => {
  t.test('lower-case letters, digits and single hyphens; empty means no slug', async (t) => {
    for (const slug of ['', 'acme', 'acme-co', 'acme-plumbing-2', '24-7', 'a', 'a'.repeat(100)])
      t.equal(parsed(Slug, slug), slug, JSON.stringify(slug))
  })

  t.test('surrounding whitespace is trimmed', async (t) => {
    t.equal(parsed(Slug, '  acme-co '), 'acme-co')
    t.equal(parsed(Slug, '   '), '')
  })

  t.test('anything else is refused', async (t) => {
    for (const slug of ['Acme', 'acme--co', '-acme', 'acme-', 'acme_co', 'acme co', 'acme/co', 'café', 'a'.repeat(101), 7, null]) {
      t.equal(parsed(Slug, slug), undefined, JSON.stringify(slug))
    }
  })
})

t.test('WebsiteUrl', async (t) => {
  t.test('absolute http(s) URLs with a dotted host are accepted', async (t) => {
    for (const url of [
      'https://example.com',
      'http://example.com',
      'https://www.example.co.uk/services?x=1#top',
      'https://example.com:8443/a',
      'http://192.168.1.10',
    ]) {
      t.equal(parsed(WebsiteUrl, url), url, url)
    }
  })

  t.test('surrounding whitespace is trimmed', async (t) => {
    t.equal(parsed(WebsiteUrl, '  https://example.com '), 'https://example.com')
  })

  t.test('other schemes, non-URLs and hosts without a dot are refused', async (t) => {
    for (const url of [
      'ftp://example.com',
      'not a url',
      'http://localhost',
      'http://localhost:3000/',
      'https://intranet',
      'example.com',
      '//example.com',
      '',
      'javascript:alert(1)',
      'mailto:owner@example.com',
      'file:///etc/passwd',
      `https://example.com/${'a'.repeat(2000)}`,
    ]) {
      t.equal(parsed(WebsiteUrl, url), undefined, url.slice(0, 60))
    }
  })

  t.test('the refusal says what is expected', async (t) => {
    const result = WebsiteUrl.safeParse('ftp://example.com')
    t.notOk(result.success)
    if (!result.success) t.equal(result.error.issues[0]?.message, 'expected an absolute http(s) URL such as https://example.com')
  })

  t.test('the bare origin is normalized without a trailing slash, as its doc comment promises', async (t) => {
    t.equal(parsed(WebsiteUrl, 'https://example.com/'), 'https://example.com')
  })
})

t.test('nameKey', async (t) => {
  t.test('case- and whitespace-insensitive', async (t) => {
    const keys = [
      'Drain Cleaning',
      'drain cleaning',
      'DRAIN CLEANING',
      '  Drain   Cleaning  ',
      'Drain\tCleaning',
      'Drain\n Cleaning',
      'Drain\u00a0Cleaning',
    ].map(nameKey)
    t.strictSame(new Set(keys), new Set(['drain cleaning']))
  })

  t.test('but not punctuation- or spacing-blind', async (t) => {
    t.not(nameKey('Drain Cleaning'), nameKey('DrainCleaning'))
    t.not(nameKey('Drain Cleaning'), nameKey('Drain-Cleaning'))
    t.not(nameKey('Austin, TX'), nameKey('Austin TX'))
  })

  t.test('idempotent, and insensitive to padding, for any text', async (t) => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom(' ', '  ', '\t', '\n '), (name, pad) => {
        const key = nameKey(name)
        return nameKey(key) === key && nameKey(pad + name + pad) === key
      }),
    )
    t.pass('holds')
  })
})

t.test('parseLocationName', async (t) => {
  t.test('"City, ST" and "City, ST, Country" split into parts; the name is kept whole', async (t) => {
    t.strictSame(parseLocationName('Austin, TX'), { name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' })
    t.strictSame(parseLocationName('Round Rock, TX, US'), { name: 'Round Rock, TX, US', city: 'Round Rock', state: 'TX', country: 'US' })
  })

  t.test('a name without commas is a city', async (t) => {
    t.strictSame(parseLocationName('Dallas'), { name: 'Dallas', city: 'Dallas', state: '', country: '' })
  })

  t.test('whitespace around the name and the parts is trimmed', async (t) => {
    t.strictSame(parseLocationName('  Austin ,  TX  '), { name: 'Austin ,  TX', city: 'Austin', state: 'TX', country: '' })
  })

  t.test('empty parts stay empty', async (t) => {
    t.strictSame(parseLocationName(', TX'), { name: ', TX', city: '', state: 'TX', country: '' })
    t.strictSame(parseLocationName(''), { name: '', city: '', state: '', country: '' })
  })
})

t.test('locationDisplayName', async (t) => {
  t.test('the given name wins, trimmed', async (t) => {
    t.equal(locationDisplayName({ name: ' Greater Austin ', city: 'Austin', state: 'TX' }), 'Greater Austin')
  })

  t.test('otherwise "City, ST, Country" from the non-empty parts', async (t) => {
    t.equal(locationDisplayName({ city: 'Austin', state: 'TX' }), 'Austin, TX')
    t.equal(locationDisplayName({ city: 'Austin', state: 'TX', country: 'US' }), 'Austin, TX, US')
    t.equal(locationDisplayName({ name: '   ', city: 'Austin', state: '', country: 'US' }), 'Austin, US')
    t.equal(locationDisplayName({ name: undefined, state: 'TX' }), 'TX')
  })

  t.test('nothing given is the empty name (the edge refuses it)', async (t) => {
    t.equal(locationDisplayName({}), '')
    t.equal(locationDisplayName({ name: ' ', city: ' ', state: '', country: '\t' }), '')
  })

  t.test('round trip: the display name of parsed parts is the name', async (t) => {
    for (const name of ['Austin, TX', 'Round Rock, TX, US', 'Dallas']) {
      const { name: _name, ...parts } = parseLocationName(name)
      t.equal(locationDisplayName(parts), name)
    }
  })

  t.test('parts are trimmed like the name is', async (t) => {
    t.equal(locationDisplayName({ city: ' Austin ', state: 'TX ' }), 'Austin, TX')
  })
})

t.test('settings', async (t) => {
  t.test('keys are identifiers: letters, digits, _ . -', async (t) => {
    for (const key of ['attention_flag', 'report.day', 'a-b', 'X9']) t.equal(parsed(SettingKey, key), key)
    t.equal(parsed(SettingKey, ' cadence '), 'cadence')
    for (const key of ['', '  ', 'two words', 'clé', 'a/b', 'k'.repeat(101)])
      t.equal(parsed(SettingKey, key), undefined, JSON.stringify(key))
  })

  t.test('values are free text up to 10,000 characters, empty included', async (t) => {
    for (const value of ['', ' padded ', 'line\nbreak', 'v'.repeat(10_000)]) t.equal(parsed(SettingValue, value), value)
    t.equal(parsed(SettingValue, 'v'.repeat(10_001)), undefined)
  })
})

t.test('ClientStatus', async (t) => {
  t.strictSame([...CLIENT_STATUSES], ['active', 'paused', 'deleted', 'staging'])
  for (const status of CLIENT_STATUSES) t.equal(parsed(ClientStatus, status), status)
  for (const status of ['Active', 'archived', '']) t.equal(parsed(ClientStatus, status), undefined)
})

t.test('shared values', async (t) => {
  t.test('Id: positive safe integers', async (t) => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER]) t.equal(parsed(Id, id), id)
    for (const id of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '1', NaN]) t.equal(parsed(Id, id), undefined, String(id))
  })

  t.test('Month: YYYY-MM', async (t) => {
    for (const month of ['2024-01', '2024-12', '1999-09']) t.equal(parsed(Month, month), month)
    for (const month of ['2024-00', '2024-13', '2024-1', '24-01', '2024/01', '2024-01-01', ''])
      t.equal(parsed(Month, month), undefined, month)
  })

  t.test('Name: trimmed, non-empty, at most 200 characters', async (t) => {
    t.equal(parsed(Name, '  Acme  '), 'Acme')
    t.equal(parsed(Name, 'n'.repeat(200)), 'n'.repeat(200))
    for (const name of ['', '   ', '\t\n', 'n'.repeat(201)]) t.equal(parsed(Name, name), undefined, JSON.stringify(name.slice(0, 10)))
  })

  t.test('assertNever throws for the case that slipped through', async (t) => {
    t.throws(() => assertNever('surprise' as never), { message: 'Unhandled case: "surprise"' })
  })
})

t.test('errors', async (t) => {
  t.test('a DomainError carries a code, a message and an optional detail', async (t) => {
    const error = new DomainError('client_deleted', 'The client is deleted', 'client 3')
    t.ok(error instanceof Error)
    t.strictSame(
      { name: error.name, code: error.code, message: error.message, detail: error.detail },
      {
        name: 'DomainError',
        code: 'client_deleted',
        message: 'The client is deleted',
        detail: 'client 3',
      },
    )
    t.equal(new DomainError('x', 'y').detail, undefined)
  })

  t.test('NotFoundError is a not_found DomainError naming the entity and id', async (t) => {
    const error = new NotFoundError('client', 34)
    t.ok(error instanceof DomainError)
    t.strictSame(
      { name: error.name, code: error.code, message: error.message, detail: error.detail },
      {
        name: 'NotFoundError',
        code: 'not_found',
        message: 'Not found',
        detail: 'client 34 not found',
      },
    )
  })
})
