import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The templates part of the realistic log, through HTTP: a section template added, updated, updated with the
 * same values (no event) and retired; a library client's catalog entries recorded, recorded again unchanged,
 * changed and removed (twice); a project's template pages added from both sources and updated; a foreign
 * attempt refused.
 */
export async function writeTemplatesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters] = log.clientIds as [number, number]
  const fields = [{ key: 'headline', kind: 'text', label: 'Headline', required: true, max_length: 90 }]
  const elementor = '[{"id":"a1","elType":"widget","widgetType":"heading","settings":{"title":"{{headline}}"}}]'
  const hero = await call<{ id: number }>(
    'add_section_template',
    { category: 'hero', name: 'Plain hero', fields, elementor_json: elementor },
    ts.platformKey,
  )
  await call('update_section_template', { template_id: hero.id, description: 'A headline on a band' }, ts.platformKey)
  await call('update_section_template', { template_id: hero.id, description: 'A headline on a band' }, ts.platformKey) // the same: no event
  const old = await call<{ id: number }>(
    'add_section_template',
    { category: 'cta', name: 'Old band', fields, elementor_json: elementor },
    ts.platformKey,
  )
  const entry = { library_client_id: heaters, template_id: 2211, title: 'Header dark', role: 'header', tags: ['dark'] }
  await call('record_template_catalog_entry', entry, keys.orgA)
  await call('record_template_catalog_entry', entry, keys.orgA) // unchanged: no event
  await call('record_template_catalog_entry', { ...entry, modified_gmt: '2026-11-02T14:10:00' }, keys.orgA)
  await call('record_template_catalog_entry', { ...entry, template_id: 2212, title: 'Footer', role: 'footer' }, keys.orgA)
  await call('remove_template_catalog_entry', { library_client_id: heaters, template_id: 2212 }, keys.orgA)
  await call('remove_template_catalog_entry', { library_client_id: heaters, template_id: 2212 }, keys.orgA) // again: no event
  const projectId = await call<number>(
    'add_website_project',
    { project: { client_id: plumbers, name: 'Rebuild 2026', library_client_id: heaters } },
    keys.orgA,
  )
  const page = await call<{ id: number }>(
    'add_template_page',
    {
      project_id: projectId,
      title: 'Home',
      sections: [
        { source: 'catalog', template_id: 2211, fields: {} },
        { source: 'section_template', template_id: hero.id, fields: { headline: 'Plumbing in Austin' } },
        { source: 'section_template', template_id: old.id, fields: {} },
      ],
      images: [{ slot: 'hero', url: null, alt: '', status: 'needed' }],
    },
    keys.orgA,
  )
  await call('retire_section_template', { template_id: old.id }, ts.platformKey)
  await call(
    'update_template_page',
    { page_id: page.id, images: [{ slot: 'hero', url: 'https://cdn.example/van.jpg', alt: '', status: 'chosen' }], status: 'ready' },
    keys.orgA,
  )
  const foreign = await ts.rpc('update_template_page', { page_id: page.id, title: 'Taken over' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign update_template_page answered ${foreign.statusCode}`)
}
