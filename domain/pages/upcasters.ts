import { PageSnapshotRecordedV1 } from './events.js'

/**
 * The pages area's upcasters (registered in domain/upcasters.ts). PageSnapshotRecorded v1 → v2: a snapshot
 * recorded before site monitoring was content someone posted or a site edit published, never a fetch, so it
 * has no page state, no HTTP validators and no scan (null), exactly as a v2 add_snapshot.
 */
export const pageUpcasters = [
  {
    type: 'PageSnapshotRecorded',
    fromVersion: 1,
    up: (data: unknown) => ({ ...PageSnapshotRecordedV1.parse(data), scan_id: null, state: null, etag: null, last_modified: null }),
  },
] as const
