/**
 * Properties of the client aggregate over random command sequences: AddClient first, then any mix of the
 * other commands from the owner, another organization or the platform. Ids come from counters, as they come
 * from PostgreSQL sequences in the service (allocated whether or not the command uses them).
 *
 * For every step: the outcome matches the rules (not_found for a foreign caller, client_deleted for a write
 * on a deleted client, already_exists for a second AddClient), every event is valid and canonical for its
 * schema, and the state keeps its invariants. At the end, folding all produced events from the initial
 * state gives the state evolved step by step.
 */
import fc from 'fast-check'
import t from 'tap'
import { isDeepStrictEqual } from 'node:util'
import { client, findLocation, findService, type ClientCommand, type ClientState } from '../../domain/clients/client.js'
import type { ClientEvent } from '../../domain/clients/events.js'
import { CLIENT_STATUSES, nameKey, parseLocationName, type ClientStatus } from '../../domain/clients/values.js'
import { fold } from '../../domain/shared/aggregate.js'
import { CLIENT, ORG, OTHER_ORG } from './client-fixtures.js'
import { attempt, schemaProblem } from './given-when-then.js'

type CallerKind = 'owner' | 'other' | 'platform'
const callerOrgId = (kind: CallerKind): number | null => (kind === 'owner' ? ORG : kind === 'other' ? OTHER_ORG : null)

/** What a step asks for, before ids are allocated. */
type Intent =
  | { kind: 'AddClientAgain' }
  | { kind: 'UpdateClient'; caller: CallerKind; name?: string; website_url?: string; slug?: string }
  | { kind: 'SetClientStatus'; caller: CallerKind; status: ClientStatus }
  | { kind: 'AddService'; caller: CallerKind; name: string; description: string }
  | { kind: 'AddLocation'; caller: CallerKind; name: string }
  | { kind: 'RemoveLocations'; caller: CallerKind }
  | { kind: 'SetClientSetting'; caller: CallerKind; key: string; value: string }

// Names as the edge hands them over (trimmed, non-empty), with variants in case and inner whitespace so
// that get-or-create and de-duplication are exercised often.
const vary = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.constantFrom('same', 'upper', 'lower', 'spaced', 'tabbed'))
    .map(([name, how]) =>
      how === 'upper'
        ? name.toUpperCase()
        : how === 'lower'
          ? name.toLowerCase()
          : how === 'spaced'
            ? name.replace(/ /g, '   ')
            : how === 'tabbed'
              ? name.replace(/ /g, ' \t')
              : name,
    )
const freeName = fc
  .string({ minLength: 1, maxLength: 40, unit: 'grapheme' })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && s.length <= 200)
const serviceName = fc.oneof(
  { weight: 4, arbitrary: vary(fc.constantFrom('Plumbing', 'Drain Cleaning', 'Water Heater Repair', 'HVAC')) },
  { weight: 1, arbitrary: freeName },
)
const locationName = fc.oneof(
  { weight: 4, arbitrary: vary(fc.constantFrom('Austin, TX', 'Round Rock, TX, US', 'Dallas', 'San Marcos, TX')) },
  { weight: 1, arbitrary: freeName },
)
const description = fc.string({ maxLength: 60 })
const websiteUrl = fc.constantFrom('https://acme.example.com', 'https://acme.example.com/plumbing', 'http://www.acme-plumbing.co.uk')
const slug = fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}$/))
const clientName = fc.oneof(fc.constantFrom('Acme Plumbing', 'Acme Plumbing & Drains'), freeName)
const settingKey = fc.constantFrom('attention_flag', 'cadence', 'report.day', 'toString', '__proto__')
const settingValue = fc.oneof(fc.constantFrom('', 'call back', 'weekly'), fc.string({ maxLength: 30 }))
const status = fc.constantFrom(...CLIENT_STATUSES)
const caller = fc.constantFrom<CallerKind>('owner', 'owner', 'owner', 'other', 'platform')

const intent: fc.Arbitrary<Intent> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'AddClientAgain' as const }) },
  {
    weight: 3,
    arbitrary: fc
      .record({ caller, name: clientName, website_url: websiteUrl, slug }, { requiredKeys: ['caller'] })
      .map((r) => ({ kind: 'UpdateClient' as const, ...r })),
  },
  { weight: 3, arbitrary: fc.record({ caller, status }).map((r) => ({ kind: 'SetClientStatus' as const, ...r })) },
  { weight: 4, arbitrary: fc.record({ caller, name: serviceName, description }).map((r) => ({ kind: 'AddService' as const, ...r })) },
  { weight: 4, arbitrary: fc.record({ caller, name: locationName }).map((r) => ({ kind: 'AddLocation' as const, ...r })) },
  { weight: 2, arbitrary: fc.record({ caller }).map((r) => ({ kind: 'RemoveLocations' as const, ...r })) },
  {
    weight: 3,
    arbitrary: fc.record({ caller, key: settingKey, value: settingValue }).map((r) => ({ kind: 'SetClientSetting' as const, ...r })),
  },
)

