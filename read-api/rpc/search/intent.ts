import { z } from 'zod'
import { requestIntentClassification, setPageIntent } from '../../../commands/search/intent/page-intent.js'
import {
  IntentClassifier,
  IntentSignalSource,
  MAX_OVERRIDE_NOTE,
  MAX_REQUESTED_PAGES,
  PageIntent,
} from '../../../domain/search/intent/events.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { visiblePage } from '../../../projections/pages/queries.js'
import {
  activePageIds,
  activePagesWithIntent,
  clientPagesAmong,
  intentCacheEntries,
  pageWithIntent,
} from '../../../projections/search/intent/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, PageId } from '../ids.js'
import { writableClient } from '../pages.js'

const domain = 'search'

const IntentValue = PageIntent.describe('informational, commercial, transactional, navigational or local')
const ContentHashValue = z.string().describe("sha256 (hex) of the content the classifier read: the newest snapshot's title and content")

const PageIntentViewSchema = z.object({
  page_id: PageId,
  client_id: ClientId,
  url: z.string().describe('The page URL as added'),
  title: z.string().describe("The page's title"),
  active: z.boolean().describe('Whether the page is active (only active pages are classified)'),
  intent: IntentValue.nullable().describe(
    "The page's search intent: a person's override, else the classification of its content; null until either exists",
  ),
  source: z
    .enum(['override', 'rules', 'model'])
    .nullable()
    .describe('Where intent comes from: override (set_page_intent), or the classifier that answered (rules or model)'),
  classified_intent: IntentValue.nullable().describe('What the classifier said (differs from intent under an override)'),
  classifier: IntentClassifier.nullable().describe('rules (deterministic) or model (the configured language model)'),
  confidence: z.number().nullable().describe("The classification's confidence, 0 to 1"),
  up_to_date: z
    .boolean()
    .describe("Whether the page's current content is classified; false: the classification shown is of earlier content (or none)"),
  content_sha256: ContentHashValue.nullable(),
  snapshot_id: Id.nullable().describe('The newest snapshot, whose content is classified (null: none yet; URL and title are read)'),
  override: z
    .object({
      intent: IntentValue,
      note: z.string().describe('Why, as the person wrote it'),
      set_at: z.string().describe('When it was set'),
    })
    .nullable()
    .describe("A person's intent for the page (set_page_intent), which the classifier never replaces; null: none"),
})

const CacheEntrySchema = z.object({
  content_sha256: ContentHashValue,
  current: z.boolean().describe("Whether this is the page's current content"),
  snapshot_id: Id.nullable().describe('The snapshot read (null: the page had none)'),
  intent: IntentValue,
  confidence: z.number().describe('0 to 1'),
  classifier: IntentClassifier.describe('rules or model'),
  model: z.string().nullable().describe('The model that answered or was tried (e.g. anthropic:claude-…); null: none configured'),
  fallback_reason: z.string().nullable().describe('Why the rules answered although a model was configured (its error); null otherwise'),
  signals: z
    .array(
      z.object({
        intent: IntentValue,
        source: IntentSignalSource.describe(
          'Where it was seen: url, title, heading, text, client (its locations, services, name) or model',
        ),
        detail: z.string().describe('What was seen'),
        weight: z.number().describe('How much it counted'),
      }),
    )
    .describe('The evidence, strongest first'),
  request_id: z.string().nullable().describe('The classify_page_intents request it answered; null: classified when the content arrived'),
  classified_at: z.string().describe('When it was classified'),
})

const EXAMPLE_HASH = '5d41402abc4b2a76b9719d911017c592ae1e8e1b7c5d8f1f0c3b2e4f6a7d8c9b'

const EXAMPLE_PAGE = {
  page_id: 210,
  client_id: 34,
  url: 'https://acmeplumbing.com/drain-cleaning-austin/',
  title: 'Drain Cleaning in Austin',
  active: true,
  intent: 'local' as const,
  source: 'rules' as const,
  classified_intent: 'local' as const,
  classifier: 'rules' as const,
  confidence: 0.72,
  up_to_date: true,
  content_sha256: EXAMPLE_HASH,
  snapshot_id: 5120,
  override: null,
}

/** The page with its intent, as the read models show it. */
async function intentOf(read: ReadDb, pageId: number) {
  const page = await pageWithIntent(read, pageId)
  if (!page) throw new NotFoundError('page', pageId)
  return page
}

