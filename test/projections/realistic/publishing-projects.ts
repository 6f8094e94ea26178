import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The website projects part of the realistic log, through HTTP: a rebuild project with a library client,
 * updated (and updated again to the same values: no event), moved through its stages, archived and taken up
 * again; its sitemap (a tree, a page moved, a loop refused, a page published and given another post id,
 * deletes with children); a new-site project in the other organization; a jump in status refused.
 */
export async function writeWebsiteProjectsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const rebuild = await call<number>(
    'add_website_project',
    { project: { client_id: plumbers, name: 'Plumbers rebuild', library_client_id: heaters, notes: 'Keep the phone number' } },
    keys.orgA,
  )
  await call('update_website_project', { project_id: rebuild, staging_url: 'https://staging.example-plumbers.com' }, keys.orgA)
  await call('update_website_project', { project_id: rebuild, staging_url: 'https://staging.example-plumbers.com' }, keys.orgA) // no change
  await call('set_website_project_status', { project_id: rebuild, status: 'building' }, keys.orgA)
  const jump = await ts.rpc('set_website_project_status', { project_id: rebuild, status: 'live' }, keys.orgA)
  if (jump.statusCode !== 409) throw new Error(`a jump in project status answered ${jump.statusCode}`)
  await call('set_website_project_status', { project_id: rebuild, status: 'archived' }, keys.orgA)
  await call('set_website_project_status', { project_id: rebuild, status: 'planning' }, keys.orgA)
  await call('set_website_project_status', { project_id: rebuild, status: 'building' }, keys.orgA)
  const page = (params: Record<string, unknown>) => call<{ id: number }>('add_sitemap_page', { project_id: rebuild, ...params }, keys.orgA)
  const home = await page({ title: 'Home', page_type: 'home' })
  const services = await page({ title: 'Services', page_type: 'service' })
  const drains = await page({ title: 'Drain cleaning', parent_id: services.id, primary_keyword: 'drain cleaning' })
  const leaks = await page({ title: 'Leak repair', parent_id: services.id })
  await call('update_sitemap_page', { page_id: leaks.id, parent_id: home.id, position: 3 }, keys.orgA)
  await call('update_sitemap_page', { page_id: leaks.id, parent_id: home.id, position: 3 }, keys.orgA) // no change
  const loop = await ts.rpc('update_sitemap_page', { page_id: services.id, parent_id: drains.id }, keys.orgA)
  if (loop.statusCode !== 409) throw new Error(`a loop in the sitemap answered ${loop.statusCode}`)
  await call('set_sitemap_page_status', { page_id: drains.id, status: 'drafted' }, keys.orgA)
  await call('set_sitemap_page_status', { page_id: drains.id, status: 'published', wp_post_id: 812 }, keys.orgA)
  await call('set_sitemap_page_status', { page_id: drains.id, status: 'published', wp_post_id: 813 }, keys.orgA) // another post
  const blog = await page({ title: 'Blog', page_type: 'blog_index' })
  await page({ title: 'First post', parent_id: blog.id })
  await call('delete_sitemap_page', { page_id: blog.id, with_children: true }, keys.orgA)
  await call('delete_sitemap_page', { page_id: leaks.id }, keys.orgA)
  const content = (sitemap_page_id: number, kind: string, body: string, writer?: string) =>
    call<{ id: number }>('record_generated_content', { sitemap_page_id, kind, body, ...(writer ? { writer } : {}) }, keys.orgA)
  const first = await content(drains.id, 'page_copy', '<h1>Drain cleaning</h1>')
  const second = await content(drains.id, 'page_copy', '<h1>Drain cleaning in Austin</h1>', 'claude-sonnet-4-5')
  const meta = await content(home.id, 'meta', 'Plumbers | Fast drain cleaning')
  await call('mark_content_exported', { content_ids: [first.id, second.id] }, keys.orgA)
  await call('mark_content_exported', { content_ids: [second.id, meta.id] }, keys.orgA) // one already exported
  await call('mark_content_pushed', { content_id: second.id, wp_post_id: 813 }, keys.orgA)
  await call('mark_content_pushed', { content_id: second.id, wp_post_id: 813 }, keys.orgA) // no change
  // Elementor pages of the rebuild's site: recorded, read again unchanged (no event), edited on the site, one gone.
  const elementor = (wp_post_id: number, modified_gmt: string, widgets: string[]) =>
    call(
      'record_elementor_page',
      {
        project_id: rebuild,
        wp_post_id,
        title: `Page ${wp_post_id}`,
        status: 'publish',
        modified_gmt,
        elementor_data: JSON.stringify([{ elType: 'section', elements: widgets.map((widgetType) => ({ elType: 'widget', widgetType })) }]),
      },
      keys.orgA,
    )
  await elementor(813, '2026-11-03T10:42:17', ['heading', 'text-editor'])
  await elementor(813, '2026-11-03T10:42:17', ['heading', 'text-editor']) // the same stamp and data: no event
  await elementor(813, '2026-11-05T09:00:00', ['heading', 'text-editor', 'button'])
  await elementor(820, '2026-11-04T12:00:00', ['image'])
  await call('remove_elementor_page', { project_id: rebuild, wp_post_id: 820 }, keys.orgA)
  await call('add_website_project', { project: { client_id: bravo, name: 'Dental new site', kind: 'new_site', site_url: null } }, keys.orgB)
  const foreign = await ts.rpc('get_website_project', { project_id: rebuild }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign get_website_project answered ${foreign.statusCode}`)
}