const initial = fc.record({
  name: clientName,
  website_url: websiteUrl,
  slug,
  status,
  services: fc.array(fc.record({ name: serviceName, description }), { maxLength: 6 }),
  locations: fc.array(locationName, { maxLength: 6 }),
  settings: fc.array(fc.tuple(settingKey, settingValue), { maxLength: 4 }),
})

type Init = typeof initial extends fc.Arbitrary<infer T> ? T : never

/** Hands out ids like the service's sequences: strictly increasing, never reused. */
function sequences() {
  let service = 100
  let location = 1000
  return { service: () => ++service, location: () => ++location }
}

function addClientCommand(init: Init, ids: ReturnType<typeof sequences>): ClientCommand {
  return {
    type: 'AddClient',
    client_id: CLIENT,
    org_id: ORG,
    name: init.name,
    website_url: init.website_url,
    slug: init.slug,
    status: init.status,
    services: init.services.map((s) => ({ service_id: ids.service(), ...s })),
    locations: init.locations.map((name) => ({ location_id: ids.location(), ...parseLocationName(name) })),
    settings: Object.fromEntries(init.settings),
  }
}

function toCommand(intent: Intent, init: Init, ids: ReturnType<typeof sequences>): ClientCommand {
  if (intent.kind === 'AddClientAgain') return addClientCommand(init, ids)
  const base = { client_id: CLIENT, caller_org_id: callerOrgId(intent.caller) }
  switch (intent.kind) {
    case 'UpdateClient': {
      const command: ClientCommand = { type: 'UpdateClient', ...base }
      if (intent.name !== undefined) command.name = intent.name
      if (intent.website_url !== undefined) command.website_url = intent.website_url
      if (intent.slug !== undefined) command.slug = intent.slug
      return command
    }
    case 'SetClientStatus':
      return { type: 'SetClientStatus', ...base, status: intent.status }
    case 'AddService':
      return { type: 'AddService', ...base, service_id: ids.service(), name: intent.name, description: intent.description }
    case 'AddLocation':
      return { type: 'AddLocation', ...base, location_id: ids.location(), ...parseLocationName(intent.name) }
    case 'RemoveLocations':
      return { type: 'RemoveLocations', ...base }
    case 'SetClientSetting':
      return { type: 'SetClientSetting', ...base, key: intent.key, value: intent.value }
  }
}

/** The error the rules call for, or null when the command must succeed. */
function expectedError(state: ClientState, command: ClientCommand): string | null {
  if (command.type === 'AddClient') return state.exists ? 'already_exists' : null
  if (!state.exists || (command.caller_org_id !== null && command.caller_org_id !== state.orgId)) return 'not_found'
  if (state.status === 'deleted' && command.type !== 'SetClientStatus') return 'client_deleted'
  return null
}

/** Whether a successful command must be a no-op in this state. */
function expectNoOp(state: ClientState, command: ClientCommand): boolean | undefined {
  switch (command.type) {
    case 'SetClientStatus':
      return command.status === state.status
    case 'AddService':
      return findService(state, command.name) !== undefined
    case 'AddLocation':
      return findLocation(state, command.name) !== undefined
    case 'RemoveLocations':
      return state.locations.length === 0
    case 'SetClientSetting':
      return Object.hasOwn(state.settings, command.key) && state.settings[command.key] === command.value
    case 'UpdateClient':
      return (
        (command.name === undefined || command.name === state.name) &&
        (command.website_url === undefined || command.website_url === state.websiteUrl) &&
        (command.slug === undefined || command.slug === state.slug)
      )
    case 'AddClient':
      return false
  }
}

function duplicates(keys: readonly string[]): string[] {
  return keys.filter((key, i) => keys.indexOf(key) !== i)
}

function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message())
}

