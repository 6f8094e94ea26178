import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { seedSandboxScans } from './seed-monitoring-scans.js'
import { seedSandboxSnapshots } from './seed-monitoring-snapshots.js'
import { seedSandboxSiteChanges } from './seed-monitoring-changes.js'
import { seedSandboxArchitecture } from './seed-monitoring-architecture.js'
import { seedSandboxEntityChanges } from './seed-monitoring-entity-changes.js'
import { seedSandboxCooldowns } from './seed-monitoring-cooldowns.js'
import { seedSandboxRenders } from './seed-monitoring-renders.js'

/** The sandbox's fictional site monitoring data: scans, snapshots, site changes, a cooldown, a render. */
export async function seedSandboxMonitoring(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await seedSandboxScans(write, ctx, orgId, clientId)
  await seedSandboxSnapshots(write, ctx, orgId, clientId)
  await seedSandboxSiteChanges(write, ctx, orgId, clientId)
  await seedSandboxArchitecture(write, ctx, orgId, clientId)
  await seedSandboxEntityChanges(write, ctx, orgId, clientId)
  await seedSandboxCooldowns(write, ctx, orgId, clientId)
  await seedSandboxRenders(write, ctx, orgId, clientId)
}
