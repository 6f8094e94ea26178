import { periodicProcessor } from '../../periodic.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { subscriptionProcessor } from '../../subscription.js'
import { rankProviderFor } from './providers/index.js'
import { rankCheckRunner } from './runner.js'
import { queueDueRankChecks } from './scheduler.js'

/** The checkpoint of the subscription that wakes the runner when a check is queued. */
export const RANK_CHECK_WAKER = 'search_rank_check_waker'

/**
 * The rank-check processors: the cadence scheduler (every SEARCH_POLL_MS), the runner, and a subscription to
 * RankCheckQueued that wakes the runner at once, so run_rank_check does not wait for the next poll.
 */
export function rankChecksProcessors(deps: ProcessorDeps): Processor[] {
  const runner = rankCheckRunner(deps, { provider: rankProviderFor(deps.search) })
  return [
    periodicProcessor(
      'search-rank-check-scheduler',
      deps.search.pollMs,
      async () => {
        await queueDueRankChecks(deps)
      },
      (error) => deps.log.error({ err: error }, 'rank check scheduler: the pass failed; trying again next time'),
    ),
    runner,
    subscriptionProcessor({
      name: RANK_CHECK_WAKER,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(['RankCheckQueued']),
      handle: async () => runner.wake(),
    }),
  ]
}
