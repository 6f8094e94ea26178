import { z } from 'zod'
import { decode } from '../../../commands/event-store/decode.js'
import { referenceDocsStream } from '../../../domain/content/reference-docs/org-reference-docs.js'
import { addReferenceDoc, deleteReferenceDoc, updateReferenceDoc } from '../../../commands/content/reference-docs.js'
import {
  BODY_LIMIT_TEXT,
  REFERENCE_DOC_KINDS,
  REFERENCE_DOC_TITLE_MAX_LENGTH,
  REFERENCE_DOCS_PER_ORG_MAX,
  ReferenceDocBody,
  ReferenceDocKind,
  ReferenceDocTitle,
} from '../../../domain/content/reference-docs/rules.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  referenceDocsForOrg,
  referenceDocView,
  visibleReferenceDoc,
  visibleReferenceDocAnyState,
} from '../../../projections/content/reference-docs/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'content'

const DocId = Id.describe('The reference document (an integer id, as add_org_reference_doc or get_org_reference_docs answered)')
const Kind = ReferenceDocKind.describe(
  `What the document is: ${REFERENCE_DOC_KINDS.join(', ')} (brand_voice: how the brand sounds; style_guide: spelling, formatting, words to use and avoid; service_facts: prices, areas, hours, guarantees; other: anything else writers should know)`,
)
const Title = ReferenceDocTitle.describe(
  `A name for the document (at most ${REFERENCE_DOC_TITLE_MAX_LENGTH} characters; trimmed): unique, ignoring case, among the live documents of the same scope`,
)
const Body = ReferenceDocBody.describe(`The document's text, plain or Markdown (${BODY_LIMIT_TEXT}; not blank)`)

