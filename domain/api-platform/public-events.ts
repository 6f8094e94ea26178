import { z } from 'zod'

/**
 * The webhook events a subscriber can receive (spec "Events"), with the recorded event each one is
 * delivered from and the shape of its `data`. The public names are a contract; the domain event types
 * behind them are not. The webhook dispatcher and the published documents read this one list.
 */
export interface PublicEvent {
  readonly name: string
  readonly emittedWhen: string
  /** The log's event types that produce it; empty while the area producing it is not built yet. */
  readonly from: readonly string[]
  readonly data: z.ZodType
}

const Id = z.number().int().positive()

export const PUBLIC_EVENTS: readonly PublicEvent[] = [
  {
    name: 'job.completed',
    emittedWhen: 'A background job finished successfully',
    from: [],
    data: z.object({ job_id: Id, kind: z.string(), client_id: Id.nullable(), result: z.record(z.string(), z.unknown()), status_url: z.string() }),
  },
  {
    name: 'job.failed',
    emittedWhen: 'A job failed or was failed by the watchdog',
    from: [],
    data: z.object({ job_id: Id, kind: z.string(), client_id: Id.nullable(), error: z.string(), status_url: z.string() }),
  },
  {
    name: 'job.cancelled',
    emittedWhen: 'A job was cancelled',
    from: [],
    data: z.object({ job_id: Id, kind: z.string(), client_id: Id.nullable(), status_url: z.string() }),
  },
  {
    name: 'aeo.capture.ingested',
    emittedWhen: 'An AI-engine answer was captured and analyzed',
    from: ['AeoCaptureTracked'],
    data: z.object({
      capture_id: Id,
      query_id: Id,
      engine: z.string(),
      month: z.string().describe('YYYY-MM'),
      scorecard: z.record(z.string(), z.unknown()),
      new_items: z.number().int().min(0),
      carried_items: z.number().int().min(0),
      resolved_items: z.number().int().min(0),
    }),
  },
  {
    name: 'aeo.report.saved',
    emittedWhen: "A client's monthly AI Visibility report was filed",
    from: ['AeoReportFiled'],
    data: z.object({
      month: z.string().describe('YYYY-MM'),
      files: z.array(z.object({ path: z.string(), content_type: z.string(), bytes: z.number().int(), sha256: z.string() })),
    }),
  },
  {
    name: 'aeo.item.status_changed',
    emittedWhen: 'A tracker item changed status (update_aeo_item_status)',
    from: ['AeoItemStatusChanged'],
    data: z.object({ item_id: Id, item_key: z.string(), status: z.string(), note: z.string().nullable() }),
  },
  {
    name: 'action_item.status_changed',
    emittedWhen: 'An SEO action item changed status',
    from: [],
    data: z.object({ action_type: z.string(), page_url: z.string().nullable(), status: z.string() }),
  },
  {
    name: 'api.deprecation',
    emittedWhen: 'A documented method, tool or event is scheduled for removal (60 days ahead)',
    from: ['ApiDeprecationAnnounced'],
    data: z.object({
      method: z.string(),
      sunset: z.string().describe('YYYY-MM-DD, the day it may be removed'),
      replacement: z.string().nullable(),
    }),
  },
  { name: 'ping', emittedWhen: 'test_webhook / the Test button', from: [], data: z.object({}) },
]

/** The delivery body every event travels in (spec "Events", Delivery request). */
export const WebhookEnvelope = z.object({
  id: Id.describe('The delivery id (also in X-Service-Delivery)'),
  event: z.string().describe('The event name (also in X-Service-Event)'),
  created_at: z.string().describe('ISO-8601 timestamp'),
  org_id: Id,
  client_id: Id.nullable(),
  data: z.record(z.string(), z.unknown()),
})
