import { setActionItemStatus } from '../../../commands/planning/action-items.js'
import { applySiteEdit, stageSiteEdit } from '../../../commands/site-edits.js'
import type { ClientState } from '../../../domain/clients/client.js'
import type { ActionItemStatus } from '../../../domain/planning/action-items/events.js'
import { DomainError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../../projections/tables.js'
import { itemPayloadPrefix, planItemEdits, REDIRECT, type CarryContext, type ItemToCarry } from './item-edits.js'

/**
 * Carrying out one action item (execute_tier_a and fulfill_selected): its site edits are staged (item-edits.ts),
 * applied when the client's setting `auto_apply_site_edits` is on, and the item moves in_progress (staged) and
 * done (every edit applied, `site_edit_id` the first). Order, for a crash anywhere: stage → apply → status.
 * A resumed job (or a later one, when the first died before the status) finds the edits staged for the item
 * (the payload's action_item_id) and stages none twice; an edit already applied is not applied again; setting a status again changes nothing.
 *
 * - A redirect is applied (when the setting is on) only for a client whose WordPress site is connected: the site
 *   publisher creates it through the Redirection plugin. Without a connection nothing would reach the site, so it
 *   stays staged and the item in_progress, with a note for a person to set it up there (list_redirects shows it).
 * - An apply refused by a cooldown that holds publishing back (409 client_in_cooldown) leaves the edit
 *   staged and the item in_progress, saying so; so does a publisher failure (its code in the note).
 */
export const AUTO_APPLY_SETTING = 'auto_apply_site_edits'
const TRUE_VALUES = new Set(['true', '1', 'yes', 'on'])

/** Whether the client's setting asks for staged edits to be applied at once (default: no, staged only). */
export const autoApplies = (owner: ClientState): boolean => TRUE_VALUES.has((owner.settings[AUTO_APPLY_SETTING] ?? '').trim().toLowerCase())

export interface EditOutcome {
  item_id: number
  edit_id: number
  operation: string
  page_url: string
  status: 'proposed' | 'applied'
}

export type ItemOutcome =
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'staged' | 'applied'; readonly edits: EditOutcome[]; readonly note: string }

interface StagedEdit {
  readonly id: number
  readonly jobId: number | null
  readonly operation: string
  readonly pageId: number | null
  readonly pageUrl: string
  status: string
}

/**
 * The edits staged for the item and not rolled back, oldest first: by this job's earlier attempt, or by a job
 * that died between staging and moving the item in_progress (its edit is reused, not staged again). Every
 * payload item-edits.ts writes starts with the item's id, so the match is on that prefix.
 */
export async function editsOfItem(read: ReadDb, clientId: number, itemId: number): Promise<StagedEdit[]> {
  const rows = await read
    .selectFrom('site_edits')
    .select(['id', 'job_id', 'operation', 'page_id', 'page_url', 'status'])
    .where('client_id', '=', clientId)
    .where('payload', 'like', `${itemPayloadPrefix(itemId)}%`)
    .where('status', '!=', 'rolled_back')
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ id: r.id, jobId: r.job_id, operation: r.operation, pageId: r.page_id, pageUrl: r.page_url, status: r.status }))
}

/** Whether the service staged edits for the item: an item in_progress with them is continued (applied, done), not re-planned. */
export async function hasEdits(read: ReadDb, clientId: number, itemId: number): Promise<boolean> {
  return (await editsOfItem(read, clientId, itemId)).length > 0
}

type Ctx = CarryContext

async function setStatus(ctx: Ctx, owner: ClientState, item: ItemToCarry, status: ActionItemStatus, note: string, editId: number) {
  const { position } = await setActionItemStatus(
    ctx.write,
    ctx.command,
    { clientId: owner.id, callerOrgId: ctx.job.orgId, month: item.month, itemId: item.itemId },
    { status, note, siteEditId: editId },
  )
  await ctx.settle(position)
}

const ids = (edits: readonly StagedEdit[]) => edits.map((e) => `#${e.id}`).join(', ')

