import type { ClientState } from '../../../domain/clients/client.js'
import { DomainError, NotFoundError } from '../../../domain/shared/errors.js'
import type { MetaOptimizationEvent } from '../../../domain/search/insights/events.js'
import { readMetaDescription, readTitleTag } from '../../../domain/search/insights/head-tags.js'
import {
  metaOptimizationSet,
  type MetaOptimizationCommand,
  type MetaOptimizationRecord,
  type MetaOptimizationSetState,
} from '../../../domain/search/insights/meta-optimization-set.js'
import { META_REWRITE, metaRewritePayload, optimizationOfPayload } from '../../../domain/search/insights/meta-payload.js'
import { locationForQuery, type MetaBrief, type MetaRewrite } from '../../../domain/search/insights/meta-writer.js'
import { siteEdit } from '../../../domain/site-edits/site-edit.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import { stageSiteEdit } from '../../site-edits.js'
import { changeSeoInsightStatus, loadInsightSet } from './insights.js'
import type { MetaPageFacts, MetaReads } from './reads.js'

type Outcome = CommandOutcome<MetaOptimizationSetState, MetaOptimizationEvent>

export function loadMetaOptimizations(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<MetaOptimizationSetState> {
  return loadState(deps.store, metaOptimizationSet, clientId)
}

function run(deps: WriteDeps, context: CommandContext, owner: ClientState, command: MetaOptimizationCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: metaOptimizationSet, id: owner.id, command, context, orgId: owner.orgId })
}

/** What a rewrite of a page for a query is written from, and the page as it is. */
export interface MetaSubject {
  readonly owner: ClientState
  readonly page: MetaPageFacts
  readonly brief: MetaBrief
}

/**
 * The client, its page and the brief a writer works from: the query, the client location it names (or the
 * client's first), the business's name and the page's current title and description (from its latest
 * snapshot's tags, else the page's title). A page of another client (or none) is not found.
 */
export async function metaSubject(
  deps: Pick<WriteDeps, 'store'>,
  reads: MetaReads,
  input: { clientId: number; callerOrgId: number | null; pageId: number; query: string; location?: string | undefined },
): Promise<MetaSubject> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const page = await reads.page(owner.id, input.pageId)
  if (!page) throw new NotFoundError('page', input.pageId)
  const content = page.snapshot?.content ?? ''
  const brief: MetaBrief = {
    query: input.query,
    location:
      input.location ??
      locationForQuery(
        input.query,
        owner.locations.map((l) => l.name),
      ),
    business: owner.name,
    currentTitle: readTitleTag(content) || page.snapshot?.title || page.title,
    currentDescription: readMetaDescription(content),
  }
  return { owner, page, brief }
}

/**
 * propose_meta_optimization and the meta proposer: records a proposed rewrite of the page's title and
 * description. Refused with meta_optimization_open while the page has a proposed or staged one.
 */
export async function proposeMetaOptimization(
  deps: WriteDeps,
  context: CommandContext,
  input: { subject: MetaSubject; insightId: number | null; rewrite: MetaRewrite; writer: string },
): Promise<{ optimizationId: number; position: Position | null }> {
  const { owner, page, brief } = input.subject
  const optimizationId = await deps.ids.next('meta_optimization')
  const outcome = await run(deps, context, owner, {
    type: 'ProposeMetaOptimization',
    client_id: owner.id,
    proposal: {
      optimization_id: optimizationId,
      page_id: page.id,
      page_url: page.url,
      insight_id: input.insightId,
      query: brief.query,
      location: brief.location,
      current_title: brief.currentTitle.slice(0, 500),
      current_description: brief.currentDescription.slice(0, 2000),
      proposed_title: input.rewrite.title,
      proposed_description: input.rewrite.description,
      writer: input.writer,
    },
  })
  return { optimizationId, position: outcome.position }
}

function recordOf(state: MetaOptimizationSetState, optimizationId: number): MetaOptimizationRecord {
  const record = state.byId.get(optimizationId)
  if (!record) throw new NotFoundError('meta optimization', optimizationId)
  return record
}

/**
 * stage_meta_optimization: stages the rewrite as a site edit (operation meta_rewrite: the page's latest
 * content with the new tags, and the new title) and links it. Staging a staged one answers its edit again.
 * The caller runs it one at a time per optimization, so two stagings never make two edits.
 */
