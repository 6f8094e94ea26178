import { promptKey } from '../aeo/prompt.js'

/**
 * The identity of a keyword within a client: case-, punctuation- and spacing-insensitive, so "Drain
 * Cleaning, Austin" and "drain cleaning austin" are one keyword. The same rule as AI Visibility prompts
 * (one normalization for every search phrase), so a question's keyword form matches a typed keyword.
 */
export function keywordKey(text: string): string {
  return promptKey(text)
}

/** A keyword as stored: trimmed, inner spacing collapsed, case kept as given. */
export function cleanKeyword(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ')
}
