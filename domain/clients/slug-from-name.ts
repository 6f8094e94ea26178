import { MAX_SLUG_LENGTH } from './values.js'

/**
 * The slug a client gets when add_client is given none: its name in lower-case ASCII letters and digits
 * joined by single hyphens ("Café Olé & Sons" → "cafe-ole-sons"). Accents are folded (NFKD, combining marks
 * dropped) and apostrophes dropped; anything else separates words. Empty when nothing ASCII is left (a name in another script): such
 * a client has no slug, as before.
 */
export function slugFromName(name: string): string {
  return fit(
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      // "O'Brien's" is one word, not three.
      .replace(/['’]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-'),
    MAX_SLUG_LENGTH,
  )
}

/** Past this many "-n" candidates, the client's own id makes the slug unique ("acme-4711"). */
const NUMBERED_CANDIDATES = 50

/**
 * The slugs to try, in order, for a client named `name` that gets id `clientId`: the name's slug, then
 * "-2", "-3" … (a slug is unique among an organization's live clients, and the first free one is taken),
 * then "-<clientId>". Each fits the slug's maximum length. Empty when the name gives no slug.
 */
export function slugCandidates(name: string, clientId: number): string[] {
  const base = slugFromName(name)
  if (base === '') return []
  const suffixes = [...Array.from({ length: NUMBERED_CANDIDATES - 1 }, (_, i) => `-${i + 2}`), `-${clientId}`]
  return [base, ...suffixes.map((suffix) => `${fit(base, MAX_SLUG_LENGTH - suffix.length)}${suffix}`)]
}

/** At most `max` characters, without a hyphen at either end (so "-2" never makes a double hyphen). */
function fit(slug: string, max: number): string {
  return slug.replace(/^-+/, '').slice(0, max).replace(/-+$/, '')
}
