import { z } from 'zod'

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

/**
 * A registered method is scheduled for removal: recorded once per method on the stream
 * `api_deprecation-<method>` when its sunset is within the notice period, so the webhook dispatcher can
 * deliver `api.deprecation` to every subscriber exactly once. Platform-level (metadata org_id null).
 */
export const ApiDeprecationAnnounced = z.object({
  method: z.string().min(1).max(200),
  sunset: Day,
  replacement: z.string().min(1).max(200).nullable(),
  since: Day,
})

export const apiPlatformEventSchemas = { ApiDeprecationAnnounced } as const

export type ApiPlatformEvent = { type: 'ApiDeprecationAnnounced'; data: z.infer<typeof ApiDeprecationAnnounced> }
