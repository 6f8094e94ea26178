/**
 * The text of a page built with Elementor, for a writer: Elementor keeps the page as JSON (`_elementor_data`):
 * sections and columns holding widgets, each widget's words in its settings (a text editor's `editor` HTML, a
 * heading's `title`, …). A rewrite must change those words and leave the layout alone, so the writer is given
 * the text fields joined by a marker line and its answer is split back on the markers, field by field. An
 * answer with another number of fields changed the page's structure: refused, never guessed at.
 */

/** The widget settings that hold words a visitor reads (Elementor's core widgets). */
const TEXT_SETTINGS = [
  'title',
  'editor',
  'text',
  'title_text',
  'description_text',
  'testimonial_content',
  'alert_title',
  'alert_description',
]

/** Between two fields in the text a writer sees; a writer keeps an HTML comment as it is. */
export const FIELD_MARKER = '\n\n<!-- rankrelay:elementor-field -->\n\n'

/** The most text fields one page may have for a rewrite (a page with more is refused, not cut). */
export const MAX_ELEMENTOR_FIELDS = 500

interface ElementorNode {
  settings?: Record<string, unknown>
  elements?: unknown
}

/** The text fields in document order, each a setter on the parsed data. */
function textFields(root: unknown): { value: string; set: (value: string) => void }[] {
  const fields: { value: string; set: (value: string) => void }[] = []
  const walk = (nodes: unknown) => {
    if (!Array.isArray(nodes)) return
    for (const node of nodes as ElementorNode[]) {
      if (node === null || typeof node !== 'object') continue
      const settings = node.settings
      if (settings && typeof settings === 'object' && !Array.isArray(settings)) {
        for (const key of TEXT_SETTINGS) {
          const value = settings[key]
          if (typeof value === 'string' && value.trim() !== '') {
            fields.push({
              value,
              set: (next) => {
                settings[key] = next
              },
            })
          }
        }
      }
      walk(node.elements)
    }
  }
  walk(root)
  return fields
}

/** Parses `_elementor_data`; null when it is not Elementor's JSON (an array of elements). */
function parse(data: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(data)
    return Array.isArray(parsed) ? parsed : null
  } catch {
    return null
  }
}

/** Whether a post's `_elementor_data` holds a page (a non-empty array of elements). */
export function isElementorPage(data: unknown): data is string {
  if (typeof data !== 'string') return false
  const parsed = parse(data)
  return parsed !== null && parsed.length > 0
}

/** The page's words for a writer: every text field, joined by FIELD_MARKER. Throws when there are none or too many. */
export function elementorText(data: string): string {
  const parsed = parse(data)
  if (parsed === null) throw new Error('_elementor_data is not Elementor JSON')
  const fields = textFields(parsed)
  if (fields.length === 0) throw new Error('the Elementor page has no text widgets to rewrite')
  if (fields.length > MAX_ELEMENTOR_FIELDS)
    throw new Error(`the Elementor page has ${fields.length} text fields (at most ${MAX_ELEMENTOR_FIELDS})`)
  return fields.map((f) => f.value).join(FIELD_MARKER)
}

/** The same text without the markers: what a reader of the proposal sees. */
export const readableText = (joined: string) => joined.split(FIELD_MARKER).join('\n\n')

/**
 * `data` with its text fields set from a writer's answer to elementorText(data), every other setting as it was.
 * An error (a string) when the answer's fields do not match the page's.
 */
export function withElementorText(data: string, rewritten: string): { data: string } | { problem: string } {
  const parsed = parse(data)
  if (parsed === null) return { problem: '_elementor_data is not Elementor JSON' }
  const fields = textFields(parsed)
  const parts = rewritten.split(FIELD_MARKER)
  if (parts.length !== fields.length) {
    return {
      problem: `the rewrite has ${parts.length} text fields where the Elementor page has ${fields.length}: it changed the page's structure, which an Elementor rewrite keeps`,
    }
  }
  for (const [i, field] of fields.entries()) field.set(parts[i]!)
  return { data: JSON.stringify(parsed) }
}
