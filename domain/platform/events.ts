import { z } from 'zod'
import { Id } from '../shared/values.js'

/** The service's first start: the platform key it minted (or the operator's PLATFORM_KEY) is key_id. */
export const PlatformBootstrapped = z.object({ key_id: Id })

export const platformEventSchemas = { PlatformBootstrapped } as const

export type PlatformEvent = { type: 'PlatformBootstrapped'; data: z.infer<typeof PlatformBootstrapped> }
