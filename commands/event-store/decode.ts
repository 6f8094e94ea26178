import { isEventType, schemaOf, type AnyEvent } from '../../domain/events.js'
import type { EventMetadata } from '../../domain/shared/event.js'
import { upcasterRegistry, type UpcasterRegistry } from '../../domain/upcasters.js'
import type { RecordedEnvelope, RecordedEvent } from './port.js'

/**
 * A recorded event read through the domain's schemas: `switch (event.type)` narrows `event.data` to the
 * data of that type at its current schema_version. Metadata is typed by the fields every event carries, but
 * partial: a log may hold events written by tools and tests that set only some of them.
 */
export type DecodedEvent<E extends AnyEvent = AnyEvent> = RecordedEnvelope & { readonly metadata: Readonly<Partial<EventMetadata>> } & E

/**
 * Why an event could not be decoded. `unknown_event_type`: no schema for its type (a reader that must
 * tolerate foreign types checks `isKnownEvent` first); `schema_version_ahead`: written by a newer release
 * than this one (no upcaster runs backwards); `invalid_event_data`: its data fails the current schema after
 * an upcast, or on a validating read.
 */
export type EventDecodeErrorCode = 'unknown_event_type' | 'schema_version_ahead' | 'invalid_event_data'

export class EventDecodeError extends Error {
  readonly code: EventDecodeErrorCode
  readonly stream: string
  readonly revision: bigint
  readonly type: string

  constructor(code: EventDecodeErrorCode, recorded: Pick<RecordedEvent, 'stream' | 'revision' | 'type'>, message: string) {
    super(`${recorded.stream}@${recorded.revision} ${recorded.type}: ${message}`)
    this.name = 'EventDecodeError'
    this.code = code
    this.stream = recorded.stream
    this.revision = recorded.revision
    this.type = recorded.type
  }
}

/** True when the domain knows the event's type, so `decode` will not refuse it for that. */
export function isKnownEvent(recorded: Pick<RecordedEvent, 'type'>): boolean {
  return isEventType(recorded.type)
}

/**
 * Every decoded event's data is parsed against its schema when this is set (the test suite sets it, so a
 * reader that folds data its schema would refuse fails a test): off by default because append already
 * validated what it stored, and a rebuild decodes millions of events.
 */
const validateOnRead = process.env.RR_VALIDATE_EVENTS_ON_READ === '1'

export interface DecodeOptions {
  /** The upcasters to lift old versions with; the domain's registry by default. */
  readonly upcasters?: UpcasterRegistry
  /** Parse current data too; RR_VALIDATE_EVENTS_ON_READ=1 by default. */
  readonly validate?: boolean
}

/**
 * Narrows a recorded event to the domain's event union, lifting data written at an older schema_version
 * through the registered upcasters, one version at a time, to the type's current version.
 *
 * Current data is returned as recorded, without a parse (append validated it; the hot path of a rebuild
 * must not pay a parse per event), so the result is the same object. Lifted data is parsed against the
 * current schema, since an upcaster's output was never checked by an append; the result then carries the
 * parsed data and metadata.schema_version set to the version that data now has.
 *
 * Throws EventDecodeError (see its codes); never throws anything else for a well-formed recorded event.
 */
export function decode(recorded: RecordedEvent, options?: DecodeOptions): DecodedEvent {
  const registry = options?.upcasters ?? upcasterRegistry
  const schema = schemaOf(recorded.type)
  if (!schema) throw new EventDecodeError('unknown_event_type', recorded, 'no schema for this event type')
  const metadata: Readonly<Partial<EventMetadata>> = recorded.metadata ?? {}
  // An event written before schema_version existed, or by a tool that left it out, is a version 1 event.
  const version = typeof metadata.schema_version === 'number' ? metadata.schema_version : 1
  const current = registry.currentVersion(recorded.type)
  if (version > current) {
    throw new EventDecodeError('schema_version_ahead', recorded, `schema_version ${version} is newer than this release's ${current}`)
  }
  if (version === current) {
    if (options?.validate ?? validateOnRead) parse(schema, recorded, recorded.data)
    return recorded as DecodedEvent
  }
  let data: unknown = recorded.data
  for (const upcaster of registry.chain(recorded.type, version)) data = upcaster.up(data, metadata)
  return { ...recorded, data: parse(schema, recorded, data), metadata: { ...metadata, schema_version: current } } as DecodedEvent
}

function parse(schema: NonNullable<ReturnType<typeof schemaOf>>, recorded: RecordedEvent, data: unknown): unknown {
  const result = schema.safeParse(data)
  if (!result.success) throw new EventDecodeError('invalid_event_data', recorded, result.error.message)
  return result.data
}
