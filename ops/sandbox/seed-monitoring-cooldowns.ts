import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { clearCooldown, setCooldown } from '../../commands/monitoring/cooldowns.js'

const HOUR_MS = 3_600_000

/**
 * The sandbox's fictional cooldowns, through the commands, each at its own moment before the seed's now: six
 * days ago the client's host was down and scans were held back (scan_failures, 6 hours), lifted by the agency
 * after two hours once the host was back; two days ago a publish held scans back for its 15 minutes (expired);
 * and, active for the hour after the seed, a publish cooldown the agency set because the client changed its
 * opening hours in WordPress itself. None holds publishing back, so the sandbox's proposed edit can be
 * applied; the scans it holds back are fiction anyway (the processors leave the sandbox alone).
 */
export async function seedSandboxCooldowns(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock().getTime()
  const atHoursAgo = (hours: number): WriteDeps => ({ ...write, clock: () => new Date(now - hours * HOUR_MS) })
  const caller = { callerOrgId: orgId, clientId }
  await setCooldown(atHoursAgo(144), ctx, {
    ...caller,
    reason: 'scan_failures',
    minutes: 360,
    note: 'Three scans in a row could not reach the site (the host was down)',
  })
  await clearCooldown(atHoursAgo(142), ctx, { ...caller, reason: 'scan_failures' })
  await setCooldown(atHoursAgo(48), ctx, { ...caller, reason: 'publish', minutes: 15 })
  await setCooldown(write, ctx, {
    ...caller,
    reason: 'publish',
    minutes: 60,
    note: 'The client changed its opening hours in WordPress; scans wait for the page cache',
  })
}
