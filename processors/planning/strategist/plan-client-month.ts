import { writableClient } from '../../../commands/aeo/capture-facts.js'
import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import type { Position } from '../../../commands/event-store/port.js'
import { addActionItems, closeActionItemMonth, loadClientMonth, type ActionItemInput } from '../../../commands/planning/action-items.js'
import { hourBudgetFor } from '../../../commands/planning/cycles.js'
import { liveItems } from '../../../domain/planning/action-items/client-month.js'
import { candidatesFrom, type Candidate } from '../../../domain/planning/strategist/candidates.js'
import { DESCRIPTION_SYSTEM, descriptionPrompt, parseDescriptions } from '../../../domain/planning/strategist/model-descriptions.js'
import { planMonth } from '../../../domain/planning/strategist/plan.js'
import { TEMPLATE_WRITER, templateDescription } from '../../../domain/planning/strategist/templates.js'
import { clientLedger, cycleFacts } from '../../../projections/planning/cycles/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import type { LanguageModel } from '../../language-model/port.js'
import {
  aeoItemInputs,
  clientName,
  heldSourceKeys,
  insightInputs,
  openMonthsBefore,
} from '../../../projections/planning/strategist/inputs.js'

/**
 * The strategist's work for one client-month, shared by the strategist, bulk_strategist and autopilot jobs:
 *
 * 1. close every earlier month that still holds items and is open, into this month (its unfinished items
 *    are carried over: they come first in the month's hours);
 * 2. read the open SEO insights and AI Visibility items, rank and fit them (domain/planning/strategist);
 * 3. describe the chosen items (the language model, one request for the month; templates otherwise or when
 *    its answer cannot be used);
 * 4. add them in one append (addActionItems: a source key the month holds is never added again).
 *
 * Every step is idempotent, so a re-run (a resumed job, a second run, autopilot after a crash) adds nothing
 * twice: closes are no-ops once recorded, and the month's source keys decide what is new.
 */
export interface PlannerDeps {
  readonly write: WriteDeps
  readonly command: CommandContext
  readonly read: ReadDb
  readonly languageModel: LanguageModel | null
  readonly signal: AbortSignal
  /** Waits until the read models have reached `position`. */
  settle(position: Position | null): Promise<void>
  /** The caller's organization (the client must be one of its own), null for any. */
  readonly orgId: number | null
  /** The job recorded on the items it adds. */
  readonly jobId: number | null
  /** Called as each step starts (progress). */
  onStep?(step: number, total: number, message: string): Promise<void>
}

export const PLAN_STEPS = 4

export interface ClosedMonthResult {
  month: string
  carried: number
  closed_now: boolean
}

export interface PlannedItemResult {
  item_id: number
  source_key: string
  action_type: string
  tier: string
  hours: number
  impact: number
  page_url: string
}

export interface DeferredResult {
  source_key: string
  action_type: string
  hours: number
  impact: number
  reason: 'over_budget' | 'cap'
}

export interface ClientMonthPlanResult {
  client_id: number
  month: string
  closed_months: ClosedMonthResult[]
  /** The month's live items carried over from earlier months (now or by an earlier run). */
  carried_over: number
  /** How many items this run added. */
  added: number
  added_items: PlannedItemResult[]
  /** Findings that have an item already, this month or an earlier one (not added again). */
  existing: number
  deferred: DeferredResult[]
  /** The month's budget (null: none). */
  budget_hours: number | null
  /** Unused hours of the month closed into this one, rolled over (the cycles ledger; 0 without a budget). */
  rolled_over_hours: number
  /** What the plan was fitted to: budget + rolled over (null: no budget, nothing cut but the per-run cap). */
  available_hours: number | null
  /** Hours of the month's live items (skipped ones left out) after this run. */
  planned_hours: number
  /** Who wrote the descriptions: the model's name, or built-in-templates. */
  writer: string
  /** Why the model's descriptions were not used (its failure or invalid answer), else null. */
  writer_fallback: string | null
}

/** The current month, UTC. */

/**
 * The hours the month can hold: the budget in effect (from the log) plus the hours rolled over into it from
 * the month closed into it (the cycles ledger, domain/planning/cycles/rollover.ts: capped at the budget).
 * Read after the closes have settled, so a close made by this run counts. No budget: null (no limit).
 */
async function availableHours(
  deps: PlannerDeps,
  clientId: number,
  month: string,
): Promise<{ budget: number | null; rolledOver: number; available: number | null }> {
  const budget = await hourBudgetFor(deps.write, clientId, month)
  if (budget === null) return { budget, rolledOver: 0, available: null }
  const facts = (await cycleFacts(deps.read, { clientId })).get(clientId)
  const ledger = facts ? clientLedger(facts, month).find((m) => m.month === month) : undefined
  const rolledOver = Math.min(ledger?.rolledOverInHours ?? 0, budget)
  return { budget, rolledOver, available: Math.round((budget + rolledOver) * 100) / 100 }
}

