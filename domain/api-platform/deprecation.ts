import type { Aggregate } from '../shared/aggregate.js'
import type { ApiPlatformEvent } from './events.js'

/** Spec Versioning 4: a method is retired only after this much notice. */
export const DEPRECATION_NOTICE_DAYS = 60
const DAY_MS = 86_400_000

export const deprecationStream = (method: string): string => `api_deprecation-${method}`

export interface DeprecationNotice {
  readonly method: string
  /** YYYY-MM-DD (UTC): the day the method may be removed (the Sunset header's date, 00:00 UTC). */
  readonly sunset: string
  readonly replacement: string | null
  /** YYYY-MM-DD: when the method was deprecated. */
  readonly since: string
}

/** The Deprecation date when none was declared: the start of the notice period. */
export function defaultSince(sunset: string): string {
  return new Date(Date.parse(`${sunset}T00:00:00Z`) - DEPRECATION_NOTICE_DAYS * DAY_MS).toISOString().slice(0, 10)
}

/** True from DEPRECATION_NOTICE_DAYS before the sunset (00:00 UTC) onwards. */
export function noticeDue(sunset: string, now: Date): boolean {
  return now.getTime() >= Date.parse(`${sunset}T00:00:00Z`) - DEPRECATION_NOTICE_DAYS * DAY_MS
}

export interface DeprecationState {
  readonly announced: boolean
}

export type DeprecationCommand = { type: 'AnnounceDeprecation'; notice: DeprecationNotice; now: Date }

/**
 * One stream per method: announcing twice (a restart, a second API process, a periodic re-check) decides
 * nothing the second time, and the append's expected revision makes concurrent announcers agree.
 */
export const apiDeprecation: Aggregate<DeprecationState, DeprecationCommand, ApiPlatformEvent, string> = {
  streamOf: deprecationStream,
  initialState: () => ({ announced: false }),
  evolve: (_state, event) => {
    switch (event.type) {
      case 'ApiDeprecationAnnounced':
        return { announced: true }
    }
  },
  decide(command, state) {
    if (state.announced || !noticeDue(command.notice.sunset, command.now)) return []
    const { method, sunset, replacement, since } = command.notice
    return [{ type: 'ApiDeprecationAnnounced', data: { method, sunset, replacement, since } }]
  },
}
