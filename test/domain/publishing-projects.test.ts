/**
 * Website projects, pure: the project aggregate (add, a retried add, update, the status flow, archived
 * read-only) and its sitemap (slugs unique among live pages, the tree without cycles or excess depth,
 * positions, the page status flow, deletes with and without children).
 */
import t from 'tap'
import type { WebsiteProjectEvent } from '../../domain/publishing/projects/events.js'
import { canMovePage } from '../../domain/publishing/projects/sitemap-status-flow.js'
import { canMoveProject } from '../../domain/publishing/projects/status-flow.js'
import { websiteProject, websiteProjectStream } from '../../domain/publishing/projects/website-project.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const fields = {
  name: 'Acme rebuild',
  kind: 'rebuild' as const,
  site_url: 'https://acme.com',
  staging_url: null,
  library_client_id: null,
  notes: null,
}
const added: WebsiteProjectEvent = {
  type: 'WebsiteProjectAdded',
  data: { project_id: 5, org_id: 1, client_id: 34, status: 'planning', ...fields },
}
const moved = (from: any, to: any): WebsiteProjectEvent => ({
  type: 'WebsiteProjectStatusChanged',
  data: { project_id: 5, client_id: 34, from, to },
})
const page = (page_id: number, slug: string, parent_id: number | null = null, position = 0): WebsiteProjectEvent => ({
  type: 'SitemapPageAdded',
  data: {
    project_id: 5,
    client_id: 34,
    page_id,
    status: 'planned',
    title: `Page ${page_id}`,
    slug,
    parent_id,
    page_type: 'other',
    position,
    primary_keyword: null,
  },
})
const addPage = (page_id: number, slug: string, parent_id: number | null = null, position: number | null = null) =>
  ({
    type: 'AddSitemapPage',
    project_id: 5,
    page_id,
    status: 'planned',
    fields: { title: `Page ${page_id}`, slug, parent_id, page_type: 'other', position, primary_keyword: null },
  }) as const

t.test('the project: add, retry, update, status flow, archived is read-only', async (t) => {
  const given = spec(websiteProject)
  t.equal(websiteProjectStream(5), 'website_project-5')
  given().when({ type: 'AddProject', project_id: 5, org_id: 1, client_id: 34, status: 'planning', fields }).then(t, [added])
  given(added).when({ type: 'AddProject', project_id: 5, org_id: 1, client_id: 34, status: 'planning', fields }).thenNothingHappens(t)
  given(added)
    .when({ type: 'UpdateProject', project_id: 5, fields: { ...fields, notes: 'Phone in header' } })
    .then(t, [{ type: 'WebsiteProjectUpdated', data: { project_id: 5, client_id: 34, ...fields, notes: 'Phone in header' } }])
  given(added).when({ type: 'UpdateProject', project_id: 5, fields }).thenNothingHappens(t)
  given().when({ type: 'UpdateProject', project_id: 5, fields }).thenThrows(t, 'not_found')
  given(added)
    .when({ type: 'SetProjectStatus', project_id: 5, status: 'building' })
    .then(t, [moved('planning', 'building')])
  given(added).when({ type: 'SetProjectStatus', project_id: 5, status: 'planning' }).thenNothingHappens(t)
  given(added).when({ type: 'SetProjectStatus', project_id: 5, status: 'live' }).thenThrows(t, 'website_project_status_invalid', {
    detail: 'website project 5 is planning; it can move to building, archived',
  })
  const archived = [added, moved('planning', 'archived')]
  given(...archived)
    .when({ type: 'UpdateProject', project_id: 5, fields: { ...fields, name: 'X' } })
    .thenThrows(t, 'website_project_archived')
  given(...archived)
    .when(addPage(10, 'home'))
    .thenThrows(t, 'website_project_archived')
  given(...archived)
    .when({ type: 'SetProjectStatus', project_id: 5, status: 'planning' })
    .then(t, [moved('archived', 'planning')])
  given(...archived)
    .when({ type: 'SetProjectStatus', project_id: 5, status: 'live' })
    .thenThrows(t, 'website_project_status_invalid')
  t.ok(canMoveProject('review', 'live'))
  t.ok(canMoveProject('live', 'review'))
  t.notOk(canMoveProject('building', 'live'))
  t.equal(fold(websiteProject, [added]).orgId, 1)
  t.equal(websiteProject.orgOf!(fold(websiteProject, [])), null)
})

