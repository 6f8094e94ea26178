import type { EventMetadata } from './shared/event.js'
import { isEventType, type EventType } from './events.js'
import { keywordUpcasters } from './keywords/upcasters.js'
import { pageUpcasters } from './pages/upcasters.js'

/**
 * Lifts the data of one event type from `fromVersion` to `fromVersion + 1`. Pure: it sees the old data and
 * the event's metadata (an added field may be derived from occurred_at, say) and nothing else, so a rebuild
 * decodes the same log to the same events forever. Each area keeps its own in domain/<area>/upcasters.ts
 * and lists them in `upcasterRegistry` below.
 */
export interface Upcaster {
  readonly type: EventType
  /** The schema_version this upcaster reads; it returns the data of the next version. */
  readonly fromVersion: number
  readonly up: (data: unknown, metadata: Readonly<Partial<EventMetadata>>) => unknown
}

/** Every upcaster of the domain, grouped by event type, ordered by the version each one reads. */
export interface UpcasterRegistry {
  /**
   * The schema_version events of `type` are written with today: one past the last upcaster of the type,
   * 1 for a type that has none. Deriving it from the chain keeps the two from disagreeing.
   */
  currentVersion(type: string): number
  /**
   * The upcasters that lift data of `type` written at `version` to the current version, in the order to
   * apply them; empty when the data is current.
   */
  chain(type: string, version: number): readonly Upcaster[]
}

/**
 * Builds a registry, refusing (TypeError, at load time) a chain that has a gap, two upcasters for the same
 * (type, version), an unknown type or a version below 1: a decode must never meet a version it cannot lift.
 */
export function createUpcasterRegistry(upcasters: readonly Upcaster[]): UpcasterRegistry {
  const byType = new Map<string, Upcaster[]>()
  for (const upcaster of upcasters) {
    if (!isEventType(upcaster.type)) throw new TypeError(`upcaster for unknown event type ${upcaster.type}`)
    if (!Number.isInteger(upcaster.fromVersion) || upcaster.fromVersion < 1) {
      throw new TypeError(`upcaster ${upcaster.type} v${upcaster.fromVersion}: versions start at 1`)
    }
    const list = byType.get(upcaster.type) ?? []
    list.push(upcaster)
    byType.set(upcaster.type, list)
  }
  for (const [type, list] of byType) {
    list.sort((a, b) => a.fromVersion - b.fromVersion)
    list.forEach((upcaster, index) => {
      if (upcaster.fromVersion !== index + 1)
        throw new TypeError(`upcasters of ${type}: expected one from v${index + 1}, found v${upcaster.fromVersion}`)
    })
  }
  return {
    currentVersion: (type) => (byType.get(type)?.length ?? 0) + 1,
    chain: (type, version) => byType.get(type)?.slice(Math.max(version, 1) - 1) ?? [],
  }
}

/** The domain's upcasters: each area's list, spread here. An event type with none is at schema_version 1. */
export const upcasterRegistry: UpcasterRegistry = createUpcasterRegistry([...keywordUpcasters, ...pageUpcasters])

/** The schema_version an event of `type` is written with today (see UpcasterRegistry.currentVersion). */
export const currentSchemaVersion = (type: string): number => upcasterRegistry.currentVersion(type)
