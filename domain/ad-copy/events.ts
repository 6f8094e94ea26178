import { z } from 'zod'
import { Id } from '../shared/values.js'
import { DESCRIPTIONS_MAX, DESCRIPTIONS_MIN, fitsDescription, fitsHeadline, HEADLINES_MAX, HEADLINES_MIN } from './limits.js'

/** An ad copy set is one stream, `ad_copy_set-<set_id>`: proposed whole, then approved or rejected once. */
const Headline = z.string().refine(fitsHeadline, 'a headline is 1 to 30 characters, trimmed')
const Description = z.string().refine(fitsDescription, 'a description is 1 to 90 characters, trimmed')

export const AdGroupData = z.object({
  ad_group_id: Id,
  /** "Drain Cleaning – Austin, TX". */
  name: z.string().min(1).max(300),
  /** The client's service, as the client lists it. */
  service: z.string().min(1).max(200),
  /** The area it targets ('' when the set targets no area). */
  area: z.string().max(200),
  headlines: z.array(Headline).min(HEADLINES_MIN).max(HEADLINES_MAX),
  descriptions: z.array(Description).min(DESCRIPTIONS_MIN).max(DESCRIPTIONS_MAX),
  /** Search keywords suggested for the ad group. */
  keywords: z.array(z.string().min(1).max(100)).max(30),
  /** The landing page: the client's website. */
  final_url: z.string().max(2000),
  /** Who wrote the lines: "built-in", or the language model's name (provider:model). */
  writer: z.string().min(1).max(200),
})

export const AdCopySetProposed = z.object({
  set_id: Id,
  client_id: Id,
  /** The ad_copy job that proposed it (null: proposed otherwise). */
  job_id: Id.nullable(),
  ad_groups: z.array(AdGroupData).min(1).max(100),
})

/** approved_by is recorded for the export audit trail (who signed the copy off). */
export const AdCopySetApproved = z.object({ set_id: Id, client_id: Id, approved_by: z.string().min(1).max(200) })

export const AdCopySetRejected = z.object({
  set_id: Id,
  client_id: Id,
  rejected_by: z.string().min(1).max(200),
  reason: z.string().max(2000),
})

export const adCopyEventSchemas = { AdCopySetProposed, AdCopySetApproved, AdCopySetRejected } as const

type Schemas = typeof adCopyEventSchemas
export type AdCopyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type AdGroup = z.infer<typeof AdGroupData>
