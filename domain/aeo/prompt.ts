/**
 * The identity of a question for de-duplication: case-, punctuation- and spacing-insensitive, so "Best
 * plumber in Austin, TX?" and "best plumber in austin tx" are one question. Letters and digits of any script
 * are kept; everything else separates words.
 */
export function promptKey(prompt: string): string {
  return prompt
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
