import { PUBLIC_EVENTS } from '../api-platform/public-events.js'

/**
 * The event names a webhook may subscribe to: every public event but `ping`, which only test_webhook sends
 * (to the one webhook tested, whatever its list).
 */
export const SUBSCRIBABLE_EVENTS: readonly string[] = PUBLIC_EVENTS.map((e) => e.name).filter((name) => name !== 'ping')

/** Whether a webhook with this event list (null: all) receives the event. */
export const subscribesTo = (events: readonly string[] | null, name: string) => events === null || events.includes(name)
