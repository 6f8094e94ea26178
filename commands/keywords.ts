import type { ClientState } from '../domain/clients/client.js'
import type { KeywordEvent } from '../domain/keywords/events.js'
import {
  findById,
  findByKey,
  keywordSet,
  keywordText,
  type KeywordSetCommand,
  type KeywordSetState,
  type NewKeyword,
  type Source,
} from '../domain/keywords/keyword-set.js'
import { NotFoundError } from '../domain/shared/errors.js'
import { writableClient } from './aeo/capture-facts.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

type Outcome = CommandOutcome<KeywordSetState, KeywordEvent>
type Caller = { readonly callerOrgId: number | null }

/** The client's keyword set, folded from its stream (deleted keywords included, marked). */
export async function loadKeywordSet(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<KeywordSetState> {
  return loadState(deps.store, keywordSet, clientId)
}

/** Every keyword event carries the client's organization, so `ops replay --org` shows the keyword set. */
function run(deps: WriteDeps, context: CommandContext, owner: ClientState, command: KeywordSetCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: keywordSet, id: owner.id, command, context, orgId: owner.orgId })
}

export interface KeywordInput {
  readonly keyword: string
  readonly source: Source
  readonly service: string
  readonly location: string
}

/**
 * add_keyword: get-or-create by normalized text within the client. An existing keyword answers its id
 * unchanged; a deleted one is brought back (same id). `created`: a new keyword was added.
 */
export async function addKeyword(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keyword: KeywordInput },
): Promise<{ keywordId: number; created: boolean; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const { key } = keywordText(input.keyword.keyword)
  const existing = findByKey(await loadKeywordSet(deps, input.clientId), key)
  let keywordId = existing?.id
  let outcome: Outcome | undefined
  if (!existing || existing.deleted) {
    // A live keyword needs no id and no event; a new one gets an id before the decision.
    keywordId = existing?.id ?? (await deps.ids.next('keyword'))
    const keyword: NewKeyword = { keyword_id: keywordId, ...input.keyword }
    outcome = await run(deps, context, owner, {
      type: 'AddKeywords',
      client_id: owner.id,
      keywords: [keyword],
      deleted: 'restore',
      overflow: 'refuse',
    })
  }
  // A concurrent add of the same text may have won between the look and the append.
  const found = outcome ? findByKey(outcome.state, key)! : existing!
  return { keywordId: found.id, created: !existing && found.id === keywordId, position: outcome?.position ?? null }
}

export interface AddedKeywords {
  /** Keywords added now. */
  readonly added: number
  /** Candidates that were already live keywords of the client. */
  readonly existing: number
  /** Candidates a person had deleted: left deleted. */
  readonly deletedSkipped: number
  /** Candidates left out because the client reached MAX_KEYWORDS_PER_CLIENT. */
  readonly overCap: number
  /** The ids of the candidates that are live keywords now (new and existing), in candidate order. */
  readonly keywordIds: number[]
  /** Live keywords of the client afterwards. */
  readonly totalActive: number
  readonly position: Position | null
}

/**
 * keyword_generation: adds whatever of `candidates` is missing, as one decision. Keywords a person deleted
 * stay deleted (generation never undoes a delete); past the per-client cap the rest is left out.
 */
export async function addGeneratedKeywords(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; candidates: readonly KeywordInput[] },
): Promise<AddedKeywords> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const before = await loadKeywordSet(deps, input.clientId)
  const keys = input.candidates.map((c) => keywordText(c.keyword).key)
  const missing = input.candidates.filter((_, i) => !findByKey(before, keys[i]!))
  const ids = await deps.ids.nextMany('keyword', missing.length)
  let state = before
  let position: Position | null = null
  if (missing.length > 0) {
    const keywords = missing.map((c, i): NewKeyword => ({ keyword_id: ids[i]!, ...c }))
    const outcome = await run(deps, context, owner, {
      type: 'AddKeywords',
      client_id: owner.id,
      keywords,
      deleted: 'keep',
      overflow: 'truncate',
    })
    state = outcome.state
    position = outcome.position
  }
  const keywordIds: number[] = []
  let added = 0
  let existing = 0
  let deletedSkipped = 0
  let overCap = 0
  const counted = new Set<string>()
  for (const key of keys) {
    if (counted.has(key)) continue
    counted.add(key)
    const now = findByKey(state, key)
    const was = findByKey(before, key)
    if (!now) overCap++
    else if (now.deleted) deletedSkipped++
    else {
      keywordIds.push(now.id)
      if (was) existing++
      else added++
    }
  }
  const totalActive = state.keywords.filter((k) => !k.deleted).length
  return { added, existing, deletedSkipped, overCap, keywordIds, totalActive, position }
}

/** delete_keyword: a soft delete. true when this call deleted it, false when it already was deleted. */
export async function deleteKeyword(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keywordId: number },
): Promise<{ deleted: boolean; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  if (!findById(await loadKeywordSet(deps, input.clientId), input.keywordId)) throw new NotFoundError('keyword', input.keywordId)
  const outcome = await run(deps, context, owner, { type: 'DeleteKeyword', client_id: owner.id, keyword_id: input.keywordId })
  return { deleted: outcome.events.length > 0, position: outcome.position }
}
