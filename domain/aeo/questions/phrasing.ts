/**
 * Just enough English to phrase buyer questions about a service: is it a provider ("emergency plumber",
 * "Dentists") or a kind of work ("drain cleaning", "water heaters"); its singular and plural; a/an; the
 * verb that agrees with it ("how much does drain cleaning cost", "how much do implants cost").
 */

/** Nouns that name who does the work, so a service ending in one is a provider ("emergency plumber"). */
const PROVIDERS = new Set([
  'accountant',
  'agency',
  'agent',
  'architect',
  'attorney',
  'baker',
  'barber',
  'broker',
  'builder',
  'carpenter',
  'caterer',
  'chiropractor',
  'cleaner',
  'clinic',
  'coach',
  'company',
  'consultant',
  'contractor',
  'counselor',
  'decorator',
  'dentist',
  'designer',
  'developer',
  'doctor',
  'electrician',
  'engineer',
  'exterminator',
  'firm',
  'florist',
  'gardener',
  'groomer',
  'handyman',
  'inspector',
  'installer',
  'jeweler',
  'landscaper',
  'lawyer',
  'locksmith',
  'mason',
  'mechanic',
  'mover',
  'nurse',
  'optician',
  'optometrist',
  'orthodontist',
  'painter',
  'pediatrician',
  'pharmacist',
  'pharmacy',
  'photographer',
  'physician',
  'physiotherapist',
  'planner',
  'plasterer',
  'plumber',
  'provider',
  'realtor',
  'remodeler',
  'repairman',
  'roofer',
  'salon',
  'shop',
  'specialist',
  'store',
  'studio',
  'surgeon',
  'surveyor',
  'tailor',
  'technician',
  'therapist',
  'trainer',
  'tutor',
  'vet',
  'veterinarian',
  'welder',
])

const IRREGULAR_PLURALS: Readonly<Record<string, string>> = { handyman: 'handymen', repairman: 'repairmen' }
const IRREGULAR_SINGULARS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([singular, plural]) => [plural, singular]),
)

export function pluralize(word: string): string {
  const lower = word.toLowerCase()
  // Own keys only: a service named "constructor" or "__proto__" is a word, not a prototype property.
  const irregular = Object.hasOwn(IRREGULAR_PLURALS, lower) ? IRREGULAR_PLURALS[lower] : undefined
  if (irregular) return irregular
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`
  if (/(s|sh|ch|x|z)$/i.test(word)) return `${word}es`
  return `${word}s`
}

export function singularize(word: string): string {
  const lower = word.toLowerCase()
  const irregular = Object.hasOwn(IRREGULAR_SINGULARS, lower) ? IRREGULAR_SINGULARS[lower] : undefined
  if (irregular) return irregular
  if (/[^aeiou]ies$/i.test(word)) return `${word.slice(0, -3)}y`
  if (/(ss|sh|ch|x|z)es$/i.test(word)) return word.slice(0, -2)
  if (looksPlural(word)) return word.slice(0, -1)
  return word
}

/** A word that reads as a plural: ends in s, but not in ss, us, is or ics (glass, citrus, analysis, electronics). */
export function looksPlural(word: string): boolean {
  return /s$/i.test(word) && !/(ss|us|is|ics)$/i.test(word) && word.length > 3
}

/** "an" before a vowel sound: "an emergency plumber", "an HVAC technician", "a uniform service". */
export function article(phrase: string): 'a' | 'an' {
  const first = phrase.trim().split(/\s+/)[0] ?? ''
  // An acronym is read letter by letter: "an HVAC", "an SEO", "a CPA".
  if (/^[A-Z0-9]{2,}$/.test(first)) return /^[AEFHILMNORSX8]/.test(first) ? 'an' : 'a'
  if (/^(uni|use|usu|eu|one|once)/i.test(first)) return 'a'
  if (/^(hour|honest|honor|heir)/i.test(first)) return 'an'
  return /^[aeiou]/i.test(first) ? 'an' : 'a'
}

/**
 * A service name as it reads inside a sentence: spacing collapsed, ordinary words lower-cased (a title-case
 * "Drain Cleaning" becomes "drain cleaning"), acronyms and mixed-case names kept ("HVAC", "iPhone").
 */
export function inSentence(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((word) => (/^[A-Z0-9&]{2,}$/.test(word) || /[a-z][A-Z]/.test(word) ? word : word.toLowerCase()))
    .join(' ')
}

export interface ServiceTerm {
  /** The service as written in a sentence ("drain cleaning", "implants"). */
  readonly text: string
  /** It names who does the work (ends in a provider noun). */
  readonly provider: boolean
  /** The provider in the singular ("emergency plumber"); for work, `text`. */
  readonly one: string
  /** The provider in the plural ("emergency plumbers"); for work, `text`. */
  readonly many: string
  /** The verb that agrees with `text` as a subject: "does" (drain cleaning) or "do" (implants). */
  readonly does: 'does' | 'do'
}

function replaceLast(words: readonly string[], last: string): string {
  return [...words.slice(0, -1), last].join(' ')
}

export function serviceTerm(name: string): ServiceTerm {
  const text = inSentence(name)
  const words = text.split(' ')
  const last = words[words.length - 1] ?? ''
  const lastLower = last.toLowerCase()
  const lastTwo = words.slice(-2).join(' ').toLowerCase()
  const singular = singularize(last)
  const isProvider = PROVIDERS.has(lastLower) || PROVIDERS.has(lastTwo) || (singular !== last && PROVIDERS.has(singular.toLowerCase()))
  if (isProvider) {
    const one = PROVIDERS.has(lastLower) || PROVIDERS.has(lastTwo) ? text : replaceLast(words, singular)
    const oneWords = one.split(' ')
    const many = replaceLast(oneWords, pluralize(oneWords[oneWords.length - 1] ?? ''))
    return { text, provider: true, one, many, does: 'does' }
  }
  return { text, provider: false, one: text, many: text, does: looksPlural(last) ? 'do' : 'does' }
}
