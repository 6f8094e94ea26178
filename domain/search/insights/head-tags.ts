/**
 * A page's title and meta description inside its content, as the built-in site publisher keeps pages (the
 * content of a snapshot): reading the current description, and writing a new title and description into the
 * content for a meta_rewrite site edit. A WordPress publisher would set its SEO fields from the payload's
 * title and description instead; the built-in one records the content with the tags changed.
 */
const META_DESCRIPTION = /<meta\b[^>]*\bname\s*=\s*["']description["'][^>]*>/i
const CONTENT_ATTR = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i
const TITLE_TAG = /<title\b[^>]*>([\s\S]*?)<\/title>/i

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&apos;': "'", '&lt;': '<', '&gt;': '>' }

const unescapeHtml = (text: string) => text.replace(/&(?:amp|quot|#39|apos|lt|gt);/g, (entity) => ENTITIES[entity]!)
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;')

/** The content's meta description ('' when it has none). */
export function readMetaDescription(content: string): string {
  const tag = META_DESCRIPTION.exec(content)?.[0]
  if (!tag) return ''
  const attr = CONTENT_ATTR.exec(tag)
  return unescapeHtml(attr?.[1] ?? attr?.[2] ?? '').trim()
}

/** The content's <title> text ('' when it has none). */
export function readTitleTag(content: string): string {
  return unescapeHtml(TITLE_TAG.exec(content)?.[1] ?? '').trim()
}

/**
 * The content with its meta description set to `description` (the tag replaced where there is one, added
 * at the top otherwise) and its <title> text set to `title` where it has a <title> tag.
 */
export function withMetaTags(content: string, title: string, description: string): string {
  const tag = `<meta name="description" content="${escapeHtml(description)}">`
  let next = META_DESCRIPTION.test(content) ? content.replace(META_DESCRIPTION, () => tag) : `${tag}\n${content}`
  if (TITLE_TAG.test(next)) next = next.replace(TITLE_TAG, (whole, inner: string) => whole.replace(inner, escapeHtml(title)))
  return next
}
