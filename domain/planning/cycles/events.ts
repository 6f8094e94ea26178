import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'
import { Hours } from '../action-items/events.js'

/**
 * A client's monthly hour budget: stream `hour_budget-<client_id>`. Each setting holds from its month on,
 * until a later setting; `hours: null` removes the budget from that month on.
 */
export const HourBudgetSet = z.object({
  client_id: Id,
  from_month: Month,
  hours: Hours.nullable(),
})

export const cyclesEventSchemas = { HourBudgetSet } as const
type Schemas = typeof cyclesEventSchemas
export type CyclesEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
