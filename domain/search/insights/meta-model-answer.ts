import { extractJsonObject } from '../../shared/model-json.js'
import { cleanMetaText, fitsDescription, fitsTitle, META_DESCRIPTION_MAX_CHARS, META_TITLE_MAX_CHARS } from './meta-limits.js'
import type { MetaBrief, MetaRewrite } from './meta-writer.js'

/**
 * Asking a language model for a title and meta description, and reading its answer. The answer is used
 * only when both fit the limits (meta-limits.ts); otherwise the built-in writer's rewrite is proposed, so a
 * model can write better copy but never an over-long tag.
 */
const EXCERPT_CHARS = 1500

export function metaRewriteRequest(brief: MetaBrief & { readonly pageUrl: string; readonly pageText: string }): {
  system: string
  prompt: string
} {
  const system = [
    "You rewrite a web page's title tag and meta description so that more searchers who see it click it.",
    'Answer with JSON only, no prose: {"title": string, "description": string}.',
    `The title is at most ${META_TITLE_MAX_CHARS} characters and the description at most ${META_DESCRIPTION_MAX_CHARS}.`,
    'Use the search query (or a close variant) in both, and the location when one is given. Keep the business name in the title when it fits.',
    'State no facts you are not given: no prices, discounts, free offers, ratings, licences, guarantees or years in business.',
  ].join('\n')
  const prompt = JSON.stringify({
    query: brief.query,
    location: brief.location,
    business: brief.business,
    page_url: brief.pageUrl,
    current_title: brief.currentTitle,
    current_description: brief.currentDescription,
    page_excerpt: pageText(brief.pageText).slice(0, EXCERPT_CHARS),
  })
  return { system, prompt }
}

/** The page's words without markup, for the model to read what the page is about. */
function pageText(content: string): string {
  return cleanMetaText(
    content
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&nbsp;/g, ' '),
  )
}

/** The model's title and description, cleaned; null when the answer has none that fit. */
export function readMetaRewriteAnswer(text: string): MetaRewrite | null {
  const answer = extractJsonObject(text)
  if (!answer || typeof answer.title !== 'string' || typeof answer.description !== 'string') return null
  const title = cleanMetaText(answer.title)
  const description = cleanMetaText(answer.description)
  return fitsTitle(title) && fitsDescription(description) ? { title, description } : null
}
