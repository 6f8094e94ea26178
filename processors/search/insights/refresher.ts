import type { DecodedEvent } from '../../../commands/event-store/decode.js'
import type { EventStore, Position } from '../../../commands/event-store/port.js'
import { refreshSeoInsights, type RefreshResult } from '../../../commands/search/insights/insights.js'
import type { WriteDeps } from '../../../commands/command-handler.js'
import type { EventType } from '../../../domain/events.js'
import { insightReads } from '../../../projections/search/insights/reads.js'
import type { ReadDb } from '../../../projections/tables.js'
import type { ProjectionWatermark } from '../../../projections/watermark.js'
import { aboutSandbox } from '../../sandbox-fiction.js'
import { causedBy, isSettledRefusal } from './event-context.js'
import type { Logger } from 'pino'

export const INSIGHT_REFRESHER_NAME = 'seo_insight_refresher'
const ACTOR_ID = 'seo-insights'
/** How long the refresher waits for the read models before it tries the event again. */
const READ_MODEL_WAIT_MS = 30_000

/**
 * The events after which a client's insights may have changed: ranks recorded, a Search Console capture
 * completed, keyword ↔ page links, keywords and pages changed, a crawl that found a page changed (a site
 * change: page_problem), AI Visibility answers ingested. Each names its client in `client_id`.
 */
export const INSIGHT_TRIGGERS: readonly EventType[] = [
  'KeywordRanksRecorded',
  'GscCaptureCompleted',
  'KeywordPageAssociated',
  'KeywordPrimaryPageSet',
  'KeywordPageDissociated',
  'KeywordAdded',
  'KeywordDeleted',
  'KeywordRestored',
  'PageAdded',
  'PageUpdated',
  'PagesDeactivated',
  'AeoCaptureIngested',
  'SiteChangeDetected',
]

export interface RefresherDeps {
  readonly write: WriteDeps
  readonly store: EventStore
  readonly read: ReadDb
  readonly watermark: Pick<ProjectionWatermark, 'waitFor'>
  readonly log: Logger
}

function clientOf(event: DecodedEvent): number | null {
  const data = event.data as { client_id?: unknown }
  return typeof data.client_id === 'number' ? data.client_id : null
}

/**
 * Refreshes a client's insights after an event about it. A refresh reads the read models at the log's head
 * (it waits for them to get there), so every event of that client up to that head is already reflected:
 * the refresher remembers, per client, the head it refreshed at, and skips the client's events up to it.
 * A rank check of a thousand rows is thus one refresh, not twenty. (A restart forgets and refreshes once
 * more, which records nothing new.)
 */
export function insightRefresher(deps: RefresherDeps): { handle(event: DecodedEvent): Promise<RefreshResult | null> } {
  const refreshedAt = new Map<number, Position>()
  return {
    async handle(event) {
      const clientId = clientOf(event)
      if (clientId === null || (await aboutSandbox(deps.store, event))) return null
      const seen = refreshedAt.get(clientId)
      if (seen !== undefined && deps.store.comparePositions(event.position, seen) <= 0) return null
      const head = (await deps.store.headPosition()) ?? event.position
      if (!(await deps.watermark.waitFor(head, READ_MODEL_WAIT_MS))) {
        throw new Error(`the read models did not reach the log's head in ${READ_MODEL_WAIT_MS} ms (after ${event.type} ${event.id})`)
      }
      try {
        const result = await refreshSeoInsights(deps.write, causedBy(ACTOR_ID, event), {
          clientId,
          callerOrgId: null,
          reads: insightReads(deps.read),
        })
        refreshedAt.set(clientId, head)
        if (result.raised > 0 || result.resolved > 0) {
          deps.log.info(
            { client_id: clientId, raised: result.raised, resolved: result.resolved, after: event.type },
            'seo insights refreshed',
          )
        }
        return result
      } catch (error) {
        if (!isSettledRefusal(error)) throw error
        deps.log.warn({ client_id: clientId, code: error.code, after: event.type }, 'seo insights not refreshed')
        return null
      }
    },
  }
}
