import type { Aggregate } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { GeneratedContentEvent } from './events.js'
import type { ContentKind } from './values.js'

/**
 * A project's generated content: one stream per project, `website_project_content-<project_id>`. The state
 * keeps no bodies, only what the rules need: each content's page, kind and version (a page's next version of a
 * kind is one past its highest), and whether it was exported or pushed. Whether the page is live and the project
 * open is read by the command from the project's stream before it records.
 */
export const projectContentStream = (projectId: number) => `website_project_content-${projectId}`

export interface ContentRecord {
  readonly id: number
  readonly sitemapPageId: number
  readonly kind: ContentKind
  readonly version: number
  readonly exported: boolean
  readonly wpPostId: number | null
}

export interface ProjectContentState {
  readonly projectId: number
  readonly orgId: number
  readonly clientId: number
  readonly contents: readonly ContentRecord[]
}

export type ProjectContentCommand =
  | {
      type: 'RecordContent'
      project_id: number
      org_id: number
      client_id: number
      content_id: number
      sitemap_page_id: number
      kind: ContentKind
      body: string
      writer: string
    }
  | { type: 'MarkExported'; project_id: number; content_ids: readonly number[] }
  | { type: 'MarkPushed'; project_id: number; content_id: number; wp_post_id: number }

const initialState = (): ProjectContentState => ({ projectId: 0, orgId: 0, clientId: 0, contents: [] })

function findContent(state: ProjectContentState, contentId: number): ContentRecord {
  const found = state.contents.find((c) => c.id === contentId)
  if (!found) throw new NotFoundError('generated content', contentId)
  return found
}

/** The version the page's next content of this kind gets. */
export function nextVersion(state: ProjectContentState, sitemapPageId: number, kind: ContentKind): number {
  let highest = 0
  for (const c of state.contents) if (c.sitemapPageId === sitemapPageId && c.kind === kind) highest = Math.max(highest, c.version)
  return highest + 1
}

function evolve(state: ProjectContentState, event: GeneratedContentEvent & { metadata?: { org_id?: number | null } | undefined }) {
  const patch = (ids: readonly number[], change: (c: ContentRecord) => ContentRecord): ProjectContentState => ({
    ...state,
    contents: state.contents.map((c) => (ids.includes(c.id) ? change(c) : c)),
  })
  switch (event.type) {
    case 'GeneratedContentRecorded': {
      const d = event.data
      if (state.contents.some((c) => c.id === d.content_id)) return state
      const record: ContentRecord = {
        id: d.content_id,
        sitemapPageId: d.sitemap_page_id,
        kind: d.kind,
        version: d.version,
        exported: false,
        wpPostId: null,
      }
      return {
        projectId: d.project_id,
        orgId: event.metadata?.org_id ?? state.orgId,
        clientId: d.client_id,
        contents: [...state.contents, record],
      }
    }
    case 'GeneratedContentExported':
      return patch(event.data.content_ids, (c) => ({ ...c, exported: true }))
    case 'GeneratedContentPushed':
      return patch([event.data.content_id], (c) => ({ ...c, wpPostId: event.data.wp_post_id }))
    default:
      return assertNever(event)
  }
}

function decide(command: ProjectContentCommand, state: ProjectContentState): GeneratedContentEvent[] {
  switch (command.type) {
    case 'RecordContent': {
      // The id was allocated for this request: finding it means a retried request already recorded it.
      if (state.contents.some((c) => c.id === command.content_id)) return []
      return [
        {
          type: 'GeneratedContentRecorded',
          data: {
            project_id: command.project_id,
            client_id: command.client_id,
            content_id: command.content_id,
            sitemap_page_id: command.sitemap_page_id,
            kind: command.kind,
            version: nextVersion(state, command.sitemap_page_id, command.kind),
            body: command.body,
            writer: command.writer,
          },
        },
      ]
    }
    case 'MarkExported': {
      const fresh = [...new Set(command.content_ids)].filter((id) => !findContent(state, id).exported)
      if (fresh.length === 0) return [] // all exported before: the first export's time stays
      return [{ type: 'GeneratedContentExported', data: { project_id: state.projectId, client_id: state.clientId, content_ids: fresh } }]
    }
    case 'MarkPushed': {
      const content = findContent(state, command.content_id)
      if (content.wpPostId === command.wp_post_id) return [] // pushed to this post already
      return [
        {
          type: 'GeneratedContentPushed',
          data: { project_id: state.projectId, client_id: state.clientId, content_id: content.id, wp_post_id: command.wp_post_id },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const projectContent: Aggregate<ProjectContentState, ProjectContentCommand, GeneratedContentEvent> = {
  streamOf: projectContentStream,
  initialState,
  evolve,
  decide,
  entity: 'generated content',
}
