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
}

/** The schema_version every event is written with today. */
export const CURRENT_SCHEMA_VERSION = 1
