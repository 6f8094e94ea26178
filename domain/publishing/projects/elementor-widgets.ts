import type { WidgetCounts } from './elementor-values.js'

/**
 * How many widgets of each widgetType an Elementor page holds. Elementor stores a page as a tree: sections,
 * columns and containers (`elType`) hold `elements`; a widget is an element with `elType: 'widget'` and its
 * `widgetType` (heading, image, button, …). Anything else in the tree (unknown keys, odd values) is skipped,
 * not refused: the text is the site's, and older Elementor versions differ. Walked without recursion, so a
 * deeply nested page cannot overflow the stack.
 */
export function countWidgets(elements: readonly unknown[]): WidgetCounts {
  const counts: Record<string, number> = {}
  const stack: unknown[] = [...elements]
  while (stack.length > 0) {
    const element = stack.pop()
    if (element === null || typeof element !== 'object' || Array.isArray(element)) continue
    const e = element as { elType?: unknown; widgetType?: unknown; elements?: unknown }
    if (e.elType === 'widget' && typeof e.widgetType === 'string' && e.widgetType !== '') {
      counts[e.widgetType] = (counts[e.widgetType] ?? 0) + 1
    }
    if (Array.isArray(e.elements)) stack.push(...e.elements)
  }
  // Keys sorted: the same page gives the same object, whatever order the tree was walked in.
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
