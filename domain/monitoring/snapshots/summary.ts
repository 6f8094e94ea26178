/**
 * A page's short extractive summary (get_latest_page_summaries), without a language model: the first
 * sentences of its main text, whole sentences only, up to SUMMARY_MAX_CHARS. A first sentence longer than
 * that is cut at a word boundary and ends with an ellipsis, so a page of one long run-on line still gets a
 * summary. Whitespace is collapsed first (main text keeps the page's line breaks).
 */
export const SUMMARY_MAX_CHARS = 300

/**
 * A sentence ends at . ! ? (or their full-width forms) followed by whitespace: a dot inside a token (3.5,
 * example.com) does not end one.
 */
const SENTENCE_END = /(?<=[.!?。！？])\s+/u

export function sentencesOf(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat === '' ? [] : flat.split(SENTENCE_END).filter((s) => s !== '')
}

export function extractiveSummary(mainText: string, maxChars = SUMMARY_MAX_CHARS): string {
  const sentences = sentencesOf(mainText)
  if (sentences.length === 0) return ''
  let summary = ''
  for (const sentence of sentences) {
    const next = summary === '' ? sentence : `${summary} ${sentence}`
    if (next.length > maxChars) break
    summary = next
  }
  if (summary !== '') return summary
  return cutAtWord(sentences[0]!, maxChars)
}

/** The text cut to at most `max` characters at the last space before it, with an ellipsis. */
function cutAtWord(text: string, max: number): string {
  const room = text.slice(0, max - 1)
  const space = room.lastIndexOf(' ')
  const cut = space > max / 2 ? room.slice(0, space) : room
  return `${cut.replace(/[\s,;:]+$/, '')}…`
}
