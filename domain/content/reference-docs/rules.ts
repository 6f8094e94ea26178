import { z } from 'zod'

/**
 * Reference documents (issue 28): what an organization's writers follow. The kinds a writer knows how to
 * place (brand_voice, style_guide, service_facts) and `other` for anything else an agency keeps.
 */
export const REFERENCE_DOC_KINDS = ['brand_voice', 'style_guide', 'service_facts', 'other'] as const
export const ReferenceDocKind = z.enum(REFERENCE_DOC_KINDS)
export type ReferenceDocKind = z.infer<typeof ReferenceDocKind>

/** A title: a person's label for the document, shown in lists and as the heading in a voice guide. */
export const REFERENCE_DOC_TITLE_MAX_LENGTH = 200
/** A body: at most 100 KiB of UTF-8 (a long style guide fits; a whole website does not). */
export const REFERENCE_DOC_BODY_MAX_BYTES = 102_400
/** Live documents per organization (all clients included): a writer's prompt cannot use more. */
export const REFERENCE_DOCS_PER_ORG_MAX = 200

const encoder = new TextEncoder()

/** The UTF-8 size of a text, in bytes. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length
}

/** The body limit as the API states it, so the zod message and the README say the same. */
export const BODY_LIMIT_TEXT = `at most ${REFERENCE_DOC_BODY_MAX_BYTES} bytes (100 KiB) of UTF-8`

/** A body as stored: any text within the limit that is not blank (trailing whitespace trimmed, inside kept). */
export const ReferenceDocBody = z
  .string()
  .refine((s) => utf8Bytes(s) <= REFERENCE_DOC_BODY_MAX_BYTES, { message: `body: ${BODY_LIMIT_TEXT}` })
  .refine((s) => s.trim().length > 0, { message: 'body: must not be blank' })

export const ReferenceDocTitle = z
  .string()
  .max(REFERENCE_DOC_TITLE_MAX_LENGTH)
  .refine((s) => s.trim().length > 0, { message: 'title: must not be blank' })

/**
 * Two titles are the same document name when they match ignoring case and runs of whitespace: titles are
 * unique among an organization's live documents of the same scope (organization-wide, or one client).
 */
export function titleKey(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** A title as stored: trimmed, inner whitespace runs collapsed to one space. */
export function normalizeTitle(title: string): string {
  return title.trim().replace(/\s+/g, ' ')
}

/** A body as stored: trailing whitespace and leading blank lines removed, the rest as given. */
export function normalizeBody(body: string): string {
  return body.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()
}
