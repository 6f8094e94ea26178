import { BUILT_IN_SECTION_TEMPLATES } from '../../../domain/publishing/templates/built-in-sections.js'
import {
  activeSectionTemplateNamed,
  type SectionCatalogState,
  type SectionTemplateInput,
  sectionCatalog,
} from '../../../domain/publishing/templates/section-catalog.js'
import type { Change } from '../../../domain/publishing/templates/values.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/** The platform's section templates, folded from their stream (consistent with the last write). */
export function loadSectionCatalog(deps: Pick<WriteDeps, 'store'>): Promise<SectionCatalogState> {
  return loadState(deps.store, sectionCatalog, 'platform')
}

/** add_section_template: a new template of the platform catalog (a platform key's write; the RPC checks that). */
export async function addSectionTemplate(
  deps: WriteDeps,
  context: CommandContext,
  input: SectionTemplateInput & { builtIn?: boolean },
): Promise<{ templateId: number; position: Position | null }> {
  const templateId = await deps.ids.next('section_template')
  const { builtIn, ...fields } = input
  const outcome = await handleCommand(deps, {
    aggregate: sectionCatalog,
    id: 'platform',
    command: { type: 'AddSectionTemplate', template_id: templateId, built_in: builtIn ?? false, ...fields },
    context,
  })
  return { templateId, position: outcome.position }
}

/** update_section_template: what is given replaces what it had, and the version goes up; the same values again change nothing. */
export async function updateSectionTemplate(
  deps: WriteDeps,
  context: CommandContext,
  input: Change<SectionTemplateInput> & { templateId: number },
): Promise<{ updated: boolean; position: Position | null }> {
  const { templateId, ...fields } = input
  const outcome = await handleCommand(deps, {
    aggregate: sectionCatalog,
    id: 'platform',
    command: { type: 'UpdateSectionTemplate', template_id: templateId, ...fields },
    context,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}

/** retire_section_template: no new section takes it; retiring again changes nothing. */
export async function retireSectionTemplate(
  deps: WriteDeps,
  context: CommandContext,
  input: { templateId: number },
): Promise<{ retired: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: sectionCatalog,
    id: 'platform',
    command: { type: 'RetireSectionTemplate', template_id: input.templateId },
    context,
  })
  return { retired: outcome.events.length > 0, position: outcome.position }
}

/**
 * The built-in section templates the catalog does not hold yet (by category and name among active ones),
 * added: what the sandbox seed runs, and an operator may run again on any deployment, adding nothing twice.
 */
export async function seedBuiltInSectionTemplates(
  deps: WriteDeps,
  context: CommandContext,
): Promise<{ added: number[]; position: Position | null }> {
  const catalog = await loadSectionCatalog(deps)
  const added: number[] = []
  let position: Position | null = null
  for (const template of BUILT_IN_SECTION_TEMPLATES) {
    if (activeSectionTemplateNamed(catalog, template.category, template.name)) continue
    const outcome = await addSectionTemplate(deps, context, { ...template, builtIn: true })
    added.push(outcome.templateId)
    position = outcome.position ?? position
  }
  return { added, position }
}
