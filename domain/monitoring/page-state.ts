import { z } from 'zod'

/**
 * What the site monitor saw at one URL: the shared shape between the crawler that extracts it
 * (processors/monitoring/scans), the render scan (processors/monitoring/renders), the snapshot that records it
 * (domain/monitoring/snapshots) and everything derived from snapshots (site changes, the architecture, page
 * summaries). Every list is bounded so one snapshot event stays small whatever the page holds.
 */

export const MAX_REDIRECT_HOPS = 10
export const MAX_HEADINGS = 200
export const MAX_LINKS = 1000
export const MAX_IMAGES = 500
export const MAX_JSON_LD_TYPES = 50
export const MAX_HREFLANG = 100
export const MAX_MAIN_TEXT = 100_000

const Text = (max: number) => z.string().max(max)
const Url = z.string().max(2000)

export const RedirectHop = z.object({
  url: Url.describe('The URL that answered with a redirect'),
  status: z.number().int().describe('Its HTTP status (301, 302, 303, 307, 308)'),
})

export const Heading = z.object({
  level: z.number().int().min(1).max(6).describe('1 for <h1> … 6 for <h6>'),
  text: Text(500).describe('The heading text, whitespace collapsed'),
})

export const PageImage = z.object({
  src: Url.describe('The image URL, absolute'),
  alt: Text(500).nullable().describe('Its alt text; null when the attribute is missing ("" is an empty alt, meant as decorative)'),
})

export const Hreflang = z.object({
  lang: Text(35).describe('The hreflang value, e.g. en-us or x-default'),
  href: Url.describe('The alternate URL, absolute'),
})

export const PageState = z.object({
  url: Url.describe('The URL fetched (normalised: no fragment)'),
  final_url: Url.describe('Where the redirects, if any, ended'),
  status: z.number().int().describe('The final HTTP status'),
  redirects: z.array(RedirectHop).max(MAX_REDIRECT_HOPS).describe('Each redirect hop in order; [] when none'),
  content_type: Text(200).nullable().describe('The final response’s Content-Type'),
  canonical: Url.nullable().describe('<link rel="canonical">, absolute; null when absent'),
  robots: Text(500).nullable().describe('The robots meta tag and X-Robots-Tag header, joined; null when neither'),
  noindex: z.boolean().describe('robots says noindex'),
  title: Text(500).nullable().describe('<title>, whitespace collapsed; null when absent'),
  meta_description: Text(2000).nullable().describe('<meta name="description">; null when absent'),
  headings: z.array(Heading).max(MAX_HEADINGS).describe('h1 to h6 in document order'),
  word_count: z.number().int().min(0).describe('Words of the main text'),
  internal_links: z.array(Url).max(MAX_LINKS).describe('Distinct links to the same site, absolute, no fragment'),
  outgoing_links: z.array(Url).max(MAX_LINKS).describe('Distinct links to other sites'),
  images: z.array(PageImage).max(MAX_IMAGES),
  json_ld_types: z.array(Text(200)).max(MAX_JSON_LD_TYPES).describe('The @type values of the page’s JSON-LD blocks, distinct'),
  hreflang: z.array(Hreflang).max(MAX_HREFLANG),
  main_text: Text(MAX_MAIN_TEXT).describe('The main text (Mozilla Readability), plain, cut at 100,000 characters'),
  truncated: z.boolean().describe('The body was larger than the crawl’s page-size cap and was cut there'),
  content_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('SHA-256 of what the page says (everything above but url and truncated): equal hashes, no new snapshot'),
})
export type PageState = z.infer<typeof PageState>
