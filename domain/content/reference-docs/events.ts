import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { REFERENCE_DOC_TITLE_MAX_LENGTH, ReferenceDocKind, utf8Bytes, REFERENCE_DOC_BODY_MAX_BYTES } from './rules.js'

/**
 * Reference documents (issue 28): an organization's brand voice, style guide, service facts. They live in
 * the organization's stream `reference_docs-<org_id>`, because "titles unique per scope" and the count
 * limit are decided against every document of the organization at once. Every event carries the document's
 * whole values after the change (and its version), so the stream is its history: each version is readable
 * from the event that made it.
 */
const Fields = {
  doc_id: Id,
  /** The client the document is for; null: the whole organization. */
  client_id: Id.nullable(),
  kind: ReferenceDocKind,
  title: z.string().min(1).max(REFERENCE_DOC_TITLE_MAX_LENGTH),
  body: z
    .string()
    .min(1)
    .refine((s) => utf8Bytes(s) <= REFERENCE_DOC_BODY_MAX_BYTES),
  /** 1 when added, up by one with each update that changes something. */
  version: z.number().int().positive(),
}

/** add_org_reference_doc. */
export const ReferenceDocAdded = z.object(Fields)

/** update_org_reference_doc: the document's values after the change (absolute, so a projector sets them as they are). */
export const ReferenceDocUpdated = z.object(Fields)

/** delete_org_reference_doc: the document leaves every read; its id is never reused and its versions stay in the stream. */
export const ReferenceDocDeleted = z.object({
  doc_id: Id,
  client_id: Id.nullable(),
  title: z.string(),
  version: z.number().int().positive(),
})

/** The reference-docs sub-area's events; see README.md beside this file. */
export const referenceDocsEventSchemas = { ReferenceDocAdded, ReferenceDocUpdated, ReferenceDocDeleted } as const

type Schemas = typeof referenceDocsEventSchemas
export type ReferenceDocsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
