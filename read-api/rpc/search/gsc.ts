import { z } from 'zod'
import { queueGscCapture } from '../../../commands/search/gsc/captures.js'
import { sealGscCredentials } from '../../../commands/search/gsc/credentials.js'
import { removeGscProperty, setGscProperty } from '../../../commands/search/gsc/property.js'
import { GscCredentialsInput } from '../../../domain/search/gsc/credentials.js'
import { GscDate, MAX_SNAPSHOT_DAYS, snapshotPeriod } from '../../../domain/search/gsc/dates.js'
import { GscCadence, GscCaptureTrigger, GscErrorCode } from '../../../domain/search/gsc/events.js'
import { GscPropertyType } from '../../../domain/search/gsc/property.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  captureKeywords,
  capturesOfClient,
  connectedProperty,
  gscPropertyView,
  gscSnapshot,
  lastCompletedCapture,
  visibleGscCapture,
} from '../../../projections/search/gsc/queries.js'
import { ApiError } from '../../errors.js'
import type { ServiceSettings } from '../../settings.js'
import type { ServiceKey } from '../../../commands/secrets/service-key.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'search'

const GscCaptureId = Id.describe('The Search Console capture (an integer id, as run_gsc_capture or list_gsc_keyword_captures answered)')

const PropertyView = z
  .object({
    client_id: ClientId,
    property: z.string().describe('The property as Search Console names it: sc-domain:example.com or https://www.example.com/'),
    property_type: GscPropertyType,
    auth_type: z.enum(['service_account', 'oauth']).describe('How it is read: a service account key, or an OAuth grant (never shown)'),
    service_account_email: z
      .string()
      .nullable()
      .describe('The service account that reads it (add it as a user of the property in Search Console); null for an OAuth grant'),
    cadence: GscCadence,
    connected_at: z.string().describe('When the property was connected (ISO-8601)'),
    updated_at: z.string().describe('When the property or its credentials last changed (ISO-8601)'),
  })
  .describe("The client's Search Console connection; the credentials themselves are never returned")

const CaptureView = z
  .object({
    id: GscCaptureId,
    client_id: ClientId,
    property: z.string().describe('The property captured'),
    start_date: z.string().describe('The first day captured (YYYY-MM-DD, Search Console days)'),
    end_date: z.string().describe('The last day captured (YYYY-MM-DD)'),
    trigger: GscCaptureTrigger,
    status: z
      .enum(['queued', 'running', 'retrying', 'completed', 'failed'])
      .describe('queued, running, retrying (an attempt failed on an outage; next_attempt_at says when it resumes), completed or failed'),
    attempts: z.number().int().describe('Attempts so far (each resumes where the last stopped)'),
    days: z.number().int().describe('Days in the range'),
    days_recorded: z.number().int().describe('Days whose rows are recorded so far'),
    row_count: z.number().int().describe('Rows (query × page × day) recorded so far'),
    error: z
      .object({
        code: GscErrorCode.describe(
          'gsc_unauthorized, gsc_forbidden, gsc_request_refused, gsc_rate_limited, gsc_unavailable, gsc_not_connected, gsc_credentials_unreadable, client_deleted or gsc_capture_interrupted',
        ),
        message: z.string().describe("What went wrong, with the provider's words"),
      })
      .nullable()
      .describe('Why the capture failed, or why its last attempt did (status retrying); null otherwise'),
    queued_at: z.string().describe('When it was queued (ISO-8601)'),
    started_at: z.string().nullable().describe('When the worker first took it up'),
    next_attempt_at: z.string().nullable().describe('When a retrying capture is tried again'),
    finished_at: z.string().nullable().describe('When it completed or failed'),
  })
  .describe('A Search Console capture: Search Analytics rows (query × page × day) of a date range')

const Metrics = z
  .object({
    clicks: z.number().describe('Clicks'),
    impressions: z.number().describe('Impressions'),
    ctr: z.number().describe('clicks / impressions (0–1, four decimals); 0 without impressions'),
    position: z.number().nullable().describe('Impression-weighted average position (two decimals); null without impressions'),
  })
  .describe('Search Console metrics over the rows')

const Coverage = z
  .object({
    start: z.string().describe('First day of the period (YYYY-MM-DD)'),
    end: z.string().describe('Last day of the period'),
    days: z.number().int().describe('Days in the period'),
    covered_days: z.number().int().describe('Days a completed capture covers'),
    uncovered: z
      .array(z.object({ start: z.string().describe('First day'), end: z.string().describe('Last day') }).describe('A run of days'))
      .describe('Days no completed capture covers: not in the numbers (run_gsc_capture for them)'),
    capture_ids: z.array(Id.describe('A capture id')).describe('The completed captures the numbers are read from'),
  })
  .describe('A period and how much of it the captured rows cover')

