import { systemContext } from '../../../commands/command-handler.js'
import { type PushFailureInput, recordPushFailure } from '../../../commands/publishing/push-failures.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt } from '../../support/read-models.js'

/**
 * The push failures part of the realistic log: failures recorded as the publisher would (two of one
 * operation, one of another, one in the other organization), the operation auto-resolved (both at once) and
 * again (nothing unresolved: no event), one resolved by hand and again (no event), a foreign resolve refused.
 */
export async function writePushFailuresLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [orgA, orgB] = log.orgIds as [number, number]
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const context = systemContext('realistic-publisher')
  const record = async (input: PushFailureInput) => {
    const result = await recordPushFailure(ts.system.write, context, input)
    await readModelsAt(ts, result.position) // direct commands skip read-your-writes
    return result.failureId
  }
  await record({
    orgId: orgA,
    clientId: plumbers,
    operation: 'apply_site_edit',
    category: 'timeout',
    error: 'no answer in 20 s',
    attempts: 3,
  })
  await record({
    orgId: orgA,
    clientId: plumbers,
    operation: 'apply_site_edit',
    category: 'server_error',
    error: 'HTTP 502 Bad Gateway',
    editId: 1,
    target: 'wp:page/2',
    httpStatus: 502,
    attempts: 3,
  })
  const media = await record({ orgId: orgA, clientId: heaters, operation: 'media', category: 'auth', error: 'HTTP 401', httpStatus: 401 })
  const foreign = await record({ orgId: orgB, clientId: bravo, operation: 'blog_post', category: 'network', error: 'ECONNRESET' })
  await call('auto_resolve_push_failures', { client_id: plumbers, operation: 'apply_site_edit' }, keys.orgA)
  await call('auto_resolve_push_failures', { client_id: plumbers, operation: 'apply_site_edit' }, keys.orgA) // none left
  await call('resolve_push_failure', { failure_id: media, note: 'Application password renewed' }, keys.orgA)
  await call('resolve_push_failure', { failure_id: media }, keys.orgA) // already resolved
  const refused = await ts.rpc('resolve_push_failure', { failure_id: foreign }, keys.orgA)
  if (refused.statusCode !== 404) throw new Error(`a foreign resolve_push_failure answered ${refused.statusCode}`)
}