async function describe(
  deps: PlannerDeps,
  clientId: number,
  month: string,
  chosen: readonly Candidate[],
): Promise<{ descriptions: Map<string, string>; writer: string; fallback: string | null }> {
  const templates = () => new Map(chosen.map((c) => [c.source_key, templateDescription(c)]))
  const model = deps.languageModel
  if (!model) return { descriptions: templates(), writer: TEMPLATE_WRITER, fallback: null }
  // Nothing to describe: no request (the writer is still the one that would have written).
  if (chosen.length === 0) return { descriptions: new Map(), writer: model.name, fallback: null }
  let answer: string
  try {
    answer = await model.complete({
      system: DESCRIPTION_SYSTEM,
      prompt: descriptionPrompt(await clientName(deps.read, clientId), month, chosen),
      maxTokens: Math.min(8000, 200 * chosen.length + 200),
      signal: deps.signal,
    })
  } catch (error) {
    deps.signal.throwIfAborted()
    return {
      descriptions: templates(),
      writer: TEMPLATE_WRITER,
      fallback: `${model.name} failed: ${(error as Error).message}`.slice(0, 500),
    }
  }
  const parsed = parseDescriptions(answer, chosen)
  if (!parsed.ok) return { descriptions: templates(), writer: TEMPLATE_WRITER, fallback: `${model.name}: ${parsed.reason}` }
  return { descriptions: parsed.byKey, writer: model.name, fallback: null }
}

export async function planClientMonth(deps: PlannerDeps, clientId: number, month: string): Promise<ClientMonthPlanResult> {
  const step = async (n: number, message: string) => {
    deps.signal.throwIfAborted()
    await deps.onStep?.(n, PLAN_STEPS, message)
  }
  const target = { clientId, callerOrgId: deps.orgId }
  // The client first (another organization's answers not found, a deleted one client_deleted), even when
  // the run turns out to have nothing to write.
  await writableClient(deps.write.store, clientId, deps.orgId)

  await step(0, 'closing earlier months')
  const closedMonths: ClosedMonthResult[] = []
  for (const earlier of await openMonthsBefore(deps.read, clientId, month)) {
    const closed = await closeActionItemMonth(deps.write, deps.command, {
      ...target,
      month: earlier,
      nextMonth: month,
      budgetHours: await hourBudgetFor(deps.write, clientId, earlier),
      jobId: deps.jobId,
    })
    await deps.settle(closed.position)
    closedMonths.push({ month: earlier, carried: closed.carried.length, closed_now: closed.closedNow })
  }

  await step(1, 'reading findings')
  const state = await loadClientMonth(deps.write, clientId, month)
  if (state.closed) throw new Error(`the month ${month} of client ${clientId} is closed: it takes no new items (plan a later month)`)
  const [insights, aeoItems, heldEarlier] = await Promise.all([
    insightInputs(deps.read, clientId),
    aeoItemInputs(deps.read, clientId),
    heldSourceKeys(deps.read, clientId),
  ])
  const candidates = candidatesFrom(insights, aeoItems)

  await step(2, `planning ${candidates.length} findings`)
  const live = liveItems(state)
  const committedHours = live.filter((i) => i.status !== 'skipped').reduce((sum, i) => sum + i.hours, 0)
  const hours = await availableHours(deps, clientId, month)
  // The month's own keys from the log (exact), the other months' from the read model (settled long before).
  const sourceKeys = new Set([...heldEarlier, ...state.bySourceKey.keys()])
  const plan = planMonth(candidates, { sourceKeys, committedHours }, hours.available)

  await step(3, `describing and adding ${plan.chosen.length} items`)
  const written = await describe(deps, clientId, month, plan.chosen)
  deps.signal.throwIfAborted()
  const inputs: ActionItemInput[] = plan.chosen.map((c) => ({
    action_type: c.action_type,
    page_url: c.page_url,
    description: written.descriptions.get(c.source_key) ?? templateDescription(c),
    tier: c.tier,
    hours: c.hours,
    impact: c.impact,
    source: { kind: c.source.kind, id: c.source.id, by: '' },
    source_key: c.source_key,
    carried_from_item_id: null,
    job_id: deps.jobId,
  }))
  const added = inputs.length === 0 ? null : await addActionItems(deps.write, deps.command, { ...target, month }, inputs)
  await deps.settle(added?.position ?? null)
  const addedIds = new Set(added?.added ?? [])
  const addedItems = plan.chosen.flatMap((c) => {
    const id = added?.bySourceKey.get(c.source_key)
    return id === undefined || !addedIds.has(id)
      ? []
      : [
          {
            item_id: id,
            source_key: c.source_key,
            action_type: c.action_type,
            tier: c.tier,
            hours: c.hours,
            impact: c.impact,
            page_url: c.page_url,
          },
        ]
  })
  // A concurrent run may have added some keys between the read and the append: those count as existing.
  const raced = plan.chosen.length - addedItems.length
  return {
    client_id: clientId,
    month,
    closed_months: closedMonths,
    carried_over: live.filter((i) => i.sourceKey?.startsWith('carry:')).length,
    added: addedItems.length,
    added_items: addedItems,
    existing: plan.existing.length + raced,
    deferred: plan.deferred.map((d) => ({
      source_key: d.candidate.source_key,
      action_type: d.candidate.action_type,
      hours: d.candidate.hours,
      impact: d.candidate.impact,
      reason: d.reason,
    })),
    budget_hours: hours.budget,
    rolled_over_hours: hours.rolledOver,
    available_hours: hours.available,
    planned_hours: Math.round((committedHours + addedItems.reduce((s, i) => s + i.hours, 0)) * 100) / 100,
    writer: written.writer,
    writer_fallback: written.fallback,
  }
}