const CaptureExample = {
  id: 412,
  client_id: 34,
  property: 'sc-domain:rapidrooterplumbing.com',
  start_date: '2026-10-28',
  end_date: '2026-11-24',
  trigger: 'manual' as const,
  status: 'completed' as const,
  attempts: 1,
  days: 28,
  days_recorded: 28,
  row_count: 3184,
  error: null,
  queued_at: '2026-11-27T09:12:03.114Z',
  started_at: '2026-11-27T09:12:04.020Z',
  next_attempt_at: null,
  finished_at: '2026-11-27T09:12:09.877Z',
}

/** The service key that seals credentials; a process without one cannot accept them. */
function serviceKeyOf(settings: ServiceSettings): ServiceKey {
  if (!settings.serviceKey) throw new ApiError('service_unavailable', 'no service key is configured to seal Search Console credentials')
  return settings.serviceKey
}

export const gscRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'set_gsc_property',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Connect a client's Search Console property: the property as Search Console names it (sc-domain:example.com, or a URL prefix " +
      'https://www.example.com/) and the credentials that read it: a service account JSON key (add its client_email as a user of the ' +
      "property) or the organization's OAuth grant (client id, secret and refresh token). The credentials are sealed with the service key " +
      'and never returned. Replaces any property before. cadence weekly (default) captures the last 28 complete days once a week. ' +
      'Returns the connection.',
    params: z.strictObject({
      client_id: ClientId,
      property: z
        .string()
        .max(2048)
        .describe('The property, exactly as Search Console lists it: sc-domain:example.com or https://www.example.com/'),
      credentials: GscCredentialsInput,
      cadence: GscCadence.default('weekly').describe(
        'weekly (default): a capture of the last 28 complete days once a week; off: only run_gsc_capture',
      ),
    }),
    result: PropertyView,
    example: {
      params: {
        client_id: 34,
        property: 'sc-domain:rapidrooterplumbing.com',
        credentials: {
          type: 'service_account',
          client_email: 'rankrelay-gsc@rapid-rooter-seo.iam.gserviceaccount.com',
          private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7…\n-----END PRIVATE KEY-----\n',
          private_key_id: '8c3f0e2a9b1d4c6e7f80a1b2c3d4e5f60718293a',
          project_id: 'rapid-rooter-seo',
        },
      },
      result: {
        client_id: 34,
        property: 'sc-domain:rapidrooterplumbing.com',
        property_type: 'domain',
        auth_type: 'service_account',
        service_account_email: 'rankrelay-gsc@rapid-rooter-seo.iam.gserviceaccount.com',
        cadence: 'weekly',
        connected_at: '2026-11-27T09:10:00.000Z',
        updated_at: '2026-11-27T09:10:00.000Z',
      },
    },
    async handler(ctx) {
      const p = ctx.params
      const credentials = sealGscCredentials(serviceKeyOf(ctx.settings), p.credentials)
      await setGscProperty(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        property: p.property,
        credentials,
        cadence: p.cadence,
      })
      await ctx.settle()
      const row = await connectedProperty(ctx.read, p.client_id)
      if (!row) throw new ApiError('internal_error', 'the property was recorded but is not readable yet')
      return gscPropertyView(row)
    },
  }),
  rpc({
    name: 'get_gsc_property',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's Search Console connection (property, kind of credentials, service account address, cadence); null when none is connected.",
    params: z.strictObject({ client_id: ClientId }),
    result: PropertyView.nullable(),
    example: { params: { client_id: 34 } },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const row = await connectedProperty(ctx.read, client.id)
      return row ? gscPropertyView(row) : null
    },
  }),
  rpc({
    name: 'remove_gsc_property',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Disconnect the client's Search Console property: its credentials are no longer used and no capture is queued; captures already " +
      'taken stay readable. Removing again changes nothing.',
    params: z.strictObject({ client_id: ClientId }),
    result: z.object({ removed: z.boolean().describe('true: this call removed it; false: none was connected') }).describe('The outcome'),
    example: { params: { client_id: 34 }, result: { removed: true } },
    async handler(ctx) {
      const { removed } = await removeGscProperty(ctx.write, ctx.command, { callerOrgId: ctx.orgId, clientId: ctx.params.client_id })
      return { removed }
    },
  }),
  rpc({
    name: 'run_gsc_capture',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Queue a Search Console capture for the client: Search Analytics rows (query × page × day: clicks, impressions, CTR, position) of ' +
      'the range, default the last 28 complete days (ending 3 days ago, for the data lag). end_date at most 2 days ago; start_date at most ' +
      '16 months ago. The capture worker pulls it one day at a time, 25,000 rows per call. When the client already has a capture queued, ' +
      'running or retrying, that one is returned (created false). 409 gsc_not_connected without a property.',
    params: z.strictObject({
      client_id: ClientId,
      start_date: GscDate.optional().describe('First day (YYYY-MM-DD); default 27 days before end_date'),
      end_date: GscDate.optional().describe('Last day (YYYY-MM-DD); default 3 days ago'),
    }),
    result: z
      .object({
        created: z.boolean().describe('true: queued by this call; false: the open capture returned instead'),
        capture: CaptureView,
      })
      .describe('The capture queued, or the open one'),
    example: {
      params: { client_id: 34 },
      result: {
        created: true,
        capture: { ...CaptureExample, status: 'queued', attempts: 0, days_recorded: 0, row_count: 0, started_at: null, finished_at: null },
      },
    },
    async handler(ctx) {
      const p = ctx.params
      const queued = await queueGscCapture(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        start: p.start_date,
        end: p.end_date,
        trigger: 'manual',
      })
      await ctx.settle()
      if (queued.captureId === null) throw new ApiError('internal_error', 'no capture was queued')
      return { created: queued.created, capture: await visibleGscCapture(ctx.read, ctx.orgId, queued.captureId) }
    },
  }),
  rpc({
    name: 'get_gsc_capture',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One Search Console capture: its range, status, progress (days and rows recorded) and, when it failed, the coded error.',
    params: z.strictObject({ capture_id: GscCaptureId }),
    result: CaptureView,
    example: { params: { capture_id: 412 }, result: CaptureExample },
    handler: async (ctx) => visibleGscCapture(ctx.read, ctx.orgId, ctx.params.capture_id),
  }),
  rpc({
    name: 'list_gsc_keyword_captures',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's Search Console captures, newest first, whatever their status (limit default 20).",
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(CaptureView).describe('Captures, newest first'),
    paginated: { maxLimit: 100, defaultLimit: 20 },
    example: { params: { client_id: 34 }, result: [CaptureExample] },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return capturesOfClient(ctx.read, client.id, ctx.page!)
    },
  }),
  rpc({
    name: 'get_last_gsc_keyword_capture',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's latest completed Search Console capture, or the latest before before_id (to step back through them); null when there is none.",
    params: z.strictObject({
      client_id: ClientId,
      before_id: Id.optional().describe('Only captures with a smaller id (the one before this capture)'),
    }),
    result: CaptureView.nullable(),
    example: { params: { client_id: 34 }, result: CaptureExample },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return lastCompletedCapture(ctx.read, client.id, ctx.params.before_id)
    },
  }),
  rpc({
    name: 'get_gsc_capture_keywords',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A capture's queries over its whole range, most clicks first: clicks, impressions, CTR, impression-weighted position, how many " +
      'pages showed, and the page with the most clicks. A capture still running answers what it has so far.',
    params: z.strictObject({ capture_id: GscCaptureId }),
    result: z
      .array(
        z
          .object({
            query: z.string().describe('The search query'),
            ...Metrics.shape,
            pages: z.number().int().describe('Pages that showed for it'),
            top_page: z.string().describe('The page with the most clicks for it (then impressions)'),
          })
          .describe('A query of the capture'),
      )
      .describe('Queries, most clicks first'),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    example: {
      params: { capture_id: 412 },
      result: [
        {
          query: 'drain cleaning austin',
          clicks: 212,
          impressions: 4810,
          ctr: 0.0441,
          position: 4.37,
          pages: 2,
          top_page: 'https://rapidrooterplumbing.com/drain-cleaning/',
        },
      ],
    },
    async handler(ctx) {
      const capture = await visibleGscCapture(ctx.read, ctx.orgId, ctx.params.capture_id)
      return captureKeywords(ctx.read, capture.id, ctx.page!)
    },
  }),
  rpc({
    name: 'get_gsc_snapshot',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Search Console over a period, from the captured rows: clicks, impressions, CTR and impression-weighted position for the site ' +
      '(level site), per page (page) or per query (query), with the previous period of equal length beside it. Each day is read from ' +
      'the latest completed capture covering it; days no capture covers count for nothing and are listed in period.uncovered ' +
      `(and previous_period.uncovered). Rows: the period's top keys by clicks, then impressions (limit, default 100). At most ${MAX_SNAPSHOT_DAYS} days.`,
    params: z.strictObject({
      client_id: ClientId,
      period_start: GscDate.describe('First day of the period (YYYY-MM-DD)'),
      period_end: GscDate.describe('Last day of the period (YYYY-MM-DD)'),
      level: z.enum(['site', 'page', 'query']).describe('site: totals only; page: per page URL; query: per search query'),
      limit: z.number().int().min(1).max(1000).default(100).describe('Rows at most, for levels page and query (1–1000, default 100)'),
    }),
    result: z
      .object({
        client_id: ClientId,
        level: z.enum(['site', 'page', 'query']).describe('The level asked for'),
        period: Coverage,
        previous_period: Coverage,
        totals: z
          .object({ current: Metrics, previous: Metrics })
          .describe('The whole site over the period and over the previous period (sums of the captured query × page rows)'),
        rows: z
          .array(
            z
              .object({
                key: z.string().describe('The page URL (level page) or the query (level query)'),
                current: Metrics,
                previous: Metrics.nullable().describe('The same key over the previous period; null when it had no impressions then'),
              })
              .describe('One page or query'),
          )
          .describe('Per page or query (empty for level site)'),
      })
      .describe('The snapshot'),
    example: { params: { client_id: 34, period_start: '2026-10-28', period_end: '2026-11-24', level: 'query', limit: 10 } },
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      return gscSnapshot(ctx.read, client.id, snapshotPeriod(p.period_start, p.period_end), p.level, p.limit)
    },
  }),
]
