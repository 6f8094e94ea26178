/**
 * `serve` as the CLI runs it, plus a test-only handler for ad_copy (test/ops/jobs-restart.test.ts spawns
 * this with `node --import tsx`): the first attempt reports progress and waits until it is aborted; a
 * resumed attempt (after a graceful shutdown) finishes at once. Production code has no such kind.
 */
import { loadConfig } from '../../ops/config.js'
import { serve } from '../../ops/commands/serve.js'
import type { JobHandler } from '../../processors/jobs/handler.js'

const adCopy: JobHandler<'ad_copy'> = async (ctx) => {
  if (ctx.job.attempt > 1) return { resumed: true, attempt: ctx.job.attempt }
  await ctx.progress(1, 2, 'waiting to be stopped')
  await new Promise<void>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
  return {}
}

await serve(loadConfig(), 'all', { jobHandlers: { ad_copy: adCopy } })
