import { z } from 'zod'

/**
 * The webhook events a subscriber can receive (spec "Events"), with the recorded event each one is
 * delivered from, the shape of its `data` and how to build it. The public names are a contract; the domain
 * event types behind them are not. The webhook dispatcher, the cursor feed (GET /api/v1/events) and the
 * published documents read this one list, so a delivery and a feed entry of the same event are identical.
 */
export interface PublicEvent {
  readonly name: string
  readonly emittedWhen: string
  /** The log's event types that produce it; empty while the area producing it is not built yet. */
  readonly from: readonly string[]
  readonly data: z.ZodType
  /** The client the event is about (null: none) and its `data`, from the recorded event's data. */
  readonly build: (source: SourceEvent, context: PublicEventContext) => { client_id: number | null; data: Record<string, unknown> }
}

/** What `build` reads of a recorded event. */
export interface SourceEvent {
  readonly type: string
  readonly data: any
  /** The recorded event's metadata (occurred_at: when it happened), for data that carries the event's time. */
  readonly metadata?: { readonly occurred_at?: string | undefined }
}

export interface PublicEventContext {
  /** BASE_URL when configured: links (status_url) are absolute then, paths otherwise. */
  readonly baseUrl: string | undefined
}

const statusUrl = (jobId: number, context: PublicEventContext) => `${context.baseUrl ?? ''}/api/v1/jobs/${jobId}`
const jobBase = (d: any, context: PublicEventContext) => ({
  job_id: d.job_id,
  kind: d.kind,
  client_id: d.client_id ?? null,
  status_url: statusUrl(d.job_id, context),
})

const Id = z.number().int().positive()

export const PUBLIC_EVENTS: readonly PublicEvent[] = [
  {
    name: 'job.completed',
    emittedWhen: 'A background job finished successfully',
    from: ['JobCompleted'],
    data: z.object({
      job_id: Id,
      kind: z.string(),
      client_id: Id.nullable(),
      result: z.record(z.string(), z.unknown()),
      status_url: z.string(),
    }),
    build: ({ data: d }, context) => ({ client_id: d.client_id ?? null, data: { ...jobBase(d, context), result: d.result ?? {} } }),
  },
  {
    name: 'job.failed',
    emittedWhen: 'A job failed or was failed by the watchdog',
    from: ['JobFailed'],
    data: z.object({
      job_id: Id,
      kind: z.string(),
      client_id: Id.nullable(),
      error: z.string(),
      reason: z.string().nullable().describe('Why it failed, as the job recorded it (e.g. the watchdog)'),
      status_url: z.string(),
    }),
    build: ({ data: d }, context) => ({
      client_id: d.client_id ?? null,
      data: { ...jobBase(d, context), error: String(d.error ?? ''), reason: d.reason == null ? null : String(d.reason) },
    }),
  },
  {
    name: 'job.cancelled',
    emittedWhen: 'A job was cancelled',
    from: ['JobCancelled'],
    data: z.object({ job_id: Id, kind: z.string(), client_id: Id.nullable(), status_url: z.string() }),
    build: ({ data: d }, context) => ({ client_id: d.client_id ?? null, data: jobBase(d, context) }),
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
    build: ({ data: d }) => ({
      client_id: d.client_id,
      data: {
        capture_id: d.capture_id,
        query_id: d.query_id,
        engine: d.engine,
        month: d.month,
        scorecard: d.scorecard,
        new_items: d.opened.length,
        carried_items: d.carried.length,
        resolved_items: d.resolved.length,
      },
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
    build: ({ data: d }) => ({ client_id: d.client_id, data: { month: d.month, files: d.files } }),
  },
  {
    name: 'aeo.item.status_changed',
    emittedWhen: 'A tracker item changed status (update_aeo_item_status)',
    from: ['AeoItemStatusChanged'],
    data: z.object({ item_id: Id, item_key: z.string(), status: z.string(), note: z.string().nullable() }),
    build: ({ data: d }) => ({ client_id: d.client_id, data: { item_id: d.item_id, item_key: d.item_key, status: d.to, note: d.note } }),
  },
  {
    name: 'action_item.status_changed',
    emittedWhen: 'An SEO action item changed status (set_action_item_status, or a job carrying it out)',
    from: ['ActionItemStatusChanged'],
    data: z.object({
      item_id: Id,
      month: z.string().nullable().describe('YYYY-MM, or null for an item without a month'),
      action_type: z.string(),
      page_url: z.string().nullable().describe('The page it is about; null when none'),
      from: z.string().describe('The status before'),
      status: z.string().describe('pending, in_progress, done or skipped'),
      completed_at: z.string().nullable().describe('When it was done (ISO-8601), null otherwise'),
    }),
    build: ({ data: d }) => ({
      client_id: d.client_id,
      data: {
        item_id: d.item_id,
        month: d.month,
        action_type: d.action_type,
        page_url: d.page_url === '' ? null : d.page_url,
        from: d.from,
        status: d.status,
        completed_at: d.completed_at,
      },
    }),
  },
  {
    name: 'site.change_detected',
    emittedWhen: "A crawl of a client's site found a page changed (domain/monitoring/changes: kinds, severity, attribution)",
    from: ['SiteChangeDetected'],
    data: z.object({
      change_id: Id,
      client_id: Id,
      page_id: Id,
      url: z.string(),
      kind: z.string().describe('page_added, page_gone, status_changed, redirect_changed, title_changed, meta_description_changed, …'),
      severity: z.string().describe('high (page gone, noindex added, title lost), medium or low'),
      attribution: z.string().describe('site_edit (an edit this service applied), external or unknown'),
      before: z.string().nullable(),
      after: z.string().nullable(),
      detected_at: z.string().nullable().describe('When the crawl recorded it, ISO-8601 (the envelope’s created_at)'),
    }),
    build: ({ data: d, metadata }) => ({
      client_id: d.client_id,
      data: {
        change_id: d.change_id,
        client_id: d.client_id,
        page_id: d.page_id,
        url: d.url,
        kind: d.kind,
        severity: d.severity,
        attribution: d.attribution,
        before: d.before,
        after: d.after,
        detected_at: metadata?.occurred_at ?? null,
      },
    }),
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
    build: ({ data: d }) => ({ client_id: null, data: { method: d.method, sunset: d.sunset, replacement: d.replacement } }),
  },
  {
    name: 'ping',
    emittedWhen: 'test_webhook / the Test button',
    from: ['WebhookPingRequested'],
    data: z.object({ webhook_id: Id }),
    build: ({ data: d }) => ({ client_id: null, data: { webhook_id: d.webhook_id } }),
  },
]

/** The public event a recorded event type is delivered as (at most one). */
export const PUBLIC_EVENT_BY_SOURCE: ReadonlyMap<string, PublicEvent> = new Map(
  PUBLIC_EVENTS.flatMap((e) => e.from.map((type) => [type, e] as const)),
)

/** The delivery body every event travels in (spec "Events", Delivery request). */
export const WebhookEnvelope = z.object({
  id: Id.describe(
    'The event number: the same in every delivery and redelivery of this event, to every webhook, and in GET /api/v1/events; deduplicate on it. The delivery id is in X-Service-Delivery',
  ),
  event: z.string().describe('The event name (also in X-Service-Event)'),
  created_at: z.string().describe('ISO-8601 timestamp'),
  org_id: Id,
  client_id: Id.nullable(),
  data: z.record(z.string(), z.unknown()),
})