t.test('the sitemap: slugs, tree, positions', async (t) => {
  const given = spec(websiteProject)
  given(added)
    .when(addPage(10, ''))
    .then(t, [page(10, '')])
  given(added, page(10, '')).when(addPage(10, '')).thenNothingHappens(t) // a retried add
  given(added, page(10, '')).when(addPage(11, '')).thenThrows(t, 'sitemap_page_slug_taken', {
    detail: '"" is sitemap page 10 (Page 10)',
  })
  // Positions default to after the last live sibling.
  given(added, page(10, 'services'), page(11, 'drains', 10, 0), page(12, 'heaters', 10, 4))
    .when(addPage(13, 'leaks', 10))
    .then(t, [page(13, 'leaks', 10, 5)])
  given(added)
    .when(addPage(13, 'leaks', 99))
    .thenThrows(t, 'sitemap_page_parent_invalid')
  const tree = [added, page(10, 'services'), page(11, 'drains', 10), page(12, 'clogs', 11)]
  // A page cannot move under itself or its own descendant.
  given(...tree)
    .when({ type: 'UpdateSitemapPage', project_id: 5, page_id: 10, changes: { parent_id: 12 } })
    .thenThrows(t, 'sitemap_page_parent_invalid')
  given(...tree)
    .when({ type: 'UpdateSitemapPage', project_id: 5, page_id: 11, changes: { parent_id: 11 } })
    .thenThrows(t, 'sitemap_page_parent_invalid')
  given(...tree)
    .when({ type: 'UpdateSitemapPage', project_id: 5, page_id: 12, changes: { parent_id: 10, slug: 'blocked-drains' } })
    .then(t, [
      {
        type: 'SitemapPageUpdated',
        data: {
          project_id: 5,
          client_id: 34,
          page_id: 12,
          title: 'Page 12',
          slug: 'blocked-drains',
          parent_id: 10,
          page_type: 'other',
          position: 0,
          primary_keyword: null,
        },
      },
    ])
  given(...tree)
    .when({ type: 'UpdateSitemapPage', project_id: 5, page_id: 12, changes: { slug: 'drains' } })
    .thenThrows(t, 'sitemap_page_slug_taken')
  given(...tree)
    .when({ type: 'UpdateSitemapPage', project_id: 5, page_id: 12, changes: { slug: 'clogs' } })
    .thenNothingHappens(t)
  // Depth: eight levels at most.
  const chain: WebsiteProjectEvent[] = [added]
  for (let i = 1; i <= 8; i++) chain.push(page(100 + i, `level-${i}`, i === 1 ? null : 100 + i - 1))
  given(...chain)
    .when(addPage(200, 'too-deep', 108))
    .thenThrows(t, 'sitemap_page_parent_invalid', {
      detail: 'the page would sit deeper than 8 levels',
    })
  given(...chain)
    .when(addPage(200, 'deep-enough', 107))
    .then(t, [page(200, 'deep-enough', 107, 1)])
})

t.test('sitemap pages: the status flow and deletes', async (t) => {
  const given = spec(websiteProject)
  const tree = [added, page(10, 'services'), page(11, 'drains', 10), page(12, 'about')]
  const status = (page_id: number, to: any, wp_post_id: number | null = null) =>
    ({ type: 'SetSitemapPageStatus', project_id: 5, page_id, status: to, wp_post_id }) as const
  const changed = (page_id: number, from: any, to: any, wp_post_id: number | null = null): WebsiteProjectEvent => ({
    type: 'SitemapPageStatusChanged',
    data: { project_id: 5, client_id: 34, page_id, from, to, wp_post_id },
  })
  given(...tree)
    .when(status(12, 'drafted'))
    .then(t, [changed(12, 'planned', 'drafted')])
  given(...tree)
    .when(status(12, 'published'))
    .thenThrows(t, 'validation_failed')
  given(...tree)
    .when(status(12, 'published', 812))
    .then(t, [changed(12, 'planned', 'published', 812)])
  const published = [...tree, changed(12, 'planned', 'published', 812)]
  given(...published)
    .when(status(12, 'approved'))
    .then(t, [changed(12, 'published', 'approved', 812)])
  given(...published)
    .when(status(12, 'drafted'))
    .thenThrows(t, 'sitemap_page_status_invalid', {
      detail: 'sitemap page 12 is published; it can move to approved',
    })
  given(...published)
    .when(status(12, 'published', 812))
    .thenNothingHappens(t)
  given(...published)
    .when(status(12, 'published', 900))
    .then(t, [changed(12, 'published', 'published', 900)])
  t.ok(canMovePage('planned', 'approved'))
  t.notOk(canMovePage('approved', 'drafting'))

  const del = (page_id: number, with_children = false) => ({ type: 'DeleteSitemapPage', project_id: 5, page_id, with_children }) as const
  const deleted = (page_id: number): WebsiteProjectEvent => ({
    type: 'SitemapPageDeleted',
    data: { project_id: 5, client_id: 34, page_id },
  })
  given(...tree)
    .when(del(10))
    .thenThrows(t, 'sitemap_page_has_children', { detail: 'sitemap page 10 has 1 page(s) below it: 11' })
  given(...tree)
    .when(del(10, true))
    .then(t, [deleted(11), deleted(10)])
  given(...tree, deleted(12))
    .when(del(12))
    .thenNothingHappens(t)
  given(...tree, deleted(12))
    .when(status(12, 'drafted'))
    .thenThrows(t, 'sitemap_page_deleted')
  given(...tree)
    .when(del(99))
    .thenThrows(t, 'not_found')
  // A deleted page's slug is free again.
  given(...tree, deleted(12))
    .when(addPage(13, 'about'))
    .then(t, [page(13, 'about', null, 1)])
})
