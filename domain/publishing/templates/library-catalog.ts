import type { Aggregate } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { TemplateCatalogEvent } from './events.js'
import type { TemplateRole } from './values.js'

/**
 * A library client's template catalog: the Elementor templates saved on its WordPress, one entry per
 * WordPress template id, in the client's stream `template_catalog-<library_client_id>`. Recording an entry
 * again with the same values changes nothing, so a sync (next session) records only what changed.
 */
export const templateCatalogStream = (libraryClientId: number) => `template_catalog-${libraryClientId}`

export interface CatalogEntryRecord {
  readonly templateId: number
  readonly title: string
  readonly role: TemplateRole
  readonly tags: readonly string[]
  readonly thumbnailUrl: string | null
  readonly modifiedGmt: string | null
  readonly removed: boolean
}

export interface TemplateCatalogState {
  readonly entries: readonly CatalogEntryRecord[]
}

export interface CatalogEntryInput {
  readonly title: string
  readonly role: TemplateRole
  readonly tags: readonly string[]
  readonly thumbnail_url: string | null
  readonly modified_gmt: string | null
}

export type TemplateCatalogCommand =
  | ({ type: 'RecordCatalogEntry'; library_client_id: number; template_id: number } & CatalogEntryInput)
  | { type: 'RemoveCatalogEntry'; library_client_id: number; template_id: number }

const initialState = (): TemplateCatalogState => ({ entries: [] })

/** The entry while it is in the library (a removed one reads as missing). */
export function liveCatalogEntry(state: TemplateCatalogState, templateId: number): CatalogEntryRecord | undefined {
  return state.entries.find((e) => e.templateId === templateId && !e.removed)
}

function evolve(state: TemplateCatalogState, event: TemplateCatalogEvent): TemplateCatalogState {
  switch (event.type) {
    case 'TemplateCatalogEntryRecorded': {
      const d = event.data
      const entry: CatalogEntryRecord = {
        templateId: d.template_id,
        title: d.title,
        role: d.role,
        tags: d.tags,
        thumbnailUrl: d.thumbnail_url,
        modifiedGmt: d.modified_gmt,
        removed: false,
      }
      return { entries: [...state.entries.filter((e) => e.templateId !== d.template_id), entry] }
    }
    case 'TemplateCatalogEntryRemoved':
      return { entries: state.entries.map((e) => (e.templateId === event.data.template_id ? { ...e, removed: true } : e)) }
    default:
      return assertNever(event)
  }
}

/** Tags trimmed, without repeats (case aside), in the order given. */
export function normalTags(tags: readonly string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const tag of tags.map((t) => t.trim()).filter(Boolean)) {
    if (seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    out.push(tag)
  }
  return out
}

function decide(command: TemplateCatalogCommand, state: TemplateCatalogState): TemplateCatalogEvent[] {
  switch (command.type) {
    case 'RecordCatalogEntry': {
      const data = {
        library_client_id: command.library_client_id,
        template_id: command.template_id,
        title: command.title.trim(),
        role: command.role,
        tags: normalTags(command.tags),
        thumbnail_url: command.thumbnail_url,
        modified_gmt: command.modified_gmt,
      }
      const current = liveCatalogEntry(state, command.template_id)
      const same =
        current &&
        current.title === data.title &&
        current.role === data.role &&
        JSON.stringify(current.tags) === JSON.stringify(data.tags) &&
        current.thumbnailUrl === data.thumbnail_url &&
        current.modifiedGmt === data.modified_gmt
      if (same) return [] // recorded as it already is: nothing changed on the site
      return [{ type: 'TemplateCatalogEntryRecorded', data }]
    }
    case 'RemoveCatalogEntry': {
      const entry = state.entries.find((e) => e.templateId === command.template_id)
      if (!entry) throw new NotFoundError('template catalog entry', command.template_id)
      if (entry.removed) return [] // removing again changes nothing
      return [
        { type: 'TemplateCatalogEntryRemoved', data: { library_client_id: command.library_client_id, template_id: command.template_id } },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const templateCatalog: Aggregate<TemplateCatalogState, TemplateCatalogCommand, TemplateCatalogEvent> = {
  streamOf: templateCatalogStream,
  initialState,
  evolve,
  decide,
  entity: 'template catalog',
}
