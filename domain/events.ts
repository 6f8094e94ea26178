import type { z } from 'zod'
import { apiKeyEventSchemas } from './api-keys/events.js'
import { clientEventSchemas, clientSlugEventSchemas } from './clients/events.js'
import { organizationEventSchemas } from './organizations/events.js'
import { platformEventSchemas } from './platform/events.js'

/**
 * Every event type the domain can record, with the zod schema of its data. The command handler
 * validates against it before appending, so nothing malformed ever enters the log. Released schemas are
 * never edited in place: a change is a new schema_version plus an upcaster.
 */
export const eventSchemas: Readonly<Record<string, z.ZodType>> = {
  ...organizationEventSchemas,
  ...apiKeyEventSchemas,
  ...clientEventSchemas,
  ...clientSlugEventSchemas,
  ...platformEventSchemas,
}

/** The schema_version every event is written with today. */
export const CURRENT_SCHEMA_VERSION = 1
