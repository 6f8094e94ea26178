import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { SectionTemplatesEvent } from './events.js'
import { sameValue } from './same-value.js'
import { assertSectionTemplate } from './section-rules.js'
import type { Change, SectionField, SectionTemplateStatus } from './values.js'

/**
 * The platform's section templates: one stream, `section_templates`, holding every template (a few dozen at
 * most), so "one active template per category and name" is one decision and the built-in catalog can be
 * seeded again without adding a second copy. It belongs to no organization: every key reads it, only a
 * platform key writes it.
 */
export const SECTION_TEMPLATES_STREAM = 'section_templates'

export interface SectionTemplateRecord {
  readonly id: number
  readonly category: string
  readonly name: string
  readonly description: string
  readonly fields: readonly SectionField[]
  readonly elementorJson: string
  readonly version: number
  readonly status: SectionTemplateStatus
  readonly builtIn: boolean
}

export interface SectionCatalogState {
  readonly templates: readonly SectionTemplateRecord[]
}

export interface SectionTemplateInput {
  readonly category: string
  readonly name: string
  readonly description: string
  readonly fields: readonly SectionField[]
  readonly elementor_json: string
}

export type SectionCatalogCommand =
  | ({ type: 'AddSectionTemplate'; template_id: number; built_in: boolean } & SectionTemplateInput)
  | ({ type: 'UpdateSectionTemplate'; template_id: number } & Change<SectionTemplateInput>)
  | { type: 'RetireSectionTemplate'; template_id: number }

const initialState = (): SectionCatalogState => ({ templates: [] })

export function findSectionTemplate(state: SectionCatalogState, templateId: number): SectionTemplateRecord | undefined {
  return state.templates.find((t) => t.id === templateId)
}

const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()

/** The active template of `category` called `name` (case and spacing aside), if any. */
export function activeSectionTemplateNamed(state: SectionCatalogState, category: string, name: string): SectionTemplateRecord | undefined {
  return state.templates.find((t) => t.status === 'active' && t.category === category && nameKey(t.name) === nameKey(name))
}

function assertNameFree(state: SectionCatalogState, category: string, name: string, self: number): void {
  const holder = activeSectionTemplateNamed(state, category, name)
  if (holder && holder.id !== self) {
    throw new DomainError(
      'section_template_name_taken',
      'Another active section template of the category has this name',
      `${category} "${name.trim()}" is section template ${holder.id}`,
    )
  }
}

function evolve(state: SectionCatalogState, event: SectionTemplatesEvent): SectionCatalogState {
  switch (event.type) {
    case 'SectionTemplateAdded': {
      const d = event.data
      const record: SectionTemplateRecord = {
        id: d.template_id,
        category: d.category,
        name: d.name,
        description: d.description,
        fields: d.fields,
        elementorJson: d.elementor_json,
        version: d.version,
        status: 'active',
        builtIn: d.built_in,
      }
      return { templates: [...state.templates, record] }
    }
    case 'SectionTemplateUpdated': {
      const d = event.data
      return {
        templates: state.templates.map((t) =>
          t.id === d.template_id
            ? {
                ...t,
                category: d.category,
                name: d.name,
                description: d.description,
                fields: d.fields,
                elementorJson: d.elementor_json,
                version: d.version,
              }
            : t,
        ),
      }
    }
    case 'SectionTemplateRetired':
      return { templates: state.templates.map((t) => (t.id === event.data.template_id ? { ...t, status: 'retired' as const } : t)) }
    default:
      return assertNever(event)
  }
}

const sameFields = (a: readonly SectionField[], b: readonly SectionField[]) => sameValue(a, b)

function decide(command: SectionCatalogCommand, state: SectionCatalogState): SectionTemplatesEvent[] {
  switch (command.type) {
    case 'AddSectionTemplate': {
      // The id was allocated for this request: finding it means a retried request already added it.
      if (findSectionTemplate(state, command.template_id)) return []
      const name = command.name.trim()
      assertNameFree(state, command.category, name, command.template_id)
      assertSectionTemplate(command.fields, command.elementor_json)
      return [
        {
          type: 'SectionTemplateAdded',
          data: {
            template_id: command.template_id,
            category: command.category,
            name,
            description: command.description.trim(),
            fields: [...command.fields],
            elementor_json: command.elementor_json,
            version: 1,
            built_in: command.built_in,
          },
        },
      ]
    }
    case 'UpdateSectionTemplate': {
      const current = findSectionTemplate(state, command.template_id)
      if (!current) throw new NotFoundError('section template', command.template_id)
      if (current.status === 'retired') {
        throw new DomainError('section_template_retired', 'The section template is retired', `section template ${current.id}`)
      }
      const next = {
        category: command.category ?? current.category,
        name: command.name?.trim() ?? current.name,
        description: command.description?.trim() ?? current.description,
        fields: command.fields ? [...command.fields] : [...current.fields],
        elementor_json: command.elementor_json ?? current.elementorJson,
      }
      const unchanged =
        next.category === current.category &&
        next.name === current.name &&
        next.description === current.description &&
        sameFields(next.fields, current.fields) &&
        next.elementor_json === current.elementorJson
      if (unchanged) return [] // the same values again (a retried request) change nothing
      assertNameFree(state, next.category, next.name, current.id)
      assertSectionTemplate(next.fields, next.elementor_json)
      return [{ type: 'SectionTemplateUpdated', data: { template_id: current.id, ...next, version: current.version + 1 } }]
    }
    case 'RetireSectionTemplate': {
      const current = findSectionTemplate(state, command.template_id)
      if (!current) throw new NotFoundError('section template', command.template_id)
      if (current.status === 'retired') return [] // retiring again changes nothing
      return [{ type: 'SectionTemplateRetired', data: { template_id: current.id } }]
    }
    default:
      return assertNever(command)
  }
}

export const sectionCatalog: Aggregate<SectionCatalogState, SectionCatalogCommand, SectionTemplatesEvent, 'platform'> = {
  streamOf: () => SECTION_TEMPLATES_STREAM,
  initialState,
  evolve,
  decide,
  orgOf: () => null,
  entity: 'section template',
}
