import t from 'tap'
import { client, type ClientCommand } from '../../domain/clients/client.js'
import { CLIENT_STATUSES } from '../../domain/clients/values.js'
import { fold } from '../../domain/shared/aggregate.js'
import { DomainError, NotFoundError } from '../../domain/shared/errors.js'
import {
  addClient,
  CLIENT,
  clientAdded,
  clientUpdated,
  everyCallerCommand,
  locationAdded,
  locationsRemoved,
  ORG,
  OTHER_ORG,
  serviceAdded,
  settingSet,
  statusChanged,
} from './client-fixtures.js'
import { attempt, spec } from './given-when-then.js'

const given = spec(client)

t.test('AddClient', async (t) => {
  t.test('a bare client is one ClientAdded', async (t) => {
    given().when(addClient()).then(t, [clientAdded()])
  })

  t.test('services, then locations, then settings, each in the order given', async (t) => {
    given()
      .when(
        addClient({
          services: [
            { service_id: 11, name: 'Plumbing', description: 'Pipes and fixtures' },
            { service_id: 12, name: 'Drain Cleaning', description: '' },
          ],
          locations: [
            { location_id: 21, name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' },
            { location_id: 22, name: 'Round Rock, TX, US', city: 'Round Rock', state: 'TX', country: 'US' },
          ],
          settings: { attention_flag: 'call the owner', cadence: 'weekly' },
        }),
      )
      .then(t, [
        clientAdded(),
        serviceAdded(11, 'Plumbing', 'Pipes and fixtures'),
        serviceAdded(12, 'Drain Cleaning'),
        locationAdded(21, 'Austin, TX', { city: 'Austin', state: 'TX' }),
        locationAdded(22, 'Round Rock, TX, US', { city: 'Round Rock', state: 'TX', country: 'US' }),
        settingSet('attention_flag', 'call the owner'),
        settingSet('cadence', 'weekly'),
      ])
  })

  t.test('services and locations are de-duplicated by case- and whitespace-insensitive name; the first wins', async (t) => {
    given()
      .when(
        addClient({
          services: [
            { service_id: 11, name: 'Drain Cleaning', description: 'first' },
            { service_id: 12, name: '  drain   CLEANING ', description: 'second' },
            { service_id: 13, name: 'Plumbing', description: '' },
            { service_id: 14, name: 'PLUMBING', description: '' },
            { service_id: 15, name: 'Drain\tcleaning', description: 'third' },
          ],
          locations: [
            { location_id: 21, name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' },
            { location_id: 22, name: ' austin,   tx ', city: 'austin', state: 'tx', country: '' },
            { location_id: 23, name: 'Dallas', city: 'Dallas', state: '', country: '' },
          ],
        }),
      )
      .then(t, [
        clientAdded(),
        serviceAdded(11, 'Drain Cleaning', 'first'),
        serviceAdded(13, 'Plumbing'),
        locationAdded(21, 'Austin, TX', { city: 'Austin', state: 'TX' }),
        locationAdded(23, 'Dallas', { city: 'Dallas' }),
      ])
  })

  t.test('names that differ by more than case and whitespace are distinct', async (t) => {
    given()
      .when(
        addClient({
          services: [
            { service_id: 11, name: 'Drain Cleaning', description: '' },
            { service_id: 12, name: 'DrainCleaning', description: '' },
            { service_id: 13, name: 'Drain-Cleaning', description: '' },
          ],
        }),
      )
      .then(t, [clientAdded(), serviceAdded(11, 'Drain Cleaning'), serviceAdded(12, 'DrainCleaning'), serviceAdded(13, 'Drain-Cleaning')])
  })

  t.test('every status can be the initial one', async (t) => {
    for (const status of CLIENT_STATUSES)
      given()
        .when(addClient({ status }))
        .then(t, [clientAdded({ status })])
  })

  t.test('on an existing stream: already_exists, whatever its state', async (t) => {
    given(clientAdded())
      .when(addClient())
      .thenThrows(t, 'already_exists', { detail: `client ${CLIENT}` })
    given(clientAdded({ status: 'deleted' }))
      .when(addClient())
      .thenThrows(t, 'already_exists')
    given(clientAdded({ org_id: OTHER_ORG }))
      .when(addClient())
      .thenThrows(t, 'already_exists')
  })

  t.test('the state folded from its events is the client as added', async (t) => {
    const events = client.decide(
      addClient({
        services: [{ service_id: 11, name: 'Plumbing', description: 'd' }],
        locations: [{ location_id: 21, name: 'Austin, TX', city: 'Austin', state: 'TX', country: 'US' }],
        settings: { cadence: 'weekly' },
      }),
      client.initialState(),
    )
    t.strictSame(fold(client, events), {
      exists: true,
      id: CLIENT,
      orgId: ORG,
      name: 'Acme Plumbing',
      websiteUrl: 'https://acme.example.com',
      slug: 'acme',
      status: 'active',
      services: [{ id: 11, name: 'Plumbing', description: 'd' }],
      locations: [{ id: 21, name: 'Austin, TX', city: 'Austin', state: 'TX', country: 'US' }],
      settings: { cadence: 'weekly' },
    })
  })
})

t.test('UpdateClient', async (t) => {
  const update = (fields: { name?: string; website_url?: string; slug?: string }, caller_org_id: number | null = ORG): ClientCommand => ({
    type: 'UpdateClient',
    client_id: CLIENT,
    caller_org_id,
    ...fields,
  })

  t.test('emits only the fields that changed', async (t) => {
    given(clientAdded())
      .when(update({ name: 'Acme Plumbing & Drains' }))
      .then(t, [clientUpdated({ name: 'Acme Plumbing & Drains' })])
    given(clientAdded())
      .when(update({ name: 'Acme Plumbing', website_url: 'https://acme.example.org', slug: 'acme' }))
      .then(t, [clientUpdated({ website_url: 'https://acme.example.org' })])
    given(clientAdded())
      .when(update({ name: 'New', website_url: 'https://new.example.com', slug: 'new' }))
      .then(t, [clientUpdated({ name: 'New', website_url: 'https://new.example.com', slug: 'new' })])
  })

  t.test('unchanged fields are absent, not undefined', async (t) => {
    const [event] = given(clientAdded())
      .when(update({ slug: 'acme-co' }))
      .then(t, [clientUpdated({ slug: 'acme-co' })])
    t.strictSame(Object.keys(event?.data ?? {}).sort(), ['client_id', 'slug'])
  })

  t.test('an empty slug clears it', async (t) => {
    given(clientAdded())
      .when(update({ slug: '' }))
      .then(t, [clientUpdated({ slug: '' })])
    const state = fold(client, [clientAdded(), clientUpdated({ slug: '' })])
    t.equal(state.slug, '')
  })

  t.test('nothing when nothing changes', async (t) => {
    given(clientAdded()).when(update({})).thenNothingHappens(t)
    given(clientAdded())
      .when(update({ name: 'Acme Plumbing', website_url: 'https://acme.example.com', slug: 'acme' }))
      .thenNothingHappens(t)
  })

  t.test('compares with the latest state, not the original', async (t) => {
    given(clientAdded(), clientUpdated({ name: 'Second' }))
      .when(update({ name: 'Second' }))
      .thenNothingHappens(t)
    given(clientAdded(), clientUpdated({ name: 'Second' }))
      .when(update({ name: 'Acme Plumbing' }))
      .then(t, [clientUpdated({ name: 'Acme Plumbing' })])
  })

  t.test('a deleted client refuses it', async (t) => {
    given(clientAdded(), statusChanged('active', 'deleted'))
      .when(update({ name: 'X' }))
      .thenThrows(t, 'client_deleted', { message: 'The client is deleted', detail: `client ${CLIENT}` })
    // Even a no-op update is refused: the client is not writable at all.
    given(clientAdded({ status: 'deleted' }))
      .when(update({}))
      .thenThrows(t, 'client_deleted')
  })
})

t.test('SetClientStatus', async (t) => {
  const setStatus = (status: (typeof CLIENT_STATUSES)[number], caller_org_id: number | null = ORG): ClientCommand => ({
    type: 'SetClientStatus',
    client_id: CLIENT,
    caller_org_id,
    status,
  })

  t.test('every transition between different statuses is one ClientStatusChanged with from and to', async (t) => {
    for (const from of CLIENT_STATUSES) {
      for (const to of CLIENT_STATUSES) {
        if (from === to) continue
        given(clientAdded({ status: from }))
          .when(setStatus(to))
          .then(t, [statusChanged(from, to)])
      }
    }
  })

  t.test('the same status again is no event', async (t) => {
    for (const status of CLIENT_STATUSES) given(clientAdded({ status })).when(setStatus(status)).thenNothingHappens(t)
  })

  t.test('from is the current status after earlier changes', async (t) => {
    given(clientAdded(), statusChanged('active', 'paused'), statusChanged('paused', 'staging'))
      .when(setStatus('active'))
      .then(t, [statusChanged('staging', 'active')])
  })

  t.test('a deleted client can be restored, and is writable again', async (t) => {
    const history = [clientAdded(), statusChanged('active', 'deleted')]
    given(...history)
      .when(setStatus('active'))
      .then(t, [statusChanged('deleted', 'active')])
    given(...history, statusChanged('deleted', 'active'))
      .when({ type: 'UpdateClient', client_id: CLIENT, caller_org_id: ORG, name: 'Back' })
      .then(t, [clientUpdated({ name: 'Back' })])
  })
})

t.test('AddService (get-or-create by name)', async (t) => {
  const addService = (service_id: number, name: string, description = ''): ClientCommand => ({
    type: 'AddService',
    client_id: CLIENT,
    caller_org_id: ORG,
    service_id,
    name,
    description,
  })

  t.test('a new name adds the service', async (t) => {
    given(clientAdded(), serviceAdded(11, 'Plumbing'))
      .when(addService(12, 'Water Heaters', 'tank and tankless'))
      .then(t, [serviceAdded(12, 'Water Heaters', 'tank and tankless')])
  })

  t.test('an existing name, in any case or spacing, adds nothing', async (t) => {
    for (const name of ['Drain Cleaning', 'drain cleaning', '  DRAIN   cleaning ', 'Drain\nCleaning']) {
      given(clientAdded(), serviceAdded(11, 'Drain Cleaning'))
        .when(addService(12, name, 'other'))
        .thenNothingHappens(t)
    }
  })

  t.test('a deleted client refuses it', async (t) => {
    given(clientAdded({ status: 'deleted' }))
      .when(addService(12, 'New'))
      .thenThrows(t, 'client_deleted')
  })
})

t.test('AddLocation (get-or-create by name)', async (t) => {
  const addLocation = (
    location_id: number,
    name: string,
    parts: { city?: string; state?: string; country?: string } = {},
  ): ClientCommand => ({
    type: 'AddLocation',
    client_id: CLIENT,
    caller_org_id: ORG,
    location_id,
    name,
    city: parts.city ?? '',
    state: parts.state ?? '',
    country: parts.country ?? '',
  })

  t.test('a new name adds the location with its parts', async (t) => {
    given(clientAdded())
      .when(addLocation(21, 'Austin, TX, US', { city: 'Austin', state: 'TX', country: 'US' }))
      .then(t, [locationAdded(21, 'Austin, TX, US', { city: 'Austin', state: 'TX', country: 'US' })])
  })

  t.test('an existing name, in any case or spacing, adds nothing', async (t) => {
    for (const name of ['Austin, TX', 'AUSTIN, tx', ' austin,  TX ']) {
      given(clientAdded(), locationAdded(21, 'Austin, TX')).when(addLocation(22, name)).thenNothingHappens(t)
    }
  })

  t.test('a removed location is not "existing": the same name is added again with the new id', async (t) => {
    given(clientAdded(), locationAdded(21, 'Austin, TX'), locationsRemoved([21]))
      .when(addLocation(22, 'Austin, TX'))
      .then(t, [locationAdded(22, 'Austin, TX')])
  })

  t.test('a deleted client refuses it', async (t) => {
    given(clientAdded({ status: 'deleted' }))
      .when(addLocation(22, 'Waco'))
      .thenThrows(t, 'client_deleted')
  })
})

t.test('RemoveLocations', async (t) => {
  const removeLocations: ClientCommand = { type: 'RemoveLocations', client_id: CLIENT, caller_org_id: ORG }

  t.test('removes every current location, in order', async (t) => {
    given(clientAdded(), locationAdded(21, 'Austin'), locationAdded(22, 'Dallas'), locationAdded(23, 'Waco'))
      .when(removeLocations)
      .then(t, [locationsRemoved([21, 22, 23])])
  })

  t.test('only the current ones: earlier removed ids are not listed again', async (t) => {
    given(clientAdded(), locationAdded(21, 'Austin'), locationsRemoved([21]), locationAdded(22, 'Dallas'))
      .when(removeLocations)
      .then(t, [locationsRemoved([22])])
  })

  t.test('nothing when there are no locations', async (t) => {
    given(clientAdded()).when(removeLocations).thenNothingHappens(t)
    given(clientAdded(), locationAdded(21, 'Austin'), locationsRemoved([21]))
      .when(removeLocations)
      .thenNothingHappens(t)
  })

  t.test('the state afterwards has no locations and keeps services and settings', async (t) => {
    const state = fold(client, [
      clientAdded(),
      serviceAdded(11, 'Plumbing'),
      settingSet('k', 'v'),
      locationAdded(21, 'Austin'),
      locationsRemoved([21]),
    ])
    t.strictSame(state.locations, [])
    t.strictSame(state.services, [{ id: 11, name: 'Plumbing', description: '' }])
    t.strictSame(state.settings, { k: 'v' })
  })

  t.test('a deleted client refuses it', async (t) => {
    given(clientAdded({ status: 'deleted' }), locationAdded(21, 'Austin'))
      .when(removeLocations)
      .thenThrows(t, 'client_deleted')
  })
})

t.test('SetClientSetting', async (t) => {
  const setSetting = (key: string, value: string): ClientCommand => ({
    type: 'SetClientSetting',
    client_id: CLIENT,
    caller_org_id: ORG,
    key,
    value,
  })

  t.test('a new key or a new value is one ClientSettingSet', async (t) => {
    given(clientAdded())
      .when(setSetting('attention_flag', 'call back'))
      .then(t, [settingSet('attention_flag', 'call back')])
    given(clientAdded(), settingSet('attention_flag', 'call back'))
      .when(setSetting('attention_flag', 'done'))
      .then(t, [settingSet('attention_flag', 'done')])
  })

  t.test('an empty value is a value: setting it on a missing key is an event', async (t) => {
    given(clientAdded())
      .when(setSetting('attention_flag', ''))
      .then(t, [settingSet('attention_flag', '')])
  })

  t.test('the same value again is no event', async (t) => {
    given(clientAdded(), settingSet('attention_flag', 'call back')).when(setSetting('attention_flag', 'call back')).thenNothingHappens(t)
    given(clientAdded(), settingSet('attention_flag', '')).when(setSetting('attention_flag', '')).thenNothingHappens(t)
  })

  t.test('keys named like Object.prototype members are ordinary keys', async (t) => {
    given(clientAdded())
      .when(setSetting('toString', 'x'))
      .then(t, [settingSet('toString', 'x')])
    given(clientAdded())
      .when(setSetting('constructor', 'x'))
      .then(t, [settingSet('constructor', 'x')])
    given(clientAdded())
      .when(setSetting('__proto__', 'x'))
      .then(t, [settingSet('__proto__', 'x')])
    given(clientAdded(), settingSet('__proto__', 'x')).when(setSetting('__proto__', 'x')).thenNothingHappens(t)
    const state = fold(client, [clientAdded(), settingSet('__proto__', 'x')])
    t.equal(Object.getPrototypeOf(state.settings), Object.prototype, 'the settings object keeps its prototype')
    t.strictSame(Object.keys(state.settings), ['__proto__'])
  })

  t.test('a deleted client refuses it', async (t) => {
    given(clientAdded({ status: 'deleted' }))
      .when(setSetting('k', 'v'))
      .thenThrows(t, 'client_deleted')
  })
})

t.test("visibility: another organization's client answers exactly like a missing one", async (t) => {
  const expected = new NotFoundError('client', CLIENT)

  for (const command of everyCallerCommand(ORG)) {
    t.test(command.type, async (t) => {
      const missing = given().when(command).thenThrows(t, 'not_found', { message: expected.message, detail: expected.detail })
      const foreign = given(clientAdded({ org_id: OTHER_ORG }), locationAdded(21, 'Austin'))
        .when(command)
        .thenThrows(t, 'not_found', { message: expected.message, detail: expected.detail })
      // A foreign deleted client must not reveal that it is deleted (client_deleted would leak existence).
      const foreignDeleted = given(clientAdded({ org_id: OTHER_ORG, status: 'deleted' }))
        .when(command)
        .thenThrows(t, 'not_found', { message: expected.message, detail: expected.detail })
      t.ok(missing instanceof NotFoundError && foreign instanceof NotFoundError && foreignDeleted instanceof NotFoundError)
      t.strictSame(shape(foreign), shape(missing), 'foreign and missing errors are indistinguishable')
      t.strictSame(shape(foreignDeleted), shape(missing), 'foreign deleted and missing errors are indistinguishable')
    })
  }

  t.test('the org caller may act on its own client', async (t) => {
    for (const command of everyCallerCommand(ORG)) {
      const outcome = attempt(() => client.decide(command, fold(client, [clientAdded(), locationAdded(21, 'Austin')])))
      t.ok('events' in outcome && outcome.events.length > 0, `${command.type} by the owner produces events`)
    }
  })
})

t.test("the platform caller (caller_org_id null) may act on any organization's client", async (t) => {
  const history = [clientAdded({ org_id: OTHER_ORG }), locationAdded(21, 'Austin')]
  given(...history)
    .when({ type: 'UpdateClient', client_id: CLIENT, caller_org_id: null, name: 'Renamed' })
    .then(t, [clientUpdated({ name: 'Renamed' })])
  given(...history)
    .when({ type: 'SetClientStatus', client_id: CLIENT, caller_org_id: null, status: 'paused' })
    .then(t, [statusChanged('active', 'paused')])
  given(...history)
    .when({ type: 'AddService', client_id: CLIENT, caller_org_id: null, service_id: 500, name: 'Roofing', description: '' })
    .then(t, [serviceAdded(500, 'Roofing')])
  given(...history)
    .when({
      type: 'AddLocation',
      client_id: CLIENT,
      caller_org_id: null,
      location_id: 600,
      name: 'Waco',
      city: 'Waco',
      state: '',
      country: '',
    })
    .then(t, [locationAdded(600, 'Waco', { city: 'Waco' })])
  given(...history)
    .when({ type: 'RemoveLocations', client_id: CLIENT, caller_org_id: null })
    .then(t, [locationsRemoved([21])])
  given(...history)
    .when({ type: 'SetClientSetting', client_id: CLIENT, caller_org_id: null, key: 'k', value: 'v' })
    .then(t, [settingSet('k', 'v')])

  t.test('but a missing client is still not_found for the platform', async (t) => {
    for (const command of everyCallerCommand(null))
      given()
        .when(command)
        .thenThrows(t, 'not_found', { detail: `client ${CLIENT} not found` })
  })

  t.test('and a deleted client still refuses writes other than a status change', async (t) => {
    for (const command of everyCallerCommand(null)) {
      const when = given(clientAdded({ org_id: OTHER_ORG, status: 'deleted' }), locationAdded(21, 'Austin')).when(command)
      if (command.type === 'SetClientStatus') when.then(t, [statusChanged('deleted', 'paused')])
      else when.thenThrows(t, 'client_deleted')
    }
  })
})

t.test('a deleted client refuses every write except SetClientStatus (restore)', async (t) => {
  for (const command of everyCallerCommand(ORG)) {
    const when = given(clientAdded({ status: 'deleted' }), locationAdded(21, 'Austin')).when(command)
    if (command.type === 'SetClientStatus') when.then(t, [statusChanged('deleted', 'paused')])
    else {
      const error = when.thenThrows(t, 'client_deleted', { message: 'The client is deleted', detail: `client ${CLIENT}` })
      t.ok(error instanceof DomainError && !(error instanceof NotFoundError), `${command.type}: a plain DomainError`)
    }
  }
})

t.test('decide is pure: the given state is not mutated', async (t) => {
  const state = fold(client, [clientAdded(), serviceAdded(11, 'Plumbing'), locationAdded(21, 'Austin'), settingSet('k', 'v')])
  const snapshot = structuredClone(state)
  for (const command of everyCallerCommand(ORG)) {
    const events = client.decide(command, state)
    for (const event of events) client.evolve(state, event)
  }
  t.strictSame(state, snapshot)
})

function shape(error: DomainError | undefined) {
  return error && { name: error.name, code: error.code, message: error.message, detail: error.detail }
}
