import type { Processor, ProcessorDeps } from '../../runtime.js'
import { subscriptionProcessor } from '../../subscription.js'
import { handleMetaEvent, META_PROPOSER_NAME } from './meta-proposer.js'
import { INSIGHT_REFRESHER_NAME, INSIGHT_TRIGGERS, insightRefresher } from './refresher.js'

/**
 * The insights processors, each a process manager on the log with its own checkpoint (a read-model rebuild
 * re-fires nothing):
 * - the refresher re-derives a client's insights after its ranks, Search Console captures, associations,
 *   keywords, pages or AI Visibility answers change (refresh_seo_insights does the same on demand);
 * - the meta proposer proposes a title and description rewrite for each new low_ctr insight, and records on
 *   a meta optimization what became of its site edit.
 */
export function insightsProcessors(deps: ProcessorDeps): Processor[] {
  const refresher = insightRefresher({
    write: deps.write,
    store: deps.store,
    read: deps.read,
    watermark: deps.watermark,
    log: deps.log.child({ processor: INSIGHT_REFRESHER_NAME }),
  })
  const metaDeps = {
    write: deps.write,
    read: deps.read,
    watermark: deps.watermark,
    languageModel: deps.languageModel,
    log: deps.log.child({ processor: META_PROPOSER_NAME }),
  }
  return [
    subscriptionProcessor({
      name: INSIGHT_REFRESHER_NAME,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(INSIGHT_TRIGGERS),
      handle: async (event) => {
        await refresher.handle(event)
      },
    }),
    subscriptionProcessor({
      name: META_PROPOSER_NAME,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(['SeoInsightRaised', 'SiteEditApplied', 'SiteEditRolledBack']),
      handle: async (event) => {
        await handleMetaEvent(metaDeps, event)
      },
    }),
  ]
}
