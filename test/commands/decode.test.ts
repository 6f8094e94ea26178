/**
 * decode (commands/event-store/decode.ts): narrows a recorded event by its type, lifts old schema versions
 * through the upcaster registry one version at a time, and parses only where the data was never checked.
 * Pure: no database.
 */
import t from 'tap'
import { EventDecodeError, decode, isKnownEvent } from '../../commands/event-store/decode.js'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { createUpcasterRegistry, currentSchemaVersion, upcasterRegistry, type Upcaster } from '../../domain/upcasters.js'

const recorded = (type: string, data: unknown, schemaVersion?: number): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  type,
  data,
  metadata: {
    org_id: 7,
    occurred_at: '2025-03-01T10:00:00.000Z',
    ...(schemaVersion === undefined ? {} : { schema_version: schemaVersion }),
  },
  stream: 'organization-7',
  revision: 0n,
  position: '1',
  recordedAt: new Date('2025-03-01T10:00:00.000Z'),
})

// A made-up history of OrganizationCreated, whose current schema is { org_id, name }:
// v1 { id, title } → v2 { org_id, title } → v3 { org_id, name }.
const renameId: Upcaster = {
  type: 'OrganizationCreated',
  fromVersion: 1,
  up: (data) => {
    const { id, ...rest } = data as { id: number; title: string }
    return { org_id: id, ...rest }
  },
}
const renameTitle: Upcaster = {
  type: 'OrganizationCreated',
  fromVersion: 2,
  up: (data) => {
    const { title, ...rest } = data as { org_id: number; title: string }
    return { ...rest, name: title }
  },
}
const history = createUpcasterRegistry([renameTitle, renameId])

t.test('a current event is returned as recorded, narrowed by its type', async (t) => {
  const event = recorded('OrganizationCreated', { org_id: 7, name: 'Acme' }, 1)
  const decoded = decode(event)
  t.equal(decoded, event, 'the same object: no copy, no parse on the hot path')
  if (decoded.type !== 'OrganizationCreated') return void t.fail('narrowed to another type')
  // Compiles only because the type narrowed `data`.
  t.equal(decoded.data.name, 'Acme')
  t.equal(decoded.metadata.org_id, 7)
})

t.test('an event without schema_version is a version 1 event', async (t) => {
  const decoded = decode(recorded('OrganizationCreated', { id: 7, title: 'Acme' }), { upcasters: history })
  t.strictSame(decoded.data, { org_id: 7, name: 'Acme' })
})

t.test('an old event is lifted one version at a time to the current one', async (t) => {
  const fromV1 = decode(recorded('OrganizationCreated', { id: 7, title: 'Acme' }, 1), { upcasters: history })
  t.strictSame(fromV1.data, { org_id: 7, name: 'Acme' }, 'v1 → v2 → v3')
  t.equal(fromV1.metadata.schema_version, 3, 'the metadata says which version the data now has')
  t.equal(fromV1.metadata.occurred_at, '2025-03-01T10:00:00.000Z', 'the rest of the metadata is kept')
  const fromV2 = decode(recorded('OrganizationCreated', { org_id: 7, title: 'Acme' }, 2), { upcasters: history })
  t.strictSame(fromV2.data, { org_id: 7, name: 'Acme' }, 'v2 → v3 only')
  const current = recorded('OrganizationCreated', { org_id: 7, name: 'Acme' }, 3)
  t.equal(decode(current, { upcasters: history }), current, 'v3 untouched')
})

t.test('an upcaster sees the metadata', async (t) => {
  const stamp: Upcaster = {
    type: 'OrganizationCreated',
    fromVersion: 1,
    up: (data, metadata) => ({ ...(data as object), name: `since ${metadata.occurred_at}` }),
  }
  const decoded = decode(recorded('OrganizationCreated', { org_id: 7 }, 1), { upcasters: createUpcasterRegistry([stamp]) })
  t.strictSame(decoded.data, { org_id: 7, name: 'since 2025-03-01T10:00:00.000Z' })
})

t.test('lifted data that fails the current schema is refused', async (t) => {
  const broken: Upcaster = { type: 'OrganizationCreated', fromVersion: 1, up: (data) => data }
  const event = recorded('OrganizationCreated', { id: 7, title: 'Acme' }, 1)
  t.throws(() => decode(event, { upcasters: createUpcasterRegistry([broken]) }), {
    name: 'EventDecodeError',
    code: 'invalid_event_data',
    stream: 'organization-7',
  })
})

t.test('a version newer than this release is refused', async (t) => {
  const event = recorded('OrganizationCreated', { org_id: 7, name: 'Acme' }, 4)
  t.throws(() => decode(event, { upcasters: history }), { code: 'schema_version_ahead' })
  t.throws(
    () => decode({ ...event, metadata: { schema_version: 2 } }),
    { code: 'schema_version_ahead' },
    'the domain registry: every type at 1',
  )
})

t.test('an unknown type is refused; isKnownEvent lets a tolerant reader skip it first', async (t) => {
  const foreign = recorded('SomethingElseHappened', { n: 1 }, 1)
  t.equal(isKnownEvent(foreign), false)
  t.equal(isKnownEvent(recorded('OrganizationCreated', {}, 1)), true)
  const error = t.throws(() => decode(foreign)) as unknown
  t.ok(error instanceof EventDecodeError)
  t.equal((error as EventDecodeError).code, 'unknown_event_type')
  t.equal(isKnownEvent(recorded('toString', {})), false, 'not fooled by Object.prototype')
})

t.test('current data is parsed only when reads validate', async (t) => {
  const bad = recorded('OrganizationCreated', { org_id: 'seven' }, 1)
  t.equal(decode(bad, { validate: false }), bad, 'not parsed: append validated it')
  t.throws(() => decode(bad, { validate: true }), { code: 'invalid_event_data' })
  const good = recorded('OrganizationCreated', { org_id: 7, name: 'Acme' }, 1)
  t.equal(decode(good, { validate: true }), good, 'valid data is still returned as recorded')
})

t.test('the registry refuses a chain a decode could not walk', async (t) => {
  t.throws(() => createUpcasterRegistry([renameTitle]), /expected one from v1/, 'a gap')
  t.throws(() => createUpcasterRegistry([renameId, { ...renameId }]), /expected one from v2/, 'two from the same version')
  t.throws(() => createUpcasterRegistry([{ ...renameId, type: 'Nope' as never }]), /unknown event type/)
  t.throws(() => createUpcasterRegistry([{ ...renameId, fromVersion: 0 }]), /versions start at 1/)
  t.equal(history.currentVersion('OrganizationCreated'), 3)
  t.equal(history.currentVersion('ApiKeyRevoked'), 1, 'a type without upcasters is at 1')
  t.equal(currentSchemaVersion('OrganizationCreated'), upcasterRegistry.currentVersion('OrganizationCreated'))
})