function run(init: Init, intents: readonly Intent[]) {
  const ids = sequences()
  const commands = [addClientCommand(init, ids), ...intents.map((i) => toCommand(i, init, ids))]
  let state = client.initialState()
  const produced: ClientEvent[] = []
  const removed = new Set<number>()

  for (const command of commands) {
    const before = state
    const outcome = attempt(() => client.decide(command, before))
    const wanted = expectedError(before, command)
    if ('error' in outcome) {
      check(outcome.error.code === wanted, () => `${command.type} threw ${outcome.error.code}, expected ${wanted ?? 'events'}`)
      continue
    }
    check(wanted === null, () => `${command.type} produced ${JSON.stringify(outcome.events)}, expected ${wanted}`)
    const noOp = expectNoOp(before, command)
    check(noOp === (outcome.events.length === 0), () => `${command.type} produced ${outcome.events.length} events, no-op expected: ${noOp}`)

    for (const event of outcome.events) {
      // (a) every event is valid, and canonical, for its schema.
      const problem = schemaProblem(event)
      check(problem === null, () => problem!)
      check(event.data.client_id === CLIENT, () => `${event.type} is for client ${event.data.client_id}`)
      if (event.type === 'ClientStatusChanged') {
        check(event.data.from === state.status && event.data.from !== event.data.to, () => `bad transition ${JSON.stringify(event.data)}`)
      }
      if (event.type === 'ClientLocationsRemoved') {
        check(
          isDeepStrictEqual(
            event.data.location_ids,
            state.locations.map((l) => l.id),
          ),
          () => `removed ${event.data.location_ids} but the current locations are ${state.locations.map((l) => l.id)}`,
        )
        for (const id of event.data.location_ids) removed.add(id)
      }
      state = client.evolve(state, event)
      produced.push(event)
    }

    // (c) invariants of the state.
    const serviceKeys = state.services.map((s) => nameKey(s.name))
    const locationKeys = state.locations.map((l) => nameKey(l.name))
    check(duplicates(serviceKeys).length === 0, () => `services with the same name: ${duplicates(serviceKeys)}`)
    check(duplicates(locationKeys).length === 0, () => `locations with the same name: ${duplicates(locationKeys)}`)
    check(duplicates(state.services.map((s) => String(s.id))).length === 0, () => 'two services with one id')
    check(duplicates(state.locations.map((l) => String(l.id))).length === 0, () => 'two locations with one id')
    const resurrected = state.locations.filter((l) => removed.has(l.id))
    check(resurrected.length === 0, () => `removed locations are back: ${resurrected.map((l) => l.id)}`)
    check(state.services.length >= before.services.length, () => 'a service disappeared')
    check(state.exists && state.id === CLIENT && state.orgId === ORG, () => 'the client changed identity')
  }

  // (b) rebuild equals incremental.
  const rebuilt = fold(client, produced)
  check(isDeepStrictEqual(rebuilt, state), () => `fold gave ${JSON.stringify(rebuilt)}, incremental gave ${JSON.stringify(state)}`)
  return { produced, state }
}

const RUNS = 400

t.test("random command sequences keep the client aggregate's rules, schemas and invariants", async (t) => {
  let events = 0
  const seen = new Set<string>()
  fc.assert(
    fc.property(initial, fc.array(intent, { maxLength: 40 }), (init, intents) => {
      const { produced } = run(init, intents)
      events += produced.length
      for (const event of produced) seen.add(event.type)
    }),
    { numRuns: RUNS },
  )
  t.pass(`${RUNS} sequences, ${events} events checked`)
  // The generators must actually reach every event type, or the property proves less than it claims.
  t.strictSame([...seen].sort(), [
    'ClientAdded',
    'ClientLocationAdded',
    'ClientLocationsRemoved',
    'ClientServiceAdded',
    'ClientSettingSet',
    'ClientStatusChanged',
    'ClientUpdated',
  ])
})

t.test('the schema check the property relies on rejects invalid and non-canonical events', async (t) => {
  t.equal(
    schemaProblem({ type: 'ClientServiceAdded', data: { client_id: CLIENT, service_id: 1, name: 'Plumbing', description: '' } }),
    null,
  )
  t.match(
    schemaProblem({ type: 'ClientServiceAdded', data: { client_id: CLIENT, service_id: 1, name: '', description: '' } }),
    /fails its schema/,
  )
  t.match(
    schemaProblem({ type: 'ClientServiceAdded', data: { client_id: CLIENT, service_id: 1, name: ' Plumbing ', description: '' } }),
    /changed by its schema/,
  )
  t.match(
    schemaProblem({ type: 'ClientLocationsRemoved', data: { client_id: CLIENT, location_ids: [1], extra: true } }),
    /changed by its schema/,
  )
  t.match(schemaProblem({ type: 'ClientVanished', data: {} }), /no schema registered/)
})
