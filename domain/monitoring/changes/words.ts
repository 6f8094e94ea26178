/**
 * The cheap body difference: the main text as a bag of words (lower-cased runs of letters and digits), and
 * how many words one bag gained and lost against the other. Order is ignored on purpose: a paragraph moved
 * is not a change a strategist needs to hear about, and the count stays linear in the text's length.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu

export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? []
}

function bagOf(words: readonly string[]): Map<string, number> {
  const bag = new Map<string, number>()
  for (const word of words) bag.set(word, (bag.get(word) ?? 0) + 1)
  return bag
}

export interface WordDifference {
  /** How many words `after` has that `before` has not (counted with multiplicity). */
  readonly added: number
  readonly removed: number
  /** The added words in the order `after` shows them (each word once), for a readable `after`. */
  readonly addedWords: readonly string[]
  readonly removedWords: readonly string[]
}

/** Words gained and lost between two texts, as bags. */
export function wordDifference(before: string, after: string): WordDifference {
  const beforeWords = wordsOf(before)
  const afterWords = wordsOf(after)
  const beforeBag = bagOf(beforeWords)
  const afterBag = bagOf(afterWords)
  return {
    added: surplus(afterBag, beforeBag),
    removed: surplus(beforeBag, afterBag),
    addedWords: surplusWords(afterWords, afterBag, beforeBag),
    removedWords: surplusWords(beforeWords, beforeBag, afterBag),
  }
}

function surplus(from: Map<string, number>, against: Map<string, number>): number {
  let count = 0
  for (const [word, n] of from) count += Math.max(0, n - (against.get(word) ?? 0))
  return count
}

function surplusWords(order: readonly string[], from: Map<string, number>, against: Map<string, number>): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const word of order) {
    if (seen.has(word)) continue
    seen.add(word)
    if ((from.get(word) ?? 0) > (against.get(word) ?? 0)) out.push(word)
  }
  return out
}

/**
 * Whether every word of `part` is in `whole` (as bags: as many times as `part` has it). How an edit's
 * proposed content is recognised in a crawled page's main text whatever the markup around it: the edit
 * holds HTML or Elementor text, the crawl holds Readability's plain text.
 */
export function wordsContained(part: string, whole: string): boolean {
  const partWords = wordsOf(part)
  if (partWords.length === 0) return false
  const wholeBag = bagOf(wordsOf(whole))
  for (const [word, n] of bagOf(partWords)) if ((wholeBag.get(word) ?? 0) < n) return false
  return true
}
