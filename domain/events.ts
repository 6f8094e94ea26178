import type { z } from 'zod'
import { aeoCaptureEventSchemas } from './aeo/captures/events.js'
import { aeoQuestionEventSchemas } from './aeo/questions/events.js'
import { aeoReportEventSchemas } from './aeo/reports/events.js'
import { aeoAgentEventSchemas, aeoCadenceEventSchemas, aeoRunEventSchemas } from './aeo/runs/events.js'
import { aeoTrackerEventSchemas } from './aeo/tracker/events.js'
import { apiPlatformEventSchemas } from './api-platform/events.js'
import { apiKeyEventSchemas } from './api-keys/events.js'
import { clientEventSchemas, clientIdentityEventSchemas, clientSlugEventSchemas } from './clients/events.js'
import { orgExportEventSchemas } from './exports/events.js'
import { jobEventSchemas, jobSlotEventSchemas } from './jobs/events.js'
import { keywordEventSchemas } from './keywords/events.js'
import { adCopyEventSchemas } from './ad-copy/events.js'
import { oauthEventSchemas } from './oauth/events.js'
import { organizationEventSchemas } from './organizations/events.js'
import { pageEventSchemas, pageSnapshotEventSchemas } from './pages/events.js'
import { platformEventSchemas } from './platform/events.js'
import { sandboxEventSchemas } from './sandbox/events.js'
import { siteEditEventSchemas } from './site-edits/events.js'
import { webhookDeliveryEventSchemas, webhookEventSchemas } from './webhooks/events.js'
import { userEmailEventSchemas, userEventSchemas } from './people/events.js'
import { ssoProviderEventSchemas, ssoSignInEventSchemas, ssoUserEventSchemas } from './sso/events.js'
import { samlProviderEventSchemas } from './sso/saml-events.js'
import { searchEventSchemas } from './search/events.js'
import { monitoringEventSchemas } from './monitoring/events.js'
import { planningEventSchemas } from './planning/events.js'
import { publishingEventSchemas } from './publishing/events.js'
import { contentEventSchemas } from './content/events.js'

/**
 * Every event type the domain can record, with the zod schema of its data at the type's current
 * schema_version. The command handler validates against it before appending, so nothing malformed ever
 * enters the log. Released schemas are never edited in place: a change is a new schema_version plus an
 * upcaster (domain/upcasters.ts) that lifts the old data on read. Kept at its precise type (no widening to
 * a record) so that `AnyEvent` below is the discriminated union of every event.
 */
export const eventSchemas = {
  ...organizationEventSchemas,
  ...apiKeyEventSchemas,
  ...clientEventSchemas,
  ...clientSlugEventSchemas,
  ...clientIdentityEventSchemas,
  ...platformEventSchemas,
  ...aeoQuestionEventSchemas,
  ...aeoCadenceEventSchemas,
  ...aeoRunEventSchemas,
  ...aeoAgentEventSchemas,
  ...aeoCaptureEventSchemas,
  ...aeoTrackerEventSchemas,
  ...aeoReportEventSchemas,
  ...apiPlatformEventSchemas,
  ...sandboxEventSchemas,
  ...jobEventSchemas,
  ...jobSlotEventSchemas,
  ...keywordEventSchemas,
  ...adCopyEventSchemas,
  ...pageEventSchemas,
  ...pageSnapshotEventSchemas,
  ...siteEditEventSchemas,
  ...webhookEventSchemas,
  ...webhookDeliveryEventSchemas,
  ...orgExportEventSchemas,
  ...userEventSchemas,
  ...userEmailEventSchemas,
  ...ssoProviderEventSchemas,
  ...ssoSignInEventSchemas,
  ...ssoUserEventSchemas,
  ...samlProviderEventSchemas,
  ...oauthEventSchemas,
  ...searchEventSchemas,
  ...monitoringEventSchemas,
  ...planningEventSchemas,
  ...publishingEventSchemas,
  ...contentEventSchemas,
} as const

/** The name of every event type the domain records. */
export type EventType = keyof typeof eventSchemas

/** The data of an event of type T, as its current schema outputs it. */
export type EventData<T extends EventType> = z.output<(typeof eventSchemas)[T]>

/** Any event of the domain: `switch (event.type)` narrows `event.data`. */
export type AnyEvent = { [T in EventType]: { readonly type: T; readonly data: EventData<T> } }[EventType]

/** True for a type the domain knows (the log may hold others: tests and tools append arbitrary types). */
export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventSchemas, type)
}

/** The current schema of a type, or undefined for a type the domain does not know. */
export function schemaOf(type: string): z.ZodType | undefined {
  return isEventType(type) ? eventSchemas[type] : undefined
}