const ReferenceDocSchema = z
  .object({
    id: DocId,
    org_id: Id.describe('The organization it belongs to'),
    client_id: Id.nullable().describe('The client it is for; null: every client of the organization'),
    kind: Kind,
    title: z.string().describe('Its title'),
    body: z.string().describe('Its text'),
    body_bytes: z.number().int().describe('The size of body in bytes (UTF-8)'),
    version: z.number().int().describe('1 when added, up by one with each update that changed it'),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe('A reference document of the organization')

const exampleDoc = {
  id: 3,
  org_id: 5,
  client_id: null,
  kind: 'brand_voice' as const,
  title: 'House voice',
  body: 'Friendly and plain-spoken. Short sentences, second person ("you"), no jargon. Never promise same-day service.',
  body_bytes: 111,
  version: 2,
  created_at: '2026-11-20T09:40:00.000Z',
  updated_at: '2026-11-21T14:05:00.000Z',
}

async function settledDoc(ctx: { read: ReadDb; orgId: number | null; settle: () => Promise<void> }, docId: number) {
  await ctx.settle()
  return referenceDocView(await visibleReferenceDoc(ctx.read, ctx.orgId, docId))
}

export const referenceDocsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_org_reference_doc',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Add a reference document (brand voice, style guide, service facts or other) that the organization's writers follow: for every client, or for one (client_id). " +
      `The title must be free among the live documents of that scope (409 reference_doc_title_taken names the holder); body ${BODY_LIMIT_TEXT} (400 validation_failed); ` +
      `at most ${REFERENCE_DOCS_PER_ORG_MAX} live documents per organization (409 reference_doc_limit). A platform key passes org_id. Returns the document (version 1).`,
    example: {
      params: { kind: 'brand_voice', title: 'House voice', body: exampleDoc.body },
      result: { ...exampleDoc, version: 1, updated_at: exampleDoc.created_at },
    },
    params: z.strictObject({
      kind: Kind,
      title: Title,
      body: Body,
      client_id: ClientId.nullable()
        .optional()
        .describe("The client the document is for (its writers read it before the organization's); default null: every client"),
    }),
    result: ReferenceDocSchema,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const p = ctx.params
      const clientId = p.client_id ?? null
      if (clientId !== null) await visibleClient(ctx.read, orgId, clientId)
      const added = await addReferenceDoc(ctx.write, ctx.command, { orgId, clientId, kind: p.kind, title: p.title, body: p.body })
      return settledDoc(ctx, added.docId)
    },
  }),
  rpc({
    name: 'update_org_reference_doc',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a reference document's kind, title, body or client (client_id null: every client); what is left out stays. Each change is a new version, " +
      'and every version stays in the history (get_org_reference_doc_history). The same values again change nothing. ' +
      `Same rules as add_org_reference_doc (409 reference_doc_title_taken; body ${BODY_LIMIT_TEXT}). Returns the document.`,
    example: { params: { doc_id: 3, body: exampleDoc.body }, result: exampleDoc },
    params: z.strictObject({
      doc_id: DocId,
      kind: Kind.optional().describe('Its new kind (default: unchanged)'),
      title: Title.optional().describe('Its new title (default: unchanged)'),
      body: Body.optional().describe(`Its new text, replacing the old whole (${BODY_LIMIT_TEXT}; default: unchanged)`),
      client_id: ClientId.nullable()
        .optional()
        .describe('The client it is for from now on; null: every client of the organization (default: unchanged)'),
    }),
    result: ReferenceDocSchema,
    async handler(ctx) {
      const p = ctx.params
      const doc = await visibleReferenceDoc(ctx.read, ctx.orgId, p.doc_id)
      if (p.client_id !== undefined && p.client_id !== null) await visibleClient(ctx.read, doc.org_id, p.client_id)
      await updateReferenceDoc(ctx.write, ctx.command, {
        orgId: doc.org_id,
        docId: doc.id,
        clientId: p.client_id,
        kind: p.kind,
        title: p.title,
        body: p.body,
      })
      return settledDoc(ctx, doc.id)
    },
  }),
  rpc({
    name: 'delete_org_reference_doc',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Delete a reference document: writers stop using it and reads answer 404; its id is never reused and its versions stay in the history. ' +
      'Its title is free again. A deleted document answers 404, to a second delete too.',
    example: { params: { doc_id: 3 }, result: { id: 3, deleted: true as const } },
    params: z.strictObject({ doc_id: DocId }),
    result: z
      .object({ id: DocId, deleted: z.literal(true).describe('Always true: the document is deleted') })
      .describe('The deleted document'),
    async handler(ctx) {
      const doc = await visibleReferenceDoc(ctx.read, ctx.orgId, ctx.params.doc_id)
      await deleteReferenceDoc(ctx.write, ctx.command, { orgId: doc.org_id, docId: doc.id })
      return { id: doc.id, deleted: true as const }
    },
  }),
  rpc({
    name: 'get_org_reference_doc',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'A reference document of the organization, with its text and version. A deleted one answers 404.',
    example: { params: { doc_id: 3 }, result: exampleDoc },
    params: z.strictObject({ doc_id: DocId }),
    result: ReferenceDocSchema,
    handler: async (ctx) => referenceDocView(await visibleReferenceDoc(ctx.read, ctx.orgId, ctx.params.doc_id)),
  }),
  rpc({
    name: 'get_org_reference_docs',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's live reference documents, oldest first, optionally of one kind. With client_id: the documents its writers use, the client's own first, " +
      'then the organization-wide ones (within each: brand_voice, style_guide, service_facts, other). A platform key passes org_id.',
    example: { params: { client_id: 34 }, result: [exampleDoc] },
    params: z.strictObject({
      kind: Kind.optional().describe('Only documents of this kind (default: every kind)'),
      client_id: ClientId.optional().describe(
        'Only the documents that apply to this client: its own and the organization-wide ones (default: every document of the organization)',
      ),
    }),
    paginated: { maxLimit: 200, defaultLimit: 50 },
    result: z.array(ReferenceDocSchema).describe('The documents'),
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const p = ctx.params
      if (p.client_id !== undefined) await visibleClient(ctx.read, orgId, p.client_id)
      const rows = await referenceDocsForOrg(ctx.read, orgId, { kind: p.kind, clientId: p.client_id, ...ctx.page! })
      return rows.map(referenceDocView)
    },
  }),
  rpc({
    name: 'get_org_reference_doc_history',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every version of a reference document, newest first, from the event log: who changed it, when, and its whole values at that version (a deleted document's history stays readable).",
    example: {
      params: { doc_id: 3 },
      result: [
        {
          change: 'updated' as const,
          version: 2,
          occurred_at: exampleDoc.updated_at,
          actor: { kind: 'api_key', id: 12 },
          client_id: null,
          kind: 'brand_voice' as const,
          title: 'House voice',
          body: exampleDoc.body,
        },
        {
          change: 'added' as const,
          version: 1,
          occurred_at: exampleDoc.created_at,
          actor: { kind: 'api_key', id: 12 },
          client_id: null,
          kind: 'brand_voice' as const,
          title: 'House voice',
          body: 'Friendly and plain-spoken.',
        },
      ],
    },
    params: z.strictObject({ doc_id: DocId }),
    paginated: { maxLimit: 200, defaultLimit: 50 },
    result: z
      .array(
        z.object({
          change: z.enum(['added', 'updated', 'deleted']).describe('What happened: added (version 1), updated (a new version) or deleted'),
          version: z.number().int().describe('The version it made (deleted: the version that was live)'),
          occurred_at: z.string().describe('When (ISO 8601)'),
          actor: z
            .object({
              kind: z.string().describe('Who: api_key, user, system…'),
              id: z.union([z.string(), z.number(), z.null()]).describe('Which one; null when not recorded'),
            })
            .describe('Who made the change'),
          client_id: Id.nullable().describe('The client it was for at that version; null: every client'),
          kind: Kind,
          title: z.string().describe('Its title at that version'),
          body: z.string().nullable().describe('Its text at that version; null for a delete'),
        }),
      )
      .describe('The versions, newest first'),
    async handler(ctx) {
      const doc = await visibleReferenceDocAnyState(ctx.read, ctx.orgId, ctx.params.doc_id)
      const entries = []
      let kind = doc.kind as z.infer<typeof ReferenceDocKind>
      for await (const recorded of ctx.history.readStream(referenceDocsStream(doc.org_id))) {
        const event = decode(recorded)
        const meta = {
          occurred_at: event.metadata.occurred_at ?? recorded.recordedAt.toISOString(),
          actor: { kind: String(event.metadata.actor?.kind ?? 'system'), id: event.metadata.actor?.id ?? null },
        }
        if (event.type === 'ReferenceDocAdded' || event.type === 'ReferenceDocUpdated') {
          const d = event.data
          if (d.doc_id !== doc.id) continue
          kind = d.kind
          const change = event.type === 'ReferenceDocAdded' ? ('added' as const) : ('updated' as const)
          entries.push({ change, version: d.version, ...meta, client_id: d.client_id, kind: d.kind, title: d.title, body: d.body })
        } else if (event.type === 'ReferenceDocDeleted') {
          const d = event.data
          if (d.doc_id !== doc.id) continue
          entries.push({
            change: 'deleted' as const,
            version: d.version,
            ...meta,
            client_id: d.client_id,
            kind,
            title: d.title,
            body: null,
          })
        }
      }
      const newestFirst = entries.reverse()
      const page = ctx.page!
      return newestFirst.slice(page.offset, page.offset + page.limit)
    },
  }),
]
