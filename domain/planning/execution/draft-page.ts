import { titleCase } from '../../search/insights/meta-writer.js'

/**
 * create_page, carried out: a draft page for a keyword no page serves, at `<website>/<keyword slug>`. The
 * deterministic template (used without a language model, or when its answer is unusable) states nothing it
 * was not given: the keyword, the business, its services and location, and a call to get in touch. A person
 * reviews the draft before it is applied.
 */
export interface DraftBrief {
  readonly keyword: string
  readonly business: string
  /** The client's first location ("Austin, TX"), '' when none. */
  readonly location: string
  readonly services: readonly string[]
}

/** "Drain cleaning Austin!" → "drain-cleaning-austin". */
export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
}

/** The new page's URL on the client's website. */
export function draftPageUrl(websiteUrl: string, keyword: string): string {
  return `${websiteUrl.replace(/\/+$/, '')}/${slugOf(keyword) || 'new-page'}`
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export function draftPageTitle(brief: DraftBrief): string {
  const heading = titleCase(brief.keyword)
  const city = brief.location.split(',')[0]?.trim() ?? ''
  const place = city !== '' && !brief.keyword.toLowerCase().includes(city.toLowerCase()) ? ` in ${city}` : ''
  return `${heading}${place}`
}

/** The template draft: an h1, what the business offers for the keyword, its services, and a call to act. */
export function draftPageContent(brief: DraftBrief): string {
  const title = draftPageTitle(brief)
  const who = brief.business.trim() || 'We'
  const where = brief.location.trim() ? ` in ${brief.location.trim()}` : ''
  const services = brief.services.filter((s) => s.trim() !== '').slice(0, 6)
  return [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>Looking for ${escapeHtml(brief.keyword.trim())}${escapeHtml(where)}? ${escapeHtml(who)} can help.</p>`,
    ...(services.length > 0 ? [`<h2>What we do</h2>`, `<ul>${services.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`] : []),
    `<p>Get in touch today to talk about what you need.</p>`,
  ].join('\n')
}
