import { BUILT_IN_WRITER, builtInLines, planClientAdCopy, proposeAdCopySet, type WrittenGroup } from '../../../commands/ad-copy.js'
import type { AdLines } from '../../../domain/ad-copy/limits.js'
import { adCopyRequest, readAdCopyAnswer } from '../../../domain/ad-copy/model-answer.js'
import type { PlannedGroup } from '../../../domain/ad-copy/plan.js'
import type { ClientState } from '../../../domain/clients/client.js'
import { adCopySetOfJob, adGroupsOfSet } from '../../../projections/ad-copy/queries.js'
import { LanguageModelError } from '../../language-model/port.js'
import type { JobContext, JobHandler } from '../handler.js'

/** Ad groups per model request: an answer of ~10 groups stays well inside any model's output limit. */
const GROUPS_PER_REQUEST = 10
const MAX_TOKENS = 4096

/**
 * ad_copy: a proposed ad copy set for the client, one ad group per service × area (payload services and
 * areas, default the client's services and locations). With a language model, its lines are used where
 * they fit the limits and the built-in writer writes the rest (and everything when the model fails); each
 * group records who wrote it. Safe to re-run: a job that already proposed its set returns that set.
 */
export const adCopyHandler: JobHandler<'ad_copy'> = async (ctx) => {
  const { job } = ctx
  const earlier = await adCopySetOfJob(ctx.read, job.jobId)
  if (earlier) {
    const groups = await adGroupsOfSet(ctx.read, earlier.set_id)
    return resultOf(earlier.set_id, earlier.client_id, earlier.status, groups, 0, null)
  }
  const { owner, plan } = await planClientAdCopy(ctx.store, {
    callerOrgId: job.orgId,
    clientId: job.clientId!,
    services: job.payload.services,
    areas: job.payload.areas,
  })
  const total = plan.groups.length
  await ctx.progress(0, total, `writing ${total} ad groups`)
  const written: WrittenGroup[] = []
  let modelError: string | null = null
  for (let start = 0; start < total; start += GROUPS_PER_REQUEST) {
    ctx.signal.throwIfAborted()
    const chunk = plan.groups.slice(start, start + GROUPS_PER_REQUEST)
    const fromModel =
      modelError === null
        ? await askModel(ctx, owner, chunk).catch((error: unknown) => {
            if (!(error instanceof LanguageModelError)) throw error
            // One failure is enough: the rest is written by the built-in writer rather than failing again per chunk.
            modelError = error.message
            ctx.log.warn(
              { job_id: job.jobId, error: error.message },
              'ad_copy: the language model failed; the built-in writer writes the copy',
            )
            return null
          })
        : null
    chunk.forEach((group, i) => {
      const lines = fromModel?.[i] ?? null
      written.push(
        lines && ctx.languageModel
          ? { group, lines, writer: ctx.languageModel.name }
          : { group, lines: builtInLines(owner, group), writer: BUILT_IN_WRITER },
      )
    })
    await ctx.progress(written.length, total)
  }
  ctx.signal.throwIfAborted()
  const outcome = await proposeAdCopySet(ctx.write, ctx.command, { owner, jobId: job.jobId, groups: written })
  await ctx.settle(outcome.position)
  const groups = outcome.groups.map((g) => ({
    ad_group_id: g.ad_group_id,
    name: g.name,
    service: g.service,
    area: g.area,
    headlines: g.headlines,
    descriptions: g.descriptions,
    writer: g.writer,
  }))
  return resultOf(outcome.setId, owner.id, 'proposed', groups, plan.omitted, modelError)
}

async function askModel(
  ctx: JobContext<'ad_copy'>,
  owner: ClientState,
  groups: readonly PlannedGroup[],
): Promise<(AdLines | null)[] | null> {
  if (!ctx.languageModel) return null
  const request = adCopyRequest({ name: owner.name, websiteUrl: owner.websiteUrl }, groups)
  const text = await ctx.languageModel.complete({ ...request, maxTokens: MAX_TOKENS, signal: ctx.signal })
  return readAdCopyAnswer(text, groups)
}

interface GroupSummary {
  readonly ad_group_id: number
  readonly name: string
  readonly service: string
  readonly area: string
  readonly headlines: readonly string[]
  readonly descriptions: readonly string[]
  readonly writer: string
}

/**
 * The job's result: the set and each group with its proposed copy (`copy`: the headlines and descriptions
 * themselves, which is what a reader of a finished job looks for) beside the counts the result always had.
 * get_ad_copy_set has the rest (final URL, keywords, approval).
 */
function resultOf(
  setId: number,
  clientId: number,
  status: string,
  groups: readonly GroupSummary[],
  omitted: number,
  modelError: string | null,
): Record<string, unknown> {
  const writers = [...new Set(groups.map((g) => g.writer))]
  return {
    set_id: setId,
    client_id: clientId,
    status,
    ad_group_count: groups.length,
    ad_groups: groups.map((g) => ({
      ad_group_id: g.ad_group_id,
      name: g.name,
      service: g.service,
      area: g.area,
      headlines: g.headlines.length,
      descriptions: g.descriptions.length,
      writer: g.writer,
      copy: { headlines: [...g.headlines], descriptions: [...g.descriptions] },
    })),
    /** Service × area pairs left out past the per-set maximum. */
    omitted_pairs: omitted,
    writer: writers.length === 1 ? writers[0] : 'mixed',
    ...(modelError ? { model_error: modelError } : {}),
  }
}
