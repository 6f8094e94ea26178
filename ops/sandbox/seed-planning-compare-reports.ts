import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional compare reports. */
export async function seedSandboxCompareReports(
  _write: WriteDeps,
  _ctx: CommandContext,
  _orgId: number,
  _clientId: number,
): Promise<void> {}