/** Applies the edits not applied yet; answers why not all are (null: all applied). */
async function applyAll(ctx: Ctx, edits: StagedEdit[]): Promise<string | null> {
  const publisher = ctx.sitePublisher
  for (const edit of edits) {
    if (edit.status === 'applied') continue
    ctx.signal.throwIfAborted()
    try {
      const { position } = await applySiteEdit(ctx.write, ctx.command, publisher, {
        editId: edit.id,
        visibleTo: ctx.job.orgId,
        approvedBy: `auto_apply_site_edits (job ${ctx.job.jobId})`,
      })
      await ctx.settle(position)
      edit.status = 'applied'
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      if (error.code === 'site_edit_already_applied') {
        edit.status = 'applied' // applied by an earlier attempt, which stopped before the status
        continue
      }
      if (error.code === 'client_in_cooldown')
        return `not applied: the client is in a cooldown that holds publishing back (${error.detail ?? error.message}); apply it with apply_site_edit once it ends`
      return `not applied: ${error.code} (${error.detail ?? error.message}); the edit stays staged`
    }
  }
  return null
}

export async function carryOutItem(ctx: Ctx, owner: ClientState, item: ItemToCarry, autoApply: boolean): Promise<ItemOutcome> {
  const earlier = await editsOfItem(ctx.read, owner.id, item.itemId)
  // One edit per item, except internal_links (one per source page): the job that staged some (or, the item still
  // pending, a job that died before its status) may add the rest; an item in progress keeps the edits it has.
  const edits: StagedEdit[] = [...earlier]
  const mayAdd = item.actionType === 'internal_links' && (item.status === 'pending' || earlier.some((e) => e.jobId === ctx.job.jobId))
  if (earlier.length === 0 || mayAdd) {
    const plan = await planItemEdits(
      { ctx, owner, alreadyStaged: new Set(earlier.flatMap((e) => (e.pageId === null ? [] : [e.pageId]))) },
      item,
    )
    if ('refused' in plan) {
      if (earlier.length === 0) return { kind: 'refused', reason: plan.refused }
    } else {
      for (const planned of plan.edits) {
        ctx.signal.throwIfAborted()
        const staged = await stageSiteEdit(ctx.write, ctx.command, {
          orgId: owner.orgId,
          clientId: owner.id,
          operation: planned.operation,
          pageUrl: planned.pageUrl,
          pageId: planned.pageId,
          // item-edits.ts writes action_item_id first: editsOfItem finds the item's edits by that prefix.
          payload: JSON.stringify(planned.payload),
          jobId: ctx.job.jobId,
        })
        await ctx.settle(staged.position)
        edits.push({
          id: staged.editId,
          jobId: ctx.job.jobId,
          operation: planned.operation,
          pageId: planned.pageId,
          pageUrl: planned.pageUrl,
          status: 'proposed',
        })
      }
    }
  }
  const first = edits[0]!
  let note: string
  let allApplied = false
  // A site that cannot be reached now is not one to write the redirect to either: the note stands.
  const siteForRedirects = first.operation === REDIRECT && (await ctx.sites?.connected(owner.id, ctx.signal).catch(() => null))
  if (first.operation === REDIRECT && !siteForRedirects) {
    note =
      `redirect site edit ${ids(edits)} staged (${first.pageUrl} → see its payload's to_url); the client has no connected WordPress site to write it to: ` +
      'set it up on the site, then mark the item done'
  } else if (!autoApply) {
    note = `site edit ${ids(edits)} staged; awaits approval (apply_site_edit): the client's ${AUTO_APPLY_SETTING} is off`
  } else {
    const notApplied = await applyAll(ctx, edits)
    allApplied = notApplied === null
    note = allApplied ? `site edit ${ids(edits)} applied (${AUTO_APPLY_SETTING})` : `site edit ${ids(edits)} staged; ${notApplied}`
  }
  await setStatus(ctx, owner, item, 'in_progress', allApplied ? `site edit ${ids(edits)} staged` : note, first.id)
  if (allApplied) await setStatus(ctx, owner, item, 'done', note, first.id)
  return {
    kind: allApplied ? 'applied' : 'staged',
    note,
    edits: edits.map((e) => ({
      item_id: item.itemId,
      edit_id: e.id,
      operation: e.operation,
      page_url: e.pageUrl,
      status: e.status === 'applied' ? 'applied' : 'proposed',
    })),
  }
}

/** The result both kinds answer. */
export type CarryResult = {
  client_id: number
  month: string | null
  /** Items whose edits are staged (not all applied). */
  staged: number
  /** Items done: every edit applied. */
  applied: number
  skipped: { item_id: number; reason: string }[]
  edits: EditOutcome[]
}

export function addOutcome(result: CarryResult, itemId: number, outcome: ItemOutcome): void {
  if (outcome.kind === 'refused') {
    result.skipped.push({ item_id: itemId, reason: outcome.reason })
    return
  }
  if (outcome.kind === 'applied') result.applied++
  else result.staged++
  result.edits.push(...outcome.edits)
}
