/** The Elementor widget counter, the `_elementor_data` checks and the Elementor pages aggregate (pure). */
import t from 'tap'
import { elementorPages, elementorPagesStream } from '../../domain/publishing/projects/elementor-page.js'
import { ELEMENTOR_DATA_MAX_BYTES, parseElementorData } from '../../domain/publishing/projects/elementor-values.js'
import { countWidgets } from '../../domain/publishing/projects/elementor-widgets.js'
import { spec } from './given-when-then.js'

t.test('countWidgets walks sections, columns and containers to their widgets', async (t) => {
  const data = [
    {
      elType: 'section',
      elements: [
        {
          elType: 'column',
          elements: [
            { elType: 'widget', widgetType: 'heading' },
            { elType: 'widget', widgetType: 'image' },
          ],
        },
        { elType: 'column', elements: [{ elType: 'container', elements: [{ elType: 'widget', widgetType: 'heading' }] }] },
      ],
    },
    { elType: 'container', elements: [{ elType: 'widget', widgetType: 'button' }] },
  ]
  t.same(countWidgets(data), { button: 1, heading: 2, image: 1 })
  t.same(Object.keys(countWidgets(data)), ['button', 'heading', 'image'], 'keys sorted')
  t.same(countWidgets([]), {})
})

t.test('countWidgets skips what is not a widget', async (t) => {
  const data = [
    null,
    'text',
    [{ elType: 'widget', widgetType: 'nested-in-array' }],
    { elType: 'widget' },
    { elType: 'widget', widgetType: '' },
    { elType: 'section', widgetType: 'heading', elements: 'not an array' },
    { elType: 'widget', widgetType: 'video', elements: [{ elType: 'widget', widgetType: 'icon' }] },
  ]
  t.same(countWidgets(data), { icon: 1, video: 1 })
})

t.test('countWidgets does not overflow on a deep tree', async (t) => {
  let element: object = { elType: 'widget', widgetType: 'heading' }
  for (let i = 0; i < 20_000; i++) element = { elType: 'container', elements: [element] }
  t.same(countWidgets([element]), { heading: 1 })
})

t.test('parseElementorData takes a JSON array within the cap, refuses the rest', async (t) => {
  t.same(parseElementorData('[{"elType":"section"}]'), [{ elType: 'section' }])
  t.throws(() => parseElementorData('{nope'), { code: 'validation_failed', message: 'elementor_data is not JSON' })
  t.throws(() => parseElementorData('{"a":1}'), { code: 'validation_failed', message: 'elementor_data is not a JSON array' })
  const atCap = `["${'x'.repeat(ELEMENTOR_DATA_MAX_BYTES - 4)}"]`
  t.equal(parseElementorData(atCap).length, 1, 'exactly the cap is taken')
  // Counted in UTF-8 bytes: a two-byte character each.
  const multiByte = `["${'é'.repeat(ELEMENTOR_DATA_MAX_BYTES / 2)}"]`
  t.throws(() => parseElementorData(multiByte), { code: 'validation_failed', message: 'elementor_data is too large' })
})

t.test('the Elementor pages aggregate records a new stamp or data, nothing for the same, and removes once', async (t) => {
  const given = spec(elementorPages)
  t.equal(elementorPagesStream(5), 'elementor_pages-5')
  const values = {
    wp_post_id: 12,
    title: 'Home',
    slug: 'home',
    status: 'publish',
    link: 'https://acme.example/',
    modified_gmt: '2026-11-03T10:42:17',
    elementor_data: '[]',
    elementor_data_sha256: 'a'.repeat(64),
    widget_counts: {},
  }
  const record = (changes: Partial<typeof values> = {}) => ({
    type: 'RecordPage' as const,
    project_id: 5,
    client_id: 34,
    page: { ...values, ...changes },
  })
  const recorded = (changes: Partial<typeof values> = {}) => ({
    type: 'ElementorPageRecorded' as const,
    data: { project_id: 5, client_id: 34, ...values, ...changes },
  })
  const removed = { type: 'ElementorPageRemoved' as const, data: { project_id: 5, client_id: 34, wp_post_id: 12 } }
  const remove = (wp_post_id: number) => ({ type: 'RemovePage' as const, project_id: 5, client_id: 34, wp_post_id })

  given().when(record()).then(t, [recorded()])
  given(recorded())
    .when(record({ title: 'Other title' }))
    .thenNothingHappens(t) // same stamp and sha256
  given(recorded())
    .when(record({ modified_gmt: '2026-11-04T00:00:00' }))
    .then(t, [recorded({ modified_gmt: '2026-11-04T00:00:00' })])
  given(recorded())
    .when(record({ elementor_data_sha256: 'b'.repeat(64) }))
    .then(t, [recorded({ elementor_data_sha256: 'b'.repeat(64) })])
  given(recorded()).when(remove(12)).then(t, [removed])
  given(recorded(), removed).when(remove(12)).thenNothingHappens(t)
  given(recorded()).when(remove(13)).thenThrows(t, 'not_found')
  given(recorded(), removed).when(record()).then(t, [recorded()]) // back on the site
})
