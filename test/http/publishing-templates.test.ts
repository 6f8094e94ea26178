/**
 * Templates through the RPCs: the platform's section templates (platform-only writes, placeholders checked,
 * names unique per category, versions, retire), a library client's template catalog, a project's template
 * pages built from both, the images report, and another organization's records answering like missing ones.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

const fields = [
  { key: 'headline', kind: 'text', label: 'Headline', required: true, max_length: 20 },
  { key: 'photo', kind: 'image', label: 'Photo', required: false, max_length: null },
]
const elementor = '[{"id":"a1","elType":"widget","widgetType":"heading","settings":{"title":"{{headline}}","image":{"url":"{{ photo }}"}}}]'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const library = await ts.call<number>('add_client', clientPayload('Acme Library'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, client, library, foreignClient }
}

t.test('section templates: platform writes, every key reads', async (t) => {
  const { ts, org } = await setup(t)
  const added = await ts.call<any>(
    'add_section_template',
    { category: 'hero', name: ' Plain  hero ', fields, elementor_json: elementor },
    ts.platformKey,
  )
  t.match(added, {
    category: 'hero',
    name: 'Plain  hero',
    description: '',
    version: 1,
    status: 'active',
    built_in: false,
    placeholders: ['headline', 'photo'],
  })
  expectError(
    t,
    await ts.rpc('add_section_template', { category: 'hero', name: 'Mine', fields, elementor_json: elementor }, org.key),
    403,
    'platform_only',
  )
  expectError(t, await ts.rpc('update_section_template', { template_id: added.id, name: 'Mine' }, org.key), 403, 'platform_only')
  expectError(t, await ts.rpc('retire_section_template', { template_id: added.id }, org.key), 403, 'platform_only')
  t.same(await ts.call('get_section_template', { template_id: added.id }, org.key), added, 'an organization key reads it')
  t.same(
    (await ts.call<any[]>('get_section_templates', { category: 'hero' }, org.key)).map((s) => s.id),
    [added.id],
  )
  t.same(await ts.call('get_section_templates', { category: 'faq' }, org.key), [])

  // Placeholders and fields must be the same set; JSON must parse; names are unique per category.
  for (const [label, body] of [
    ['undeclared placeholder', { elementor_json: '[{"t":"{{headline}} {{photo}} {{extra}}"}]' }],
    ['unused field', { elementor_json: '[{"t":"{{headline}}"}]' }],
    ['not JSON', { elementor_json: '[{"t":"{{headline}}{{photo}}"' }],
    ['a field twice', { fields: [fields[0], fields[0]], elementor_json: '[{"t":"{{headline}}"}]' }],
  ] as const) {
    expectError(
      t,
      await ts.rpc('add_section_template', { category: 'cta', name: label, fields, ...body }, ts.platformKey),
      400,
      'section_template_invalid',
      label,
    )
  }
  expectError(
    t,
    await ts.rpc('add_section_template', { category: 'hero', name: 'plain hero', fields, elementor_json: elementor }, ts.platformKey),
    409,
    'section_template_name_taken',
  )
  expectError(
    t,
    await ts.rpc('add_section_template', { category: 'Hero!', name: 'x', fields, elementor_json: elementor }, ts.platformKey),
    400,
    'validation_failed',
  )

  const updated = await ts.call<any>('update_section_template', { template_id: added.id, description: 'A band' }, ts.platformKey)
  t.match(updated, { version: 2, description: 'A band' })
  t.same(
    await ts.call('update_section_template', { template_id: added.id, description: 'A band', fields }, ts.platformKey),
    updated,
    'the same values again change nothing',
  )
  t.equal((await streamEvents(ts, 'section_templates')).length, 2)
  const retired = await ts.call<any>('retire_section_template', { template_id: added.id }, ts.platformKey)
  t.match(retired, { status: 'retired', version: 2 })
  t.same(await ts.call('retire_section_template', { template_id: added.id }, ts.platformKey), retired)
  t.same(await ts.call('get_section_templates', {}, org.key), [])
  t.same(
    (await ts.call<any[]>('get_section_templates', { include_retired: true }, org.key)).map((s) => s.id),
    [added.id],
  )
  expectError(
    t,
    await ts.rpc('update_section_template', { template_id: added.id, name: 'Back' }, ts.platformKey),
    409,
    'section_template_retired',
  )
  expectError(t, await ts.rpc('get_section_template', { template_id: 999_999 }, org.key), 404, 'not_found')
})

t.test('the template catalog of a library client', async (t) => {
  const { ts, org, other, library, foreignClient } = await setup(t)
  const entry = { library_client_id: library, template_id: 2211, title: 'Header dark', role: 'header', tags: ['dark', ' Dark ', 'sticky'] }
  const recorded = await ts.call<any>('record_template_catalog_entry', entry, org.key)
  t.match(recorded, {
    library_client_id: library,
    template_id: 2211,
    role: 'header',
    tags: ['dark', 'sticky'],
    thumbnail_url: null,
    modified_gmt: null,
  })
  await ts.call('record_template_catalog_entry', entry, org.key)
  t.equal((await streamEvents(ts, `template_catalog-${library}`)).length, 1, 'recorded unchanged: no event')
  await ts.call(
    'record_template_catalog_entry',
    { ...entry, template_id: 2300, title: 'Landing', role: 'page', thumbnail_url: 'https://lib.example/t.png' },
    org.key,
  )
  t.same(
    (await ts.call<any[]>('list_template_catalog', { library_client_id: library }, org.key)).map((e) => e.template_id),
    [2211, 2300],
  )
  t.same(
    (await ts.call<any[]>('list_template_catalog', { library_client_id: library, role: 'page' }, org.key)).map((e) => e.title),
    ['Landing'],
  )
  t.same(await ts.call('get_template_catalog_entry', { library_client_id: library, template_id: 2211 }, org.key), recorded)
  t.match(await ts.call('remove_template_catalog_entry', { library_client_id: library, template_id: 2300 }, org.key), { removed: true })
  t.match(await ts.call('remove_template_catalog_entry', { library_client_id: library, template_id: 2300 }, org.key), { removed: false })
  expectError(t, await ts.rpc('get_template_catalog_entry', { library_client_id: library, template_id: 2300 }, org.key), 404, 'not_found')
  expectError(
    t,
    await ts.rpc('remove_template_catalog_entry', { library_client_id: library, template_id: 4444 }, org.key),
    404,
    'not_found',
  )
  expectError(
    t,
    await ts.rpc('record_template_catalog_entry', { ...entry, thumbnail_url: 'javascript:alert(1)' }, org.key),
    400,
    'validation_failed',
  )
  for (const [method, body] of [
    ['list_template_catalog', {}],
    ['get_template_catalog_entry', { template_id: 2211 }],
    ['record_template_catalog_entry', { template_id: 1, title: 'x', role: 'page' }],
    ['remove_template_catalog_entry', { template_id: 1 }],
  ] as const) {
    const missing = 999_999
    const foreign = expectError(
      t,
      await ts.rpc(method, { library_client_id: foreignClient, ...body }, org.key),
      404,
      'not_found',
      `${method} foreign`,
    )
    const absent = expectError(
      t,
      await ts.rpc(method, { library_client_id: missing, ...body }, org.key),
      404,
      'not_found',
      `${method} missing`,
    )
    t.same(withoutIds(foreign, [foreignClient]), withoutIds(absent, [missing]), `${method}: foreign reads as missing`)
  }
  t.same(await ts.call('list_template_catalog', { library_client_id: foreignClient }, other.key), [])
})

t.test('template pages of a project and the images report', async (t) => {
  const { ts, org, other, client, library, foreignClient } = await setup(t)
  const hero = await ts.call<any>(
    'add_section_template',
    { category: 'hero', name: 'Plain hero', fields, elementor_json: elementor },
    ts.platformKey,
  )
  await ts.call(
    'record_template_catalog_entry',
    { library_client_id: library, template_id: 2211, title: 'Header', role: 'header' },
    org.key,
  )
  const bareId = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'No library' } }, org.key)
  const projectId = await ts.call<number>(
    'add_website_project',
    { project: { client_id: client, name: 'Rebuild', library_client_id: library } },
    org.key,
  )
  // The template page is for the project's home page; a page of another project is not this project's.
  const home = await ts.call<any>('add_sitemap_page', { project_id: projectId, title: 'Home', page_type: 'home' }, org.key)
  const elsewhere = await ts.call<any>('add_sitemap_page', { project_id: bareId, title: 'Home', page_type: 'home' }, org.key)
  const sections = [
    { source: 'catalog', template_id: 2211, fields: {} },
    { source: 'section_template', template_id: hero.id, fields: { headline: 'Drains, Austin' } },
  ]
  const images = [
    { slot: 'hero', url: 'https://cdn.example/van.jpg', alt: '', status: 'chosen' },
    { slot: 'team', url: null, alt: '', status: 'needed' },
    { slot: 'truck', url: 'https://cdn.example/truck.jpg', alt: 'Our truck', status: 'uploaded' },
  ]
  const page = await ts.call<any>(
    'add_template_page',
    { project_id: projectId, sitemap_page_id: home.id, title: 'Home', sections, images },
    org.key,
  )
  t.match(page, {
    project_id: projectId,
    client_id: client,
    sitemap_page_id: home.id,
    status: 'draft',
    image_counts: { slots: 3, filled: 2, missing: 1, without_alt: 1, missing_slots: ['team'], without_alt_slots: ['hero'] },
  })
  t.same(await ts.call('get_template_page', { page_id: page.id }, org.key), page)
  t.same(
    (await ts.call<any[]>('get_template_pages_for_project', { project_id: projectId }, org.key)).map((p) => p.id),
    [page.id],
  )

  // Refusals: the sitemap page taken, a catalog template without a library, fields that do not fit, images that do not fit.
  expectError(
    t,
    await ts.rpc('add_template_page', { project_id: projectId, sitemap_page_id: home.id, title: 'Again' }, org.key),
    409,
    'template_page_sitemap_page_taken',
  )
  expectError(
    t,
    await ts.rpc('add_template_page', { project_id: projectId, sitemap_page_id: elsewhere.id, title: 'Stray' }, org.key),
    404,
    'not_found',
  )
  expectError(t, await ts.rpc('update_template_page', { page_id: page.id, sitemap_page_id: elsewhere.id }, org.key), 404, 'not_found')
  expectError(
    t,
    await ts.rpc('add_template_page', { project_id: bareId, title: 'x', sections: [sections[0]] }, org.key),
    409,
    'template_page_library_missing',
  )
  expectError(
    t,
    await ts.rpc(
      'add_template_page',
      { project_id: projectId, title: 'x', sections: [{ source: 'catalog', template_id: 9999, fields: {} }] },
      org.key,
    ),
    404,
    'not_found',
  )
  for (const [label, f] of [
    ['too long', { headline: 'x'.repeat(21) }],
    ['unknown key', { subtitle: 'x' }],
    ['image not a URL', { photo: 'van.jpg' }],
  ] as const) {
    expectError(
      t,
      await ts.rpc(
        'add_template_page',
        { project_id: projectId, title: 'x', sections: [{ source: 'section_template', template_id: hero.id, fields: f }] },
        org.key,
      ),
      400,
      'template_page_fields_invalid',
      label,
    )
  }
  expectError(
    t,
    await ts.rpc('add_template_page', { project_id: projectId, title: 'x', images: [images[0], images[0]] }, org.key),
    400,
    'template_page_images_invalid',
  )
  expectError(
    t,
    await ts.rpc(
      'add_template_page',
      { project_id: projectId, title: 'x', images: [{ slot: 'a', url: null, alt: '', status: 'chosen' }] },
      org.key,
    ),
    400,
    'template_page_images_invalid',
  )

  // A retired template stays on a page that had it, and no new page takes it.
  await ts.call('retire_section_template', { template_id: hero.id }, ts.platformKey)
  const updated = await ts.call<any>(
    'update_template_page',
    { page_id: page.id, sections: [...sections].reverse(), status: 'ready' },
    org.key,
  )
  t.match(updated, { status: 'ready', sections: [{ source: 'section_template' }, { source: 'catalog' }] })
  t.same(
    await ts.call('update_template_page', { page_id: page.id, sections: [...sections].reverse() }, org.key),
    updated,
    'the same values again change nothing',
  )
  expectError(
    t,
    await ts.rpc('add_template_page', { project_id: projectId, title: 'New', sections: [sections[1]] }, org.key),
    409,
    'section_template_retired',
  )
  await ts.call('update_template_page', { page_id: page.id, status: 'archived' }, org.key)
  expectError(t, await ts.rpc('update_template_page', { page_id: page.id, status: 'built' }, org.key), 409, 'template_page_status_invalid')
  await ts.call('update_template_page', { page_id: page.id, status: 'draft' }, org.key)

  const second = await ts.call<any>(
    'add_template_page',
    { project_id: bareId, title: 'About', images: [{ slot: 'x', url: null, status: 'needed' }] },
    org.key,
  )
  const report = await ts.call<any>('get_template_images_report', { client_id: client }, org.key)
  t.same(
    report.pages.map((p: any) => [p.page_id, p.missing]),
    [
      [second.id, 1],
      [page.id, 1],
    ],
    'by project (the one without a library was added first), then page',
  )
  t.same(report.totals, { pages: 2, slots: 4, filled: 2, missing: 2, without_alt: 1 })
  t.same((await ts.call<any>('get_template_images_report', { client_id: library }, org.key)).totals.pages, 0)

  // Another organization's project, page or client answers like a missing one.
  const missing = 999_999
  for (const [method, body, id] of [
    ['get_template_pages_for_project', { project_id: projectId }, projectId],
    ['add_template_page', { project_id: projectId, title: 'x' }, projectId],
    ['get_template_page', { page_id: page.id }, page.id],
    ['update_template_page', { page_id: page.id, title: 'x' }, page.id],
  ] as const) {
    const key = Object.keys(body)[0]!
    const foreign = expectError(t, await ts.rpc(method, body, other.key), 404, 'not_found', `${method} foreign`)
    const absent = expectError(t, await ts.rpc(method, { ...body, [key]: missing }, other.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(foreign, [id]), withoutIds(absent, [missing]), `${method}: foreign reads as missing`)
  }
  expectError(t, await ts.rpc('get_template_images_report', { client_id: foreignClient }, org.key), 404, 'not_found')
  t.match(await ts.call('get_template_page', { page_id: page.id }, ts.platformKey), { id: page.id }, 'a platform key reads any')
})
