import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { GscAuthType } from './credentials.js'
import { GscDate } from './dates.js'
import { GscPropertyType, PROPERTY_MAX_LENGTH } from './property.js'

/**
 * Search Console: a client's property and credentials, and its captures, in two kinds of stream.
 * `gsc_property-<client_id>` holds the connection and the decision to queue each capture (so "one open
 * capture per client" and the weekly cadence are each one decision); `gsc_capture-<capture_id>` holds one
 * capture's attempts and rows, so a capture's rows never make the property's stream long.
 */

/** How often a capture is queued without being asked: weekly (the last 28 complete days, once a week) or off. */
export const GscCadence = z
  .enum(['weekly', 'off'])
  .describe('weekly: a capture of the last 28 complete days once a week; off: only run_gsc_capture')
export type GscCadence = z.infer<typeof GscCadence>

/** set_gsc_property: the client's property and how it is read (replacing any before). */
export const GscPropertySet = z.object({
  client_id: Id,
  property: z.string().min(1).max(PROPERTY_MAX_LENGTH),
  property_type: GscPropertyType,
  auth_type: GscAuthType,
  /** The service account's address (the user the agency adds to the property); null for an OAuth grant. */
  service_account_email: z.string().max(320).nullable(),
  /**
   * The credentials as JSON sealed with the service key (commands/secrets/service-key.ts); never in a read
   * model. null: none were given (the sandbox's fictional property), and a capture fails gsc_not_connected.
   */
  sealed_credentials: z.string().max(20_000).nullable(),
  cadence: GscCadence,
})

/** remove_gsc_property: the client no longer reads Search Console; its captures stay. */
export const GscPropertyRemoved = z.object({ client_id: Id })

export const GscCaptureTrigger = z.enum(['manual', 'cadence']).describe('manual (run_gsc_capture) or cadence (the weekly capture)')

/** run_gsc_capture (or the weekly cadence): a capture of these days is queued for the capture worker. */
export const GscCaptureQueued = z.object({
  client_id: Id,
  capture_id: Id,
  property: z.string().min(1).max(PROPERTY_MAX_LENGTH),
  start_date: GscDate,
  end_date: GscDate,
  trigger: GscCaptureTrigger,
})

/** The coded reasons a capture, or one attempt of it, fails: what a capture shows in `error.code`. */
export const GscErrorCode = z.enum([
  /** The token endpoint or the API refused the credentials (a deleted key, a revoked grant): HTTP 400 invalid_grant, 401. */
  'gsc_unauthorized',
  /** The credentials are fine but may not read this property (the service account is not a user of it): HTTP 403. */
  'gsc_forbidden',
  /** The API refused the request itself (HTTP 400/404 from the API: a property name that does not exist). */
  'gsc_request_refused',
  /** Quota: HTTP 429 still answered after every retry. */
  'gsc_rate_limited',
  /** 5xx, timeouts and network errors still failing after every retry. */
  'gsc_unavailable',
  /** The client has no property (removed meanwhile) or no credentials to read it with. */
  'gsc_not_connected',
  /** The sealed credentials do not open under this service's key (SERVICE_ENCRYPTION_KEY changed). */
  'gsc_credentials_unreadable',
  /** The client was deleted before the capture ran. */
  'client_deleted',
  /** The worker stopped on an error of its own (logged) in the capture's every attempt. */
  'gsc_capture_interrupted',
])
export type GscErrorCode = z.infer<typeof GscErrorCode>

export const GscError = z.object({ code: GscErrorCode, message: z.string().max(1000) })
export type GscError = z.infer<typeof GscError>

/** The capture worker took the capture up (attempt 1) or again after a failed attempt. */
export const GscCaptureStarted = z.object({
  client_id: Id,
  capture_id: Id,
  property: z.string().min(1).max(PROPERTY_MAX_LENGTH),
  start_date: GscDate,
  end_date: GscDate,
  attempt: z.number().int().min(1),
})

export const GSC_TEXT_MAX_LENGTH = 2048

/** One Search Analytics row of a day (query × page), as the API gave it. */
export const GscRow = z.object({
  query: z.string().max(GSC_TEXT_MAX_LENGTH),
  page: z.string().max(GSC_TEXT_MAX_LENGTH),
  clicks: z.number().int().min(0),
  impressions: z.number().int().min(0),
  /** clicks / impressions, 0–1. */
  ctr: z.number().min(0).max(1),
  /** The average top position of the page for the query that day (1 = first). */
  position: z.number().min(0),
})
export type GscRow = z.infer<typeof GscRow>

/** Rows per event: a page of the API (up to 25,000 rows) is recorded as up to five events in one append. */
export const GSC_ROWS_PER_EVENT = 5000

/**
 * Rows of one day, in the API's order: `start_row` is the API's startRow of the first of the `api_rows`
 * rows this event covers (the worker resumes after the last), `rows` those of them not recorded before in
 * the capture (a row whose query × page × date it already has is left out), numbered from `first_row_no`.
 * `day_complete`: the API has no more rows for the day.
 */
export const GscRowsRecorded = z.object({
  client_id: Id,
  capture_id: Id,
  date: GscDate,
  start_row: z.number().int().min(0),
  api_rows: z.number().int().min(0).max(GSC_ROWS_PER_EVENT),
  first_row_no: z.number().int().min(0),
  day_complete: z.boolean(),
  rows: z.array(GscRow).max(GSC_ROWS_PER_EVENT),
})

/** An attempt failed with a retryable error (an outage, a quota): the capture is tried again from where it stopped at `retry_at`. */
export const GscCaptureAttemptFailed = z.object({
  client_id: Id,
  capture_id: Id,
  attempt: z.number().int().min(1),
  error: GscError,
  retry_at: z.string().datetime(),
})

/** Every day of the range is recorded. */
export const GscCaptureCompleted = z.object({
  client_id: Id,
  capture_id: Id,
  row_count: z.number().int().min(0),
  days: z.number().int().min(1),
})

/** The capture stops for good: a refusal (401, 403) at once, an outage once its attempts are used up. */
export const GscCaptureFailed = z.object({
  client_id: Id,
  capture_id: Id,
  attempt: z.number().int().min(0),
  error: GscError,
})

export const gscEventSchemas = {
  GscPropertySet,
  GscPropertyRemoved,
  GscCaptureQueued,
  GscCaptureStarted,
  GscRowsRecorded,
  GscCaptureAttemptFailed,
  GscCaptureCompleted,
  GscCaptureFailed,
} as const

type Schemas = typeof gscEventSchemas
export type GscEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type GscPropertyEvent = Extract<GscEvent, { type: 'GscPropertySet' | 'GscPropertyRemoved' | 'GscCaptureQueued' }>
export type GscCaptureEvent = Exclude<GscEvent, GscPropertyEvent>
