import { z } from 'zod'
import { addKeyword, deleteKeyword } from '../../commands/keywords.js'
import { KEYWORD_MAX_LENGTH, KeywordSource } from '../../domain/keywords/events.js'
import { MAX_KEYWORDS_PER_CLIENT } from '../../domain/keywords/keyword-set.js'
import { keywordKey } from '../../domain/keywords/text.js'
import { Id } from '../../domain/shared/values.js'
import { visibleClient } from '../../projections/clients/queries.js'
import { keywordIdsByKey, keywordsOfClient, keywordView, visibleKeyword } from '../../projections/keywords/queries.js'
import { rpc, type AnyRpc } from '../registry.js'
import { ClientId, KeywordId } from './ids.js'

const domain = 'keywords'

/** Keyword text must carry words: "???" normalizes to nothing and could never be told apart from another. */
const KeywordText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(KEYWORD_MAX_LENGTH)
  .refine((text) => keywordKey(text) !== '', 'a keyword needs letters or digits')

const KeywordInput = z
  .strictObject({
    client_id: Id.describe('The client that tracks the keyword'),
    keyword: KeywordText.describe(`The search phrase, up to ${KEYWORD_MAX_LENGTH} characters (e.g. "drain cleaning austin")`),
    service: z.string().trim().max(200).default('').describe("The client's service it is about (default none)"),
    location: z.string().trim().max(200).default('').describe('The location it is about, e.g. "Austin, TX" (default none)'),
    source: KeywordSource.default('manual').describe('Where it came from: manual (default), generated or aeo'),
  })
  .describe('The keyword to track')

const KeywordViewSchema = z.object({
  id: Id,
  client_id: ClientId,
  keyword: z.string().describe('The phrase as added (spacing collapsed, case kept)'),
  source: z.string().describe('manual, generated (keyword_generation) or aeo (from an AI Visibility question)'),
  service: z.string(),
  location: z.string(),
  status: z.enum(['active', 'deleted']).describe('deleted: soft-deleted by delete_keyword; the id stays'),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
})

export const keywordRpcs: AnyRpc[] = [
  rpc({
    name: 'add_keyword',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Track a search keyword for a client: {keyword: {client_id, keyword, service?, location?, source?}}. Get-or-create: a phrase that ' +
      "matches one of the client's keywords case-, punctuation- and spacing-insensitively returns that keyword's id (a deleted one is " +
      `brought back, same id). At most ${MAX_KEYWORDS_PER_CLIENT} keywords per client. Returns the keyword id.`,
    example: {
      params: { keyword: { client_id: 34, keyword: 'drain cleaning austin', service: 'Drain cleaning', location: 'Austin, TX' } },
    },
    params: z.strictObject({ keyword: KeywordInput }),
    result: Id,
    async handler(ctx) {
      const { client_id, ...keyword } = ctx.params.keyword
      const { keywordId } = await addKeyword(ctx.write, ctx.command, { clientId: client_id, keyword, callerOrgId: ctx.orgId })
      return keywordId
    },
  }),
  rpc({
    name: 'get_keyword',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One keyword, active or deleted (status says which).',
    example: { params: { keyword_id: 1501 } },
    params: z.strictObject({ keyword_id: KeywordId }),
    result: KeywordViewSchema,
    handler: async (ctx) => keywordView(await visibleKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)),
  }),
  rpc({
    name: 'get_keywords_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's keywords in the order they were added. active_only (default true) leaves out deleted keywords.",
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId, active_only: z.boolean().default(true).describe('Only active keywords (default true)') }),
    result: z.array(KeywordViewSchema),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return keywordsOfClient(ctx.read, client.id, ctx.params.active_only, ctx.page!)
    },
  }),
  rpc({
    name: 'get_keyword_ids_by_text',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Ids of the active keywords with this text across the organization's clients (matched case-, punctuation- and " +
      'spacing-insensitively), ascending; [] when none.',
    example: { params: { keyword_text: 'Drain Cleaning Austin' }, result: [1501] },
    params: z.strictObject({ keyword_text: KeywordText.describe('The phrase to look up') }),
    result: z.array(Id),
    handler: async (ctx) => keywordIdsByKey(ctx.read, ctx.orgId, keywordKey(ctx.params.keyword_text)),
  }),
  rpc({
    name: 'delete_keyword',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Soft-delete a keyword: it leaves active lists but keeps its id and history (get_keyword shows it with status deleted; ' +
      'add_keyword with the same phrase brings it back). Deleting again changes nothing. Returns the keyword.',
    example: { params: { keyword_id: 1501 } },
    params: z.strictObject({ keyword_id: KeywordId }),
    result: KeywordViewSchema,
    async handler(ctx) {
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      await deleteKeyword(ctx.write, ctx.command, { clientId: keyword.client_id, keywordId: keyword.id, callerOrgId: ctx.orgId })
      await ctx.settle()
      return keywordView(await visibleKeyword(ctx.read, ctx.orgId, keyword.id))
    },
  }),
]
