import { z } from 'zod'
import { Id } from '../../domain/shared/values.js'
import { rpc } from '../registry.js'
import { KeyId } from './ids.js'

const Calls = z.number().int().min(0)
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

const UsageReport = z.object({
  org_id: Id.nullable(),
  days: z.number().int(),
  from: Day,
  to: Day,
  total_calls: Calls,
  by_day: z.array(z.object({ day: Day, calls: Calls })),
  by_key: z.array(z.object({ actor_kind: z.string(), key_id: KeyId.nullable(), key_name: z.string().nullable(), calls: Calls })),
  by_method: z.array(z.object({ method: z.string(), calls: Calls })),
  rows: z.array(z.object({ day: Day, actor_kind: z.string(), key_id: KeyId.nullable(), method: z.string(), calls: Calls })),
})

export const usageRpcs = [
  rpc({
    name: 'get_org_usage',
    domain: 'org-admin',
    access: 'read',
    orgScoped: true,
    summary:
      "API calls of the organization's keys per UTC day, key and method over the last `days` days (default 30, at most 366), today included: totals by day (every day, zeros too), by key and by method, plus the rows. Counts every authenticated call that was not rate limited, this one included. A platform key passes org_id, or omits it for the platform keys' own usage.",
    example: { params: { days: 7 } },
    params: z.strictObject({
      days: z.number().int().min(1).max(366).default(30).describe('How many UTC days back, today included, 1 to 366 (default 30)'),
    }),
    result: UsageReport,
    handler: (ctx) => ctx.usage.report({ orgId: ctx.orgId, days: ctx.params.days, now: (ctx.settings.rateLimits.now ?? Date.now)() }),
  }),
]
