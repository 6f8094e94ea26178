/**
 * The auditor's vocabulary (get_entity_changes): what an event did to its record, derived from the event type
 * by the one table below. Types are PastTense and area-prefixed (CONTRIBUTING), so the verb at the end says
 * it; the table is read top to bottom and the first pattern matching the type wins.
 */
export const ENTITY_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'restored',
  'status_changed',
  'linked',
  'unlinked',
  'recorded',
  'other',
] as const
export type EntityAction = (typeof ENTITY_ACTIONS)[number]

/** The actions a caller may filter by (`other` is only what no rule names: a type the domain does not know). */
export const FILTERABLE_ACTIONS = ENTITY_ACTIONS.filter((a) => a !== 'other') as Exclude<EntityAction, 'other'>[]

export const ACTION_TABLE: readonly (readonly [pattern: RegExp, action: EntityAction])[] = [
  // Whole types whose last word would say something else.
  [/^KeywordPrimaryPageSet$/, 'linked'],
  [/^PageIntentOverrideCleared$/, 'updated'],
  [/^(PageIntentsRequested|KeywordMetricsRefreshRequested|WebhookPingRequested|WebhookRedeliveryRequested)$/, 'recorded'],
  [/^JobCancelRequested$/, 'status_changed'],
  [/^(PagesDeactivated|ClientStatusChanged)$/, 'status_changed'],
  [/^AeoQuestionsMerged$/, 'deleted'],
  [/^(AeoRunClaimed|AeoRunClaimExpired|MetaOptimizationStaged)$/, 'status_changed'],
  [/^(JobRequested|ClientCooldownSet)$/, 'created'],
  [/^ClientAddedToGroup$/, 'linked'],
  [/^ClientRemovedFromGroup$/, 'unlinked'],
  [/^ClientImageStored$/, 'recorded'], // an image's first version or a new one, recorded alike
  // By the verb the type ends with.
  [/Restored$/, 'restored'],
  [/StatusChanged$/, 'status_changed'],
  [/Associated$/, 'linked'],
  [/Dissociated$/, 'unlinked'],
  [/(Added|Created|Registered|Claimed|Invited|Proposed|Staged|Raised|Queued|Issued|Reserved|Bootstrapped)$/, 'created'],
  [/(Deleted|Removed|Revoked|Released|Expired|Cleared|Pruned)$/, 'deleted'],
  [
    /(Started|Completed|Failed|Cancelled|Interrupted|Applied|RolledBack|Approved|Rejected|Resolved|Disabled|Expired|LockedOut|Enrolled|Planned|Closed|Retired|Exported|Pushed)$/,
    'status_changed',
  ],
  [/(Updated|Set|Changed|Renamed|Overridden|Rotated|Reanalyzed|Classified|Rebuilt|Merged|Refreshed|Tracked|Provisioned\w*)$/, 'updated'],
  [
    /(Recorded|Ingested|Detected|Filed|Produced|Progressed|Attempted|Seen|Read|Rendered|Seeded|Reset|SignedIn|SignedOut|SignedInWithSso|Used|Exchanged|Announced|Taken|Requested|Sso)$/,
    'recorded',
  ],
]

/** What an event of this type did to its record; `other` for a type no rule names. */
export function actionOf(eventType: string): EntityAction {
  for (const [pattern, action] of ACTION_TABLE) if (pattern.test(eventType)) return action
  return 'other'
}

/** The event types among `types` whose action is one of `actions`. */
export function typesWithActions(types: readonly string[], actions: ReadonlySet<EntityAction>): string[] {
  return types.filter((type) => actions.has(actionOf(type)))
}
