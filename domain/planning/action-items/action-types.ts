import type { ActionItemTier } from './events.js'

/**
 * The action types the service itself raises and knows how to carry out. action_type is free text (a
 * person may add any), but these are the ones the strategist plans and execute_tier_a / fulfill_selected
 * perform: an `automatable` type is done by staging (and, per the client's setting, applying) a site edit.
 */
export interface ActionTypeSpec {
  readonly tier: ActionItemTier
  /** Hours a person would spend, the estimate an item starts with. */
  readonly hours: number
  /** The service can carry it out as a site edit. */
  readonly automatable: boolean
  /** One line for the guide. */
  readonly summary: string
}

export const ACTION_TYPES = {
  title_meta_rewrite: {
    tier: 'A',
    hours: 0.5,
    automatable: true,
    summary: "Rewrite a page's title and meta description (low CTR, missing title)",
  },
  redirect: { tier: 'A', hours: 0.5, automatable: true, summary: 'Redirect a gone page (4xx/5xx) to the closest live page' },
  internal_links: { tier: 'A', hours: 1, automatable: true, summary: 'Link to a page that lost rank from related pages of the site' },
  create_page: { tier: 'A', hours: 3, automatable: true, summary: 'Draft a page for a keyword no page serves' },
  remove_noindex: { tier: 'B', hours: 0.5, automatable: false, summary: 'Remove a noindex a page should not have' },
  improve_content: { tier: 'B', hours: 2, automatable: false, summary: 'Strengthen a page that dropped in rank' },
  resolve_cannibalization: { tier: 'B', hours: 2, automatable: false, summary: 'Merge or differentiate two pages competing for one query' },
  ai_overview_content: {
    tier: 'B',
    hours: 2,
    automatable: false,
    summary: "Answer the question Google's AI Overview shows, so it can cite the client",
  },
  ai_visibility: { tier: 'B', hours: 1.5, automatable: false, summary: 'Act on an AI Visibility tracker item (its tier is the item’s)' },
  manual: { tier: 'B', hours: 1, automatable: false, summary: 'Work a person added by hand' },
} as const satisfies Record<string, ActionTypeSpec>

export type KnownActionType = keyof typeof ACTION_TYPES

export function actionTypeSpec(actionType: string): ActionTypeSpec | undefined {
  return Object.hasOwn(ACTION_TYPES, actionType) ? ACTION_TYPES[actionType as KnownActionType] : undefined
}

/** Whether execute_tier_a / fulfill_selected can carry out an item of this type. */
export const isAutomatable = (actionType: string): boolean => actionTypeSpec(actionType)?.automatable ?? false
