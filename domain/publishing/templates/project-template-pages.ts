import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { TemplatePagesEvent } from './events.js'
import { sameValue } from './same-value.js'
import type { Change, PageImage, PageSection, TemplatePageStatus } from './values.js'

/**
 * A project's template pages: one stream, `template_pages-<project_id>`, so "at most one template page per
 * sitemap page of the project" is one decision. What a page's sections may reference (live section
 * templates, entries of the library client's catalog) is checked by the command before it decides: those
 * live in other streams.
 */
export const templatePagesStream = (projectId: number) => `template_pages-${projectId}`

export interface TemplatePageRecord {
  readonly id: number
  readonly sitemapPageId: number | null
  readonly title: string
  readonly sections: readonly PageSection[]
  readonly images: readonly PageImage[]
  readonly status: TemplatePageStatus
}

export interface ProjectTemplatePagesState {
  readonly pages: readonly TemplatePageRecord[]
}

export interface TemplatePageInput {
  readonly sitemap_page_id: number | null
  readonly title: string
  readonly sections: readonly PageSection[]
  readonly images: readonly PageImage[]
  readonly status: TemplatePageStatus
}

export type TemplatePagesCommand =
  | ({ type: 'AddTemplatePage'; project_id: number; client_id: number; page_id: number } & TemplatePageInput)
  | ({ type: 'UpdateTemplatePage'; project_id: number; client_id: number; page_id: number } & Change<TemplatePageInput>)

const initialState = (): ProjectTemplatePagesState => ({ pages: [] })

export function findTemplatePage(state: ProjectTemplatePagesState, pageId: number): TemplatePageRecord | undefined {
  return state.pages.find((p) => p.id === pageId)
}

/** An image slot's status says whether it has an image: needed ⇔ no URL. Slots are unique on a page. */
export function assertImages(images: readonly PageImage[]): void {
  const slots = images.map((i) => i.slot)
  const duplicate = slots.find((s, i) => slots.indexOf(s) !== i)
  if (duplicate) throw new DomainError('template_page_images_invalid', 'The images do not fit together', `slot ${duplicate} is given twice`)
  for (const image of images) {
    if ((image.url === null) !== (image.status === 'needed')) {
      throw new DomainError(
        'template_page_images_invalid',
        'The images do not fit together',
        `slot ${image.slot}: ${image.url === null ? 'without a url the status is needed' : 'an image with a url is chosen, uploaded or failed, not needed'}`,
      )
    }
  }
}

/** archived takes the page out of the build; it comes back only as a draft. Every other move is free. */
function assertTransition(page: TemplatePageRecord, to: TemplatePageStatus): void {
  if (page.status === 'archived' && to !== 'archived' && to !== 'draft') {
    throw new DomainError(
      'template_page_status_invalid',
      'The template page cannot move to this status',
      `template page ${page.id} is archived; it may move to draft, not ${to}`,
    )
  }
}

function assertSitemapPageFree(state: ProjectTemplatePagesState, sitemapPageId: number | null, self: number): void {
  if (sitemapPageId === null) return
  const holder = state.pages.find((p) => p.sitemapPageId === sitemapPageId && p.id !== self)
  if (holder) {
    throw new DomainError(
      'template_page_sitemap_page_taken',
      'Another template page of the project is built for this sitemap page',
      `sitemap page ${sitemapPageId} is template page ${holder.id}`,
    )
  }
}

function evolve(state: ProjectTemplatePagesState, event: TemplatePagesEvent): ProjectTemplatePagesState {
  const d = event.data
  const record: TemplatePageRecord = {
    id: d.page_id,
    sitemapPageId: d.sitemap_page_id,
    title: d.title,
    sections: d.sections,
    images: d.images,
    status: d.status,
  }
  switch (event.type) {
    case 'TemplatePageAdded':
      return { pages: [...state.pages, record] }
    case 'TemplatePageUpdated':
      return { pages: state.pages.map((p) => (p.id === d.page_id ? record : p)) }
    default:
      return assertNever(event)
  }
}

function decide(command: TemplatePagesCommand, state: ProjectTemplatePagesState): TemplatePagesEvent[] {
  switch (command.type) {
    case 'AddTemplatePage': {
      // The id was allocated for this request: finding it means a retried request already added it.
      if (findTemplatePage(state, command.page_id)) return []
      assertSitemapPageFree(state, command.sitemap_page_id, command.page_id)
      assertImages(command.images)
      const { type: _type, ...data } = command
      return [
        { type: 'TemplatePageAdded', data: { ...data, title: data.title.trim(), sections: [...data.sections], images: [...data.images] } },
      ]
    }
    case 'UpdateTemplatePage': {
      const page = findTemplatePage(state, command.page_id)
      if (!page) throw new NotFoundError('template page', command.page_id)
      const next = {
        sitemap_page_id: command.sitemap_page_id !== undefined ? command.sitemap_page_id : page.sitemapPageId,
        title: command.title?.trim() ?? page.title,
        sections: [...(command.sections ?? page.sections)],
        images: [...(command.images ?? page.images)],
        status: command.status ?? page.status,
      }
      assertTransition(page, next.status)
      assertSitemapPageFree(state, next.sitemap_page_id, page.id)
      assertImages(next.images)
      const before = {
        sitemap_page_id: page.sitemapPageId,
        title: page.title,
        sections: page.sections,
        images: page.images,
        status: page.status,
      }
      if (sameValue(before, next)) return [] // the same values again change nothing
      return [
        { type: 'TemplatePageUpdated', data: { project_id: command.project_id, client_id: command.client_id, page_id: page.id, ...next } },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const projectTemplatePages: Aggregate<ProjectTemplatePagesState, TemplatePagesCommand, TemplatePagesEvent> = {
  streamOf: templatePagesStream,
  initialState,
  evolve,
  decide,
  entity: 'template page',
}
