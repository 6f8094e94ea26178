import { z } from 'zod'
import { approveAdCopySet, rejectAdCopySet } from '../../commands/ad-copy.js'
import { AD_COPY_SET_STATUSES, MAX_AD_GROUPS } from '../../domain/ad-copy/ad-copy-set.js'
import {
  DESCRIPTION_MAX_CHARS,
  DESCRIPTIONS_MAX,
  DESCRIPTIONS_MIN,
  HEADLINE_MAX_CHARS,
  HEADLINES_MAX,
  HEADLINES_MIN,
} from '../../domain/ad-copy/limits.js'
import { Id } from '../../domain/shared/values.js'
import { visibleClient } from '../../projections/clients/queries.js'
import { adCopySetsOfClient, adGroupsOfSet, visibleAdCopySet } from '../../projections/ad-copy/queries.js'
import { rpc, type AnyRpc, type RpcContext } from '../registry.js'
import { ClientId } from './ids.js'

const domain = 'ad-copy'

const Status = z.enum(AD_COPY_SET_STATUSES as [string, ...string[]])

const AdGroupView = z.object({
  ad_group_id: Id,
  set_id: Id,
  position: z.number().int().describe('1-based order within the set'),
  name: z.string().describe('"Service – Area"'),
  service: z.string(),
  area: z.string().describe("The area it targets ('' when none)"),
  headlines: z.array(z.string()).describe(`${HEADLINES_MIN} to ${HEADLINES_MAX} headlines, each at most ${HEADLINE_MAX_CHARS} characters`),
  descriptions: z
    .array(z.string())
    .describe(`${DESCRIPTIONS_MIN} to ${DESCRIPTIONS_MAX} descriptions, each at most ${DESCRIPTION_MAX_CHARS} characters`),
  keywords: z.array(z.string()).describe('Search keywords suggested for the ad group'),
  final_url: z.string().describe("The landing page (the client's website)"),
  writer: z.string().describe('built-in, or the language model (provider:model) that wrote the lines'),
})

const SetFields = {
  set_id: Id,
  client_id: ClientId,
  status: Status.describe('proposed → approved or rejected (final)'),
  job_id: Id.nullable().describe('The ad_copy job that proposed it'),
  ad_group_count: z.number().int(),
  approved_by: z.string().nullable().describe('Who approved it (the export audit trail)'),
  approved_at: z.string().nullable(),
  rejected_by: z.string().nullable(),
  rejected_at: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}
const SetSummary = z.object(SetFields)
const SetWithGroups = z.object({ ...SetFields, ad_groups: z.array(AdGroupView) })

const SetRef = { set_id: Id.describe('The ad copy set'), client_id: Id.describe('The client that owns it') }
const Signer = (what: string) =>
  z.string().trim().min(1, 'must not be empty').max(200).describe(`Who ${what} it (a name or email); recorded`)

async function setWithGroups(ctx: RpcContext<{ set_id: number; client_id: number }>) {
  const set = await visibleAdCopySet(ctx.read, ctx.orgId, ctx.params.set_id, ctx.params.client_id)
  return { ...set, ad_groups: await adGroupsOfSet(ctx.read, set.set_id) }
}

export const adCopyRpcs: AnyRpc[] = [
  rpc({
    name: 'get_ad_copy_set',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `An ad copy set with its ad groups (at most ${MAX_AD_GROUPS}), each with headlines, descriptions and suggested keywords.`,
    example: { params: { set_id: 18, client_id: 34 } },
    params: z.strictObject(SetRef),
    result: SetWithGroups,
    handler: setWithGroups,
  }),
  rpc({
    name: 'list_ad_copy_ad_groups',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A set's ad groups in order (service × area, as the ad_copy job wrote them).",
    example: { params: { set_id: 18, client_id: 34 } },
    params: z.strictObject(SetRef),
    result: z.array(AdGroupView),
    paginated: { maxLimit: MAX_AD_GROUPS },
    async handler(ctx) {
      const set = await visibleAdCopySet(ctx.read, ctx.orgId, ctx.params.set_id, ctx.params.client_id)
      return adGroupsOfSet(ctx.read, set.set_id, ctx.page!)
    },
  }),
  rpc({
    name: 'list_ad_copy_sets_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's ad copy sets, newest first, without their groups (get_ad_copy_set has them); status narrows to proposed, approved or rejected.",
    example: { params: { client_id: 34, status: 'proposed' } },
    params: z.strictObject({ client_id: ClientId, status: Status.optional().describe('Only sets in this status') }),
    result: z.array(SetSummary),
    paginated: { maxLimit: 500 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return adCopySetsOfClient(ctx.read, client.id, ctx.params.status, ctx.page!)
    },
  }),
  rpc({
    name: 'approve_ad_copy_set',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Approve a proposed ad copy set; approved_by (non-empty) is recorded for the export audit trail. Only a proposed set: an ' +
      'approved or rejected one answers 409 ad_copy_set_not_proposed. Returns the set with its ad groups.',
    example: { params: { set_id: 18, client_id: 34, approved_by: 'dana@northwind.example' } },
    params: z.strictObject({ ...SetRef, approved_by: Signer('approved') }),
    result: SetWithGroups,
    async handler(ctx) {
      const { set_id, client_id, approved_by } = ctx.params
      await visibleAdCopySet(ctx.read, ctx.orgId, set_id, client_id)
      await approveAdCopySet(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: client_id,
        setId: set_id,
        approvedBy: approved_by,
      })
      await ctx.settle()
      return setWithGroups(ctx)
    },
  }),
  rpc({
    name: 'reject_ad_copy_set',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Reject a proposed ad copy set (it stays readable with status rejected; run another ad_copy job for new copy). rejected_by ' +
      '(non-empty) and the reason are recorded. Only a proposed set: otherwise 409 ad_copy_set_not_proposed. Returns the set.',
    example: {
      params: { set_id: 18, client_id: 34, rejected_by: 'dana@northwind.example', reason: 'Headlines promise prices we do not offer' },
    },
    params: z.strictObject({
      ...SetRef,
      rejected_by: Signer('rejected'),
      reason: z.string().trim().max(2000).default('').describe('Why (optional)'),
    }),
    result: SetWithGroups,
    async handler(ctx) {
      const { set_id, client_id, rejected_by, reason } = ctx.params
      await visibleAdCopySet(ctx.read, ctx.orgId, set_id, client_id)
      await rejectAdCopySet(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: client_id,
        setId: set_id,
        rejectedBy: rejected_by,
        reason,
      })
      await ctx.settle()
      return setWithGroups(ctx)
    },
  }),
]
