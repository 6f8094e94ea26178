import type { WriteDeps } from './command-context.js'
import { decode, type DecodedEvent } from './event-store/decode.js'

/** A stream read whole and decoded: its events, the revision of the last one (undefined: no stream) and the org of the first. */
export interface LoadedStream {
  readonly events: readonly DecodedEvent[]
  readonly revision: bigint | undefined
  readonly orgId: number | null
}

/**
 * For readers that need the events themselves rather than an aggregate's state (an export listing what a
 * job produced); a command folds its aggregate through handleCommand or loadState instead.
 */
export async function loadStream(deps: Pick<WriteDeps, 'store'>, stream: string): Promise<LoadedStream> {
  const events: DecodedEvent[] = []
  for await (const recorded of deps.store.readStream(stream)) events.push(decode(recorded))
  const last = events.at(-1)
  const org = events[0]?.metadata.org_id
  return { events, revision: last?.revision, orgId: typeof org === 'number' ? org : null }
}
