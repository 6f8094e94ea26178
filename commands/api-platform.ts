import { apiDeprecation, type DeprecationNotice } from '../domain/api-platform/deprecation.js'
import { handleCommand, systemContext, type WriteDeps } from './command-handler.js'

/**
 * Records `ApiDeprecationAnnounced` for the method if its notice period has begun and it was not announced
 * before. Exactly once across restarts and API processes: the stream's expected revision decides.
 * Returns true when this call recorded it.
 */
export async function announceDeprecation(deps: WriteDeps, notice: DeprecationNotice): Promise<boolean> {
  const outcome = await handleCommand(deps, {
    aggregate: apiDeprecation,
    id: notice.method,
    command: { type: 'AnnounceDeprecation', notice, now: deps.clock() },
    context: systemContext('api-deprecation'),
    orgId: null,
  })
  return outcome.events.length > 0
}
