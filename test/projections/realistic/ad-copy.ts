import { BUILT_IN_WRITER, builtInLines, planClientAdCopy, proposeAdCopySet } from '../../../commands/ad-copy.js'
import { systemContext } from '../../../commands/command-handler.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsCaughtUp } from '../../support/read-models.js'

/**
 * The ad copy part of the realistic log: sets proposed as an ad_copy job does (through the same commands,
 * built-in writer), then signed off through HTTP: one approved (and a second approval refused), one
 * rejected, one left proposed, and a refused foreign approval.
 */
export async function writeAdCopyLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const [plumbers, heaters] = log.clientIds as [number, number]
  const orgA = log.orgIds[0]!
  const propose = async (clientId: number, jobId: number | null, areas?: string[]) => {
    const { owner, plan } = await planClientAdCopy(ts.system.store, { callerOrgId: orgA, clientId, areas })
    const groups = plan.groups.map((group) => ({ group, lines: builtInLines(owner, group), writer: BUILT_IN_WRITER }))
    return (await proposeAdCopySet(ts.system.write, systemContext(`job-${jobId ?? 0}`), { owner, jobId, groups })).setId
  }
  const approved = await propose(plumbers, 9001)
  const rejected = await propose(plumbers, 9002, ['Austin, TX', 'Round Rock, TX'])
  await propose(heaters, null)
  // Proposed through the commands, not an RPC: nothing waited for the projection, and the sign-off RPCs read
  // the set from it (a loaded machine showed approve answering 404 here).
  await readModelsCaughtUp(ts)
  await ts.call('approve_ad_copy_set', { set_id: approved, client_id: plumbers, approved_by: 'dana@acme.example' }, keys.orgA)
  const twice = await ts.rpc('approve_ad_copy_set', { set_id: approved, client_id: plumbers, approved_by: 'dana@acme.example' }, keys.orgA)
  if (twice.statusCode !== 409) throw new Error(`a second approval answered ${twice.statusCode}`)
  await ts.call('reject_ad_copy_set', { set_id: rejected, client_id: plumbers, rejected_by: 'sam', reason: 'too generic' }, keys.orgA)
  const foreign = await ts.rpc('approve_ad_copy_set', { set_id: approved, client_id: plumbers, approved_by: 'x' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign approval answered ${foreign.statusCode}`)
}
