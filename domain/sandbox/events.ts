import { z } from 'zod'
import { Id } from '../shared/values.js'

/**
 * The public sandbox is one stream, `sandbox`: which organization and key it is, which clients the current
 * fixture seeded, and each reset. Its events carry the sandbox organization's org_id in their metadata, so
 * `replay --org` of the sandbox shows them beside the seeded history.
 */
export const SandboxCreated = z.object({ org_id: Id, key_id: Id })

/** A fixture was seeded: its clients, and the months its history covers (oldest first). */
export const SandboxSeeded = z.object({
  org_id: Id,
  client_ids: z.array(Id).min(1),
  months: z.array(z.string()).min(1),
  fixture_version: z.number().int().positive(),
})

/**
 * The sandbox was reset: every read-model row of the retired clients is deleted (projections/sandbox),
 * then a fresh fixture is seeded under new ids. The organization, its branding and the sandbox key stay.
 */
export const SandboxReset = z.object({ org_id: Id, retired_client_ids: z.array(Id) })

export const sandboxEventSchemas = { SandboxCreated, SandboxSeeded, SandboxReset } as const

export type SandboxEvent =
  | { type: 'SandboxCreated'; data: z.infer<typeof SandboxCreated> }
  | { type: 'SandboxSeeded'; data: z.infer<typeof SandboxSeeded> }
  | { type: 'SandboxReset'; data: z.infer<typeof SandboxReset> }