export async function stageMetaOptimization(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; callerOrgId: number | null; optimizationId: number; reads: MetaReads },
): Promise<{ editId: number; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const record = recordOf(await loadMetaOptimizations(deps, owner.id), input.optimizationId)
  if (record.status === 'staged' && record.editId !== null) return { editId: record.editId, position: null }
  if (record.status !== 'proposed') {
    throw new DomainError(
      'meta_optimization_not_open',
      'Only a proposed or staged meta optimization can be staged or rejected',
      `meta optimization ${record.id} is ${record.status}; it cannot be staged`,
    )
  }
  const page = await input.reads.page(owner.id, record.pageId)
  if (!page) throw new NotFoundError('page', record.pageId)
  const p = record.proposal
  const payload = metaRewritePayload({
    optimizationId: record.id,
    pageId: page.id,
    pageUrl: page.url,
    query: p.query,
    title: p.proposed_title,
    description: p.proposed_description,
    currentTitle: p.current_title,
    currentDescription: p.current_description,
    writer: p.writer,
    snapshot: page.snapshot,
  })
  const staged = await stageSiteEdit(deps, context, {
    orgId: owner.orgId,
    clientId: owner.id,
    operation: META_REWRITE,
    pageUrl: page.url,
    pageId: page.id,
    payload: JSON.stringify(payload),
    jobId: null,
  })
  const outcome = await run(deps, context, owner, {
    type: 'StageMetaOptimization',
    client_id: owner.id,
    optimization_id: record.id,
    edit_id: staged.editId,
  })
  return { editId: staged.editId, position: outcome.position ?? staged.position }
}

/** reject_meta_optimization: a proposed or staged rewrite nobody will publish. Rejecting again records nothing. */
export async function rejectMetaOptimization(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; callerOrgId: number | null; optimizationId: number; rejectedBy: string; reason: string },
): Promise<{ position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await run(deps, context, owner, {
    type: 'RejectMetaOptimization',
    client_id: owner.id,
    optimization_id: input.optimizationId,
    rejected_by: input.rejectedBy,
    reason: input.reason,
  })
  return { position: outcome.position }
}

/**
 * What became of a meta_rewrite site edit, recorded on its optimization: applied (and the insight it answers
 * marked applied), or rolled back (and that insight open again). Read from the edit's stream as it is now,
 * so it is safe to run for any event of the edit, any number of times (apply_meta_optimization runs it
 * after publishing; the meta follower for every publish and rollback, apply_site_edit's included).
 * Anything that is not a meta optimization's edit records nothing.
 */
export async function recordMetaEditOutcome(
  deps: WriteDeps,
  context: CommandContext,
  input: { editId: number },
): Promise<{ optimizationId: number | null; position: Position | null }> {
  const edit = await loadState(deps.store, siteEdit, input.editId)
  if (!edit.exists || edit.operation !== META_REWRITE || edit.status === 'proposed') return { optimizationId: null, position: null }
  const optimizationId = optimizationOfPayload(edit.payload)
  if (optimizationId === null) return { optimizationId: null, position: null }
  const owner = await writableClient(deps.store, edit.clientId, edit.orgId)
  const record = (await loadMetaOptimizations(deps, owner.id)).byId.get(optimizationId)
  if (!record || record.editId !== edit.id) return { optimizationId: null, position: null }
  const ids = { client_id: owner.id, optimization_id: record.id, edit_id: edit.id }
  let position = (await run(deps, context, owner, { type: 'RecordMetaApplied', ...ids })).position
  if (edit.status === 'rolled_back')
    position = (await run(deps, context, owner, { type: 'RecordMetaRolledBack', ...ids })).position ?? position
  if (record.insightId !== null) {
    const insights = await loadInsightSet(deps, owner.id)
    const key = insights.keyOf.get(record.insightId)
    const live = key === undefined ? undefined : insights.live.get(key)
    const status = edit.status === 'applied' ? 'applied' : 'open'
    // A resolved insight stays resolved; an insight someone set by hand since is left as they set it.
    const expected = edit.status === 'applied' ? ['open'] : ['applied']
    if (live && expected.includes(live.status)) {
      const changed = await changeSeoInsightStatus(deps, context, {
        clientId: owner.id,
        callerOrgId: owner.orgId,
        insightId: record.insightId,
        status,
        note:
          edit.status === 'applied' ? `meta optimization ${record.id} applied (site edit ${edit.id})` : `site edit ${edit.id} rolled back`,
      })
      position = changed.position ?? position
    }
  }
  return { optimizationId: record.id, position }
}
