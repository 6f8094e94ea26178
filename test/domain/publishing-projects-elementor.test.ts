/** The Elementor widget counter and the `_elementor_data` checks (pure). */
import t from 'tap'
import { ELEMENTOR_DATA_MAX_BYTES, parseElementorData } from '../../domain/publishing/projects/elementor-values.js'
import { countWidgets } from '../../domain/publishing/projects/elementor-widgets.js'

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
