import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { COOLDOWN_NOTE_MAX_LENGTH, CooldownReason } from './reasons.js'

/**
 * Cooldowns (issue 25): every cooldown of a client in one stream, `client_cooldowns-<client_id>`, one per
 * client and reason. An expired cooldown needs no event: readers compare `until` with their now.
 */

const Time = z.iso.datetime({ offset: true })

/** A cooldown begins, or (set again) moves its end: until `until`, for `reason`. */
export const ClientCooldownSet = z.object({
  client_id: Id,
  reason: CooldownReason,
  until: Time,
  note: z.string().max(COOLDOWN_NOTE_MAX_LENGTH).nullable(),
})

/** A cooldown ended before its time (clear_client_cooldown). */
export const ClientCooldownCleared = z.object({ client_id: Id, reason: CooldownReason })

export const cooldownsEventSchemas = { ClientCooldownSet, ClientCooldownCleared } as const

type Schemas = typeof cooldownsEventSchemas
export type CooldownEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
