import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { seedSandboxAssociations } from './seed-search-associations.js'
import { seedSandboxRanks } from './seed-search-ranks.js'
import { seedSandboxRankChecks } from './seed-search-rank-checks.js'
import { seedSandboxKeywordMetrics } from './seed-search-metrics.js'
import { seedSandboxGsc } from './seed-search-gsc.js'
import { seedSandboxIntent } from './seed-search-intent.js'
import { seedSandboxInsights } from './seed-search-insights.js'
import { seedSandboxSurveys } from './seed-search-surveys.js'

/** The sandbox's fictional search data: pages for keywords, ranks, Search Console, intent, insights, a survey. */
export async function seedSandboxSearch(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await seedSandboxAssociations(write, ctx, orgId, clientId)
  await seedSandboxRanks(write, ctx, orgId, clientId)
  await seedSandboxRankChecks(write, ctx, orgId, clientId)
  await seedSandboxKeywordMetrics(write, ctx, orgId, clientId)
  await seedSandboxGsc(write, ctx, orgId, clientId)
  await seedSandboxIntent(write, ctx, orgId, clientId)
  await seedSandboxInsights(write, ctx, orgId, clientId)
  await seedSandboxSurveys(write, ctx, orgId, clientId)
}
