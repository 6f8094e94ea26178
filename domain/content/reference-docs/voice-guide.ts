import { REFERENCE_DOC_KINDS, type ReferenceDocKind } from './rules.js'

/** What voiceGuide reads of a document: the read model's row or the aggregate's record, as the caller has it. */
export interface VoiceGuideDoc {
  readonly id: number
  readonly client_id: number | null
  readonly kind: ReferenceDocKind
  readonly title: string
  readonly body: string
}

/** The default bound of a voice guide, in characters: room for a writer's own instructions beside it. */
export const VOICE_GUIDE_MAX_CHARS = 12_000
/** A document is not started with less room than this left (a heading and a few words help no writer). */
const MIN_USEFUL_CHARS = 200
const TRUNCATED = '\n[…truncated]'

const KIND_LABEL: Record<ReferenceDocKind, string> = {
  brand_voice: 'Brand voice',
  style_guide: 'Style guide',
  service_facts: 'Service facts',
  other: 'Reference',
}

/**
 * The documents that apply to a client, in the order a writer should weigh them: the client's own first (they
 * override the organization's), then the organization-wide ones; within each, brand voice, style guide,
 * service facts, other, then oldest first. Another client's documents never apply. clientId null: only the
 * organization-wide documents.
 */
export function docsForClient<T extends VoiceGuideDoc>(docs: readonly T[], clientId: number | null): T[] {
  const rank = (d: VoiceGuideDoc) => REFERENCE_DOC_KINDS.indexOf(d.kind)
  return docs
    .filter((d) => d.client_id === null || (clientId !== null && d.client_id === clientId))
    .sort((a, b) => {
      const scope = (a.client_id === null ? 1 : 0) - (b.client_id === null ? 1 : 0)
      return scope || rank(a) - rank(b) || a.id - b.id
    })
}

/**
 * The text block a writer's prompt includes as its voice guide: each applicable document (docsForClient) as
 * `### <Kind>: <title>` and its body, client-specific first, at most `maxChars` characters in all. A document
 * that does not fit is cut at a line or word boundary and marked `[…truncated]`; what comes after it is left
 * out. '' when no document applies (a writer then uses its own defaults).
 */
export function voiceGuide(docs: readonly VoiceGuideDoc[], clientId: number | null, maxChars = VOICE_GUIDE_MAX_CHARS): string {
  const parts: string[] = []
  let used = 0
  for (const doc of docsForClient(docs, clientId)) {
    const separator = parts.length > 0 ? '\n\n' : ''
    const scope = doc.client_id === null ? '' : ' (this client)'
    const heading = `### ${KIND_LABEL[doc.kind]}: ${doc.title}${scope}\n`
    const body = doc.body.trim()
    const room = maxChars - used - separator.length - heading.length
    if (room < MIN_USEFUL_CHARS && room < body.length) break
    if (body.length <= room) {
      parts.push(separator + heading + body)
      used += separator.length + heading.length + body.length
      continue
    }
    parts.push(separator + heading + cut(body, room - TRUNCATED.length) + TRUNCATED)
    break
  }
  return parts.join('')
}

/** The text cut to at most `max` characters, at the last line break or space past half of it when there is one. */
function cut(text: string, max: number): string {
  const head = text.slice(0, Math.max(0, max))
  const boundary = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '))
  return (boundary > max / 2 ? head.slice(0, boundary) : head).trimEnd()
}
