import { z } from 'zod'
import { Id, Month } from '../shared/values.js'

/**
 * The job kinds this service runs, with what `POST /api/v1/jobs` checks before a job is accepted: whether
 * it needs a client, the payload's schema (a failing payload answers 400 naming the field) and whether the
 * public sandbox key may start it. The runner for each kind lives in processors/jobs/kinds/.
 */
export interface JobKindSpec {
  readonly kind: string
  readonly summary: string
  /** client_id is required (and must be a client of the organization); false: the job is about the organization. */
  readonly clientRequired: boolean
  /** group_id is required instead of client_id (bulk_strategist): one active job per group. Absent: false. */
  readonly groupRequired?: boolean
  readonly payload: z.ZodObject
  /** The sandbox key may start it (spec: export_org only, at most one per 10 minutes). */
  readonly sandboxAllowed: boolean
}

/** A target page of prompted_edit: its WordPress post id, its slug, or its URL. */
export const PageRef = z.union([z.number().int().positive(), z.string().trim().min(1).max(2000)])

export const JOB_KINDS = {
  export_org: {
    kind: 'export_org',
    summary: 'A zip of every table of the organization as JSON and CSV, its filed reports and a manifest (secrets excluded).',
    clientRequired: false,
    payload: z.object({}).strict(),
    sandboxAllowed: true,
  },
  prompted_edit: {
    kind: 'prompted_edit',
    summary: 'Stages proposed site edits (operation elementor_rewrite) for the target pages from a plain-English instruction.',
    clientRequired: true,
    payload: z
      .object({
        instruction: z.string().trim().min(1, 'must not be empty').max(4000),
        pages: z.array(PageRef).min(1).max(200).optional(),
        dry_run: z.boolean().optional(),
        refresh: z.enum(['auto', 'force', 'skip']).optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  ad_copy: {
    kind: 'ad_copy',
    summary: 'A proposed ad copy set: ad groups per service × area with headlines (≤ 30 chars) and descriptions (≤ 90 chars).',
    clientRequired: true,
    payload: z
      .object({
        services: z.array(z.string().trim().min(1).max(200)).min(1).max(50).optional(),
        areas: z.array(z.string().trim().min(1).max(200)).min(1).max(50).optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  keyword_generation: {
    kind: 'keyword_generation',
    summary: "Keyword candidates from the client's services × locations (and its AI Visibility questions), added as keywords.",
    clientRequired: true,
    payload: z
      .object({
        max_keywords: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  strategist: {
    kind: 'strategist',
    summary:
      "Plans the client's month: carries unfinished items over from the last open month, then adds action items from open SEO insights and AI Visibility items, ranked by expected impact per hour and fitted to the hour budget.",
    clientRequired: true,
    payload: z
      .object({
        month: Month.optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  bulk_strategist: {
    kind: 'bulk_strategist',
    summary: "Runs the strategist for every active client of a group (one client's failure is recorded, the rest go on).",
    clientRequired: false,
    groupRequired: true,
    payload: z
      .object({
        month: Month.optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  execute_tier_a: {
    kind: 'execute_tier_a',
    summary: "Carries out the month's pending tier A action items that can be automated, as site edits.",
    clientRequired: true,
    payload: z
      .object({
        month: Month.optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
  fulfill_selected: {
    kind: 'fulfill_selected',
    summary: 'Carries out exactly the given action items of the client (any tier) as site edits; ones that cannot be are refused per item.',
    clientRequired: true,
    payload: z
      .object({
        action_item_ids: z.array(Id).min(1).max(200),
      })
      .strict(),
    sandboxAllowed: false,
  },
  autopilot: {
    kind: 'autopilot',
    summary:
      "The monthly loop for a client that opted in (setting autopilot_enabled): a scan if stale, the strategist, execute_tier_a, then the month's compare report.",
    clientRequired: true,
    payload: z
      .object({
        month: Month.optional(),
      })
      .strict(),
    sandboxAllowed: false,
  },
} as const satisfies Record<string, JobKindSpec>

export type JobKind = keyof typeof JOB_KINDS
export type JobPayload<K extends JobKind> = z.infer<(typeof JOB_KINDS)[K]['payload']>

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(JOB_KINDS, kind)
}

/**
 * Every kind the specification names (endpoints.md "Jobs"). A specified kind this service has no catalog
 * entry or handler for answers 400 job_kind_unavailable; anything else is an unknown kind (400 naming `kind`).
 */
export const SPECIFIED_JOB_KINDS = [
  'strategist',
  'bulk_strategist',
  'execute_tier_a',
  'keyword_generation',
  'blog_pipeline',
  'fulfill_selected',
  'autopilot',
  'content_edit',
  'ad_copy',
  'prompted_edit',
  'export_org',
] as const
