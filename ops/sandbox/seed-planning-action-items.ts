import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { addActionItems, closeActionItemMonth, setActionItemStatus, type ActionItemInput } from '../../commands/planning/action-items.js'
import { hourBudgetFor } from '../../commands/planning/cycles.js'
import { actionTypeSpec } from '../../domain/planning/action-items/action-types.js'
import { fixtureMonths, momentIn, SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'

const SITE = SANDBOX_CLIENT.websiteUrl.replace(/\/$/, '')

/** A fictional item as the strategist (an insight's key) or a person (no key) would raise it. */
function item(actionType: string, path: string | null, description: string, key: string | null, impact: number | null): ActionItemInput {
  const spec = actionTypeSpec(actionType)
  return {
    action_type: actionType,
    page_url: path === null ? '' : `${SITE}${path}`,
    description,
    tier: spec?.tier ?? 'B',
    hours: spec?.hours ?? 1,
    impact,
    source: key === null ? { kind: 'person', id: null, by: 'user:sandbox-editor' } : { kind: 'insight', id: null, by: '' },
    source_key: key,
    carried_from_item_id: null,
    job_id: null,
  }
}

/**
 * The sandbox's fictional action items, through the commands, each at its moment: last month's plan (two done,
 * one skipped, two left unfinished), closed at the start of this month with its unfinished items carried over;
 * and this month's plan beside them, one done, one in progress, the rest pending.
 */
export async function seedSandboxActionItems(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const [last, current] = fixtureMonths(now, 2) as [string, string]
  const at = (month: string, index: number): WriteDeps => ({ ...write, clock: () => momentIn(month, index, 8, now) })
  const target = (month: string) => ({ clientId, callerOrgId: orgId, month })

  const lastPlan = await addActionItems(at(last, 0), ctx, target(last), [
    item(
      'title_meta_rewrite',
      '/drain-cleaning',
      'Rewrite the drain cleaning title and meta: 1.8k impressions at 0.7% CTR',
      'insight:drain-ctr',
      74,
    ),
    item('redirect', '/specials-2024', 'Redirect the retired 2024 specials page (404) to the offers page', 'insight:specials-404', 55),
    item(
      'improve_content',
      '/water-heater-repair',
      'Add a tankless section: the page fell from 5 to 12 for "tankless water heater repair austin"',
      'insight:wh-drop',
      68,
    ),
    item(
      'internal_links',
      '/emergency-plumbing',
      'Link the emergency page from the drain and water heater pages',
      'insight:emergency-links',
      41,
    ),
    item('manual', null, 'Ask the owner for photos of the team and the vans for the about page', null, null),
  ])
  const [title, redirect, , , photos] = lastPlan.added as [number, number, number, number, number]
  await setActionItemStatus(at(last, 2), ctx, { ...target(last), itemId: title }, { status: 'done', note: 'Rewritten through a site edit' })
  await setActionItemStatus(at(last, 3), ctx, { ...target(last), itemId: redirect }, { status: 'done' })
  await setActionItemStatus(
    at(last, 5),
    ctx,
    { ...target(last), itemId: photos },
    {
      status: 'skipped',
      note: 'The owner prefers no staff photos online',
    },
  )
  // The cycle closes as the new month starts: the content and links work moves on.
  await closeActionItemMonth(at(current, 0), ctx, {
    ...target(last),
    month: last,
    nextMonth: current,
    budgetHours: await hourBudgetFor(write, clientId, last),
  })

  const currentPlan = await addActionItems(at(current, 1), ctx, target(current), [
    item(
      'title_meta_rewrite',
      '/sewer-line-repair',
      'Rewrite the sewer line repair title: it shows "Home | Rapid Rooter" in results',
      'insight:sewer-title',
      70,
    ),
    item('remove_noindex', '/round-rock-plumber', 'Remove the noindex on the Round Rock page', 'insight:round-rock-noindex', 63),
    item(
      'ai_overview_content',
      '/drain-cleaning',
      'Answer "how much does drain cleaning cost in Austin" on the drain cleaning page',
      'insight:aio-drain-cost',
      52,
    ),
  ])
  const [sewer, noindex] = currentPlan.added as [number, number, number]
  await setActionItemStatus(at(current, 2), ctx, { ...target(current), itemId: sewer }, { status: 'done', note: 'Applied' })
  await setActionItemStatus(at(current, 3), ctx, { ...target(current), itemId: noindex }, { status: 'in_progress' })
}
