/**
 * The WordPress version in a feed's head: `<generator>https://wordpress.org/?v=6.6.2</generator>` (RSS 2;
 * the_generator). Null when absent or not WordPress's (a plugin may replace it). Pure.
 */
export function wordPressVersionOfFeed(text: string): string | null {
  const match = /<generator>\s*https?:\/\/wordpress\.org\/\?v=([0-9][0-9A-Za-z.-]{0,30})\s*<\/generator>/.exec(text)
  return match?.[1] ?? null
}
