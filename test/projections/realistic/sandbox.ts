import { resetSandbox } from '../../../ops/sandbox/seed.js'
import type { TestSystem } from '../../support/system.js'

/**
 * The public sandbox part of the realistic log: the sandbox created and seeded, then reset (its client
 * retired: SandboxReset deletes the retired client's rows from every read model) and seeded again, so
 * the projection tests apply a reset twice, rebuild through it, and redeliver suffixes across it.
 */
export async function writeSandboxLog(ts: TestSystem): Promise<void> {
  const deps = {
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  }
  await resetSandbox(deps)
  await resetSandbox(deps)
}

/**
 * Which organization events keep an org_activity row: all but those of clients a sandbox reset retired
 * (named by client_id, or on a run, capture or site edit stream that belongs to one: the sandbox's seed
 * applies an edit, and SiteEditApplied names no client).
 */
export function survivesSandboxResets<E extends { type: string; stream: string; data: any; metadata: any }>(events: readonly E[]): E[] {
  const retired = new Set<number>(events.filter((e) => e.type === 'SandboxReset').flatMap((e) => e.data.retired_client_ids as number[]))
  const retiredStreams = new Set(
    events.filter((e) => /^(aeo_(run|capture)|site_edit)-/.test(e.stream) && retired.has(e.data?.client_id)).map((e) => e.stream),
  )
  return events.filter((e) => !(retired.has(e.data?.client_id) || retiredStreams.has(e.stream)))
}
