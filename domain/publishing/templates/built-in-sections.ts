import type { SectionTemplateInput } from './section-catalog.js'
import type { SectionField } from './values.js'

/**
 * The section templates the service ships: the sections a local-business site is built from. Each is
 * Elementor data (a container with widgets) whose `{{key}}` placeholders are its fields. Seeded into the
 * platform catalog through commands (commands/publishing/templates/section-templates.ts, seedBuiltInSectionTemplates),
 * which adds only the ones the catalog does not hold yet.
 */

const text = (key: string, label: string, max: number, required = true): SectionField => ({
  key,
  kind: 'text',
  label,
  required,
  max_length: max,
})
const image = (key: string, label: string, required = true): SectionField => ({ key, kind: 'image', label, required, max_length: null })
const link = (key: string, label: string, required = true): SectionField => ({ key, kind: 'link', label, required, max_length: null })

const widget = (id: string, widgetType: string, settings: Record<string, unknown>) => ({
  id,
  elType: 'widget',
  widgetType,
  settings,
  elements: [],
})
const container = (id: string, elements: unknown[]) =>
  JSON.stringify([{ id, elType: 'container', settings: { content_width: 'boxed' }, elements }])

export const BUILT_IN_SECTION_TEMPLATES: readonly SectionTemplateInput[] = [
  {
    category: 'hero',
    name: 'Hero with call to action',
    description: 'A full-width opening: headline, a line under it, a button and a background image.',
    fields: [
      text('headline', 'Headline', 90),
      text('subheadline', 'Line under the headline', 200),
      text('cta_label', 'Button label', 30),
      link('cta_link', 'Button link'),
      image('background_image', 'Background image'),
    ],
    elementor_json: container('hero01', [
      widget('hero02', 'heading', { title: '{{headline}}', header_size: 'h1' }),
      widget('hero03', 'text-editor', { editor: '<p>{{subheadline}}</p>' }),
      widget('hero04', 'button', { text: '{{cta_label}}', link: { url: '{{cta_link}}' } }),
      widget('hero05', 'image', { image: { url: '{{background_image}}' } }),
    ]),
  },
  {
    category: 'services_grid',
    name: 'Three services',
    description: 'Three services side by side, each a title, a short description and a link to its page.',
    fields: [1, 2, 3].flatMap((n) => [
      text(`service_${n}_title`, `Service ${n} title`, 60),
      text(`service_${n}_text`, `Service ${n} description`, 240),
      link(`service_${n}_link`, `Service ${n} page`),
    ]),
    elementor_json: container(
      'srv001',
      [1, 2, 3].map((n) =>
        widget(`srv00${n + 1}`, 'icon-box', {
          title_text: `{{service_${n}_title}}`,
          description_text: `{{service_${n}_text}}`,
          link: { url: `{{service_${n}_link}}` },
        }),
      ),
    ),
  },
  {
    category: 'testimonials',
    name: 'Two testimonials',
    description: "Two customers' words with their names.",
    fields: [1, 2].flatMap((n) => [text(`quote_${n}`, `Testimonial ${n}`, 400), text(`author_${n}`, `Testimonial ${n} author`, 80)]),
    elementor_json: container(
      'tst001',
      [1, 2].map((n) =>
        widget(`tst00${n + 1}`, 'testimonial', { testimonial_content: `{{quote_${n}}}`, testimonial_name: `{{author_${n}}}` }),
      ),
    ),
  },
  {
    category: 'faq',
    name: 'Three questions',
    description: 'An accordion of three questions and answers (FAQ schema friendly).',
    fields: [1, 2, 3].flatMap((n) => [text(`question_${n}`, `Question ${n}`, 150), text(`answer_${n}`, `Answer ${n}`, 800)]),
    elementor_json: container('faq001', [
      widget('faq002', 'accordion', { tabs: [1, 2, 3].map((n) => ({ tab_title: `{{question_${n}}}`, tab_content: `{{answer_${n}}}` })) }),
    ]),
  },
  {
    category: 'cta',
    name: 'Call to action band',
    description: 'A band with one sentence and a phone or booking button.',
    fields: [
      text('headline', 'Headline', 90),
      text('button_label', 'Button label', 30),
      link('button_link', 'Button link (a page, tel: or a booking URL)'),
    ],
    elementor_json: container('cta001', [
      widget('cta002', 'heading', { title: '{{headline}}', header_size: 'h2' }),
      widget('cta003', 'button', { text: '{{button_label}}', link: { url: '{{button_link}}' } }),
    ]),
  },
  {
    category: 'contact',
    name: 'Contact details with map',
    description: 'Address, phone and opening hours beside a map of the address.',
    fields: [text('address', 'Address', 200), text('phone', 'Phone', 40), text('hours', 'Opening hours', 300, false)],
    elementor_json: container('cnt001', [
      widget('cnt002', 'text-editor', { editor: '<p>{{address}}</p><p>{{phone}}</p><p>{{hours}}</p>' }),
      widget('cnt003', 'google_maps', { address: '{{address}}' }),
    ]),
  },
]