export const intentRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_active_pages_with_intent',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's active pages in id order, each with its search intent (informational, commercial, transactional, navigational, local), " +
      'where it comes from (override, rules or model), the confidence, and whether the current content is classified yet (up_to_date).',
    example: { params: { client_id: 34 }, result: [EXAMPLE_PAGE] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(PageIntentViewSchema),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return activePagesWithIntent(ctx.read, client.id, ctx.page ?? { limit: 1000, offset: 0 })
    },
  }),
  rpc({
    name: 'get_page_intent_cache',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A page's intent and its intent cache: one classification per content the page has had (by content hash), newest first, " +
      "with the evidence; `current` marks the page's current content. A page whose content has not changed is never classified again.",
    example: {
      params: { page_id: 210 },
      result: {
        ...EXAMPLE_PAGE,
        entries: [
          {
            content_sha256: EXAMPLE_HASH,
            current: true,
            snapshot_id: 5120,
            intent: 'local',
            confidence: 0.72,
            classifier: 'rules',
            model: null,
            fallback_reason: null,
            signals: [
              { intent: 'local', source: 'client', detail: `"austin": the client's location Austin, TX, in the title`, weight: 4 },
              { intent: 'commercial', source: 'client', detail: `the client's service "Drain cleaning" names the page`, weight: 2 },
            ],
            request_id: null,
            classified_at: '2026-11-20T14:02:11.000Z',
          },
        ],
      },
    },
    params: z.strictObject({
      page_id: PageId,
      limit: z.number().int().min(1).max(100).default(20).describe('Most cache entries returned, newest first (default 20, at most 100)'),
    }),
    result: PageIntentViewSchema.extend({ entries: z.array(CacheEntrySchema).describe('The cached classifications, newest first') }),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const current = await intentOf(ctx.read, page.id)
      return { ...current, entries: await intentCacheEntries(ctx.read, page.id, current.content_sha256, ctx.params.limit) }
    },
  }),
  rpc({
    name: 'classify_page_intents',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Classify a client's active pages now (all, or those in page_ids), in the background. Without force, only pages whose current " +
      'content has no classification yet, and pages the rules classified because the model failed (when a model is configured); with ' +
      "force, every page again (after changing the client's services or locations, or the language model). " +
      'Returns the request: get_active_pages_with_intent shows up_to_date once each page is done.',
    example: {
      params: { client_id: 34, force: true },
      result: {
        request_id: '3f1c6f0e-8a53-4c55-9d1e-2b7a9e0c4d21',
        client_id: 34,
        force: true,
        page_ids: [210, 211],
        skipped_page_ids: [],
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      page_ids: z
        .array(PageId)
        .min(1)
        .max(MAX_REQUESTED_PAGES)
        .optional()
        .describe(`Only these pages of the client (default: every active page; at most ${MAX_REQUESTED_PAGES})`),
      force: z.boolean().default(false).describe('Classify even pages whose current content is classified (default false)'),
    }),
    result: z.object({
      request_id: z.string().nullable().describe('The request (a UUID); null when there was no active page to classify'),
      client_id: ClientId,
      force: z.boolean().describe('As asked'),
      page_ids: z.array(Id).describe('The pages requested, in id order'),
      skipped_page_ids: z.array(Id).describe('Pages named in page_ids that are inactive, so not classified'),
    }),
    async handler(ctx) {
      const client = await writableClient(ctx.read, ctx.orgId, ctx.params.client_id)
      let pageIds: number[]
      let skipped: number[] = []
      if (ctx.params.page_ids) {
        const named = [...new Set(ctx.params.page_ids)].sort((a, b) => a - b)
        const known = await clientPagesAmong(ctx.read, client.id, named)
        // Another client's (or organization's) page answers like a missing one.
        const stranger = named.find((id) => !known.has(id))
        if (stranger !== undefined) throw new NotFoundError('page', stranger)
        pageIds = named.filter((id) => known.get(id))
        skipped = named.filter((id) => !known.get(id))
      } else {
        pageIds = await activePageIds(ctx.read, client.id)
      }
      const force = ctx.params.force
      if (pageIds.length === 0) return { request_id: null, client_id: client.id, force, page_ids: [], skipped_page_ids: skipped }
      const { requestId } = await requestIntentClassification(ctx.write, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        pageIds,
        force,
      })
      return { request_id: requestId, client_id: client.id, force, page_ids: pageIds, skipped_page_ids: skipped }
    },
  }),
  rpc({
    name: 'set_page_intent',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Set a page's search intent by hand, or clear it with intent null. A person's intent stands until a person changes or clears it: " +
      'the classifier keeps classifying new content (get_page_intent_cache shows what it said) but never replaces it. Setting the same ' +
      'intent and note again changes nothing. Returns the page with its intent.',
    example: {
      params: { page_id: 210, intent: 'transactional', note: 'Booking page; the form is the point' },
      result: {
        ...EXAMPLE_PAGE,
        intent: 'transactional',
        source: 'override',
        override: { intent: 'transactional', note: 'Booking page; the form is the point', set_at: '2026-11-21T09:30:00.000Z' },
      },
    },
    params: z.strictObject({
      page_id: PageId,
      intent: IntentValue.nullable().describe('The intent to use for the page; null clears a person’s intent'),
      note: z.string().trim().max(MAX_OVERRIDE_NOTE).default('').describe(`Why (at most ${MAX_OVERRIDE_NOTE} characters; default empty)`),
    }),
    result: PageIntentViewSchema,
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const client = await writableClient(ctx.read, ctx.orgId, page.client_id)
      const note = ctx.params.intent === null ? '' : ctx.params.note
      await setPageIntent(ctx.write, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        pageId: page.id,
        intent: ctx.params.intent,
        note,
      })
      await ctx.settle()
      return intentOf(ctx.read, page.id)
    },
  }),
]
