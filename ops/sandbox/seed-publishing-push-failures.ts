import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { recordPushFailure, resolvePushFailures } from '../../commands/publishing/push-failures.js'

const HOUR_MS = 3_600_000

/**
 * The sandbox's fictional push failures, through the commands, each at its own moment before the seed's now:
 * three days ago a page update timed out twice and went through on the next attempt (resolved, auto); this
 * morning an image upload was refused because the application password had been revoked (unresolved: what
 * an operator is shown to act on).
 */
export async function seedSandboxPushFailures(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock().getTime()
  const atHoursAgo = (hours: number): WriteDeps => ({ ...write, clock: () => new Date(now - hours * HOUR_MS) })
  await recordPushFailure(atHoursAgo(72), ctx, {
    orgId,
    clientId,
    operation: 'apply_site_edit',
    category: 'timeout',
    error: 'The site did not answer within 20 seconds (3 tries)',
    target: 'wp:page/14',
    attempts: 3,
  })
  await resolvePushFailures(atHoursAgo(71), ctx, { clientId, operation: 'apply_site_edit', auto: true, callerOrgId: orgId })
  await recordPushFailure(atHoursAgo(3), ctx, {
    orgId,
    clientId,
    operation: 'media',
    category: 'auth',
    error: 'WordPress answered 401 rest_not_logged_in: the application password was revoked',
    target: 'wp:media',
    httpStatus: 401,
    attempts: 1,
  })
}
