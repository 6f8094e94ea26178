import type { Aggregate } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { ElementorPageEvent } from './elementor-events.js'
import type { WidgetCounts } from './elementor-values.js'

/**
 * A project's Elementor pages: one stream per project, `elementor_pages-<project_id>`. The state keeps only
 * each page's stamp and data hash (what decides whether a recording changes anything), not the data itself.
 * Whether the project is the caller's and open is read by the command from the project's stream first.
 */
export const elementorPagesStream = (projectId: number) => `elementor_pages-${projectId}`

export interface ElementorPageStamp {
  readonly modifiedGmt: string
  readonly sha256: string
  /** Removed from the site (remove_elementor_page); a later recording brings it back. */
  readonly removed: boolean
}

export interface ElementorPagesState {
  readonly projectId: number
  readonly clientId: number
  readonly pages: Readonly<Record<number, ElementorPageStamp>>
}

export interface ElementorPageValues {
  readonly wp_post_id: number
  readonly title: string
  readonly slug: string | null
  readonly status: string | null
  readonly link: string | null
  readonly modified_gmt: string
  readonly elementor_data: string
  readonly elementor_data_sha256: string
  readonly widget_counts: WidgetCounts
}

export type ElementorPagesCommand =
  | { type: 'RecordPage'; project_id: number; client_id: number; page: ElementorPageValues }
  | { type: 'RemovePage'; project_id: number; client_id: number; wp_post_id: number }

const initialState = (): ElementorPagesState => ({ projectId: 0, clientId: 0, pages: {} })

function evolve(state: ElementorPagesState, event: ElementorPageEvent): ElementorPagesState {
  const d = event.data
  switch (event.type) {
    case 'ElementorPageRecorded': {
      const stamp: ElementorPageStamp = { modifiedGmt: event.data.modified_gmt, sha256: event.data.elementor_data_sha256, removed: false }
      return { projectId: d.project_id, clientId: d.client_id, pages: { ...state.pages, [d.wp_post_id]: stamp } }
    }
    case 'ElementorPageRemoved': {
      const current = state.pages[d.wp_post_id]
      if (!current) return state
      return { ...state, pages: { ...state.pages, [d.wp_post_id]: { ...current, removed: true } } }
    }
    default:
      return assertNever(event)
  }
}

function decide(command: ElementorPagesCommand, state: ElementorPagesState): ElementorPageEvent[] {
  switch (command.type) {
    case 'RecordPage': {
      const p = command.page
      const known = state.pages[p.wp_post_id]
      // A sync may read the same page again: the same stamp and data record nothing.
      if (known && !known.removed && known.modifiedGmt === p.modified_gmt && known.sha256 === p.elementor_data_sha256) return []
      return [{ type: 'ElementorPageRecorded', data: { project_id: command.project_id, client_id: command.client_id, ...p } }]
    }
    case 'RemovePage': {
      const known = state.pages[command.wp_post_id]
      if (!known) throw new NotFoundError('elementor page', command.wp_post_id)
      if (known.removed) return [] // removed before: a repeated sync changes nothing
      return [
        {
          type: 'ElementorPageRemoved',
          data: { project_id: command.project_id, client_id: command.client_id, wp_post_id: command.wp_post_id },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const elementorPages: Aggregate<ElementorPagesState, ElementorPagesCommand, ElementorPageEvent> = {
  streamOf: elementorPagesStream,
  initialState,
  evolve,
  decide,
  entity: 'elementor pages',
}
