import type { Kysely } from 'kysely'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { addMonths } from '../../domain/shared/months.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { visibleClient } from '../../projections/clients/queries.js'
import { createCompareReport } from '../../projections/planning/compare-reports/create.js'
import type { ReadDb } from '../../projections/tables.js'

/**
 * The sandbox's compare report: the fixture's latest month against the one before, rendered from the read
 * models once everything else is seeded (positions, Search Console, AI Visibility, site changes, the month's
 * action items), as create_compare_report would. The caller waits for the read models to catch up first.
 */
export async function seedSandboxCompareReport(
  deps: { readonly write: WriteDeps; readonly read: ReadDb; readonly db: Kysely<WorkTables> },
  ctx: CommandContext,
  orgId: number,
  clientId: number,
  month: string,
): Promise<void> {
  const client = await visibleClient(deps.read, orgId, clientId)
  await createCompareReport(deps.read, deps.write, new PostgresBlobStore(deps.db, deps.write.clock), ctx, {
    client,
    callerOrgId: orgId,
    month,
    againstMonth: addMonths(month, -1),
  })
}
