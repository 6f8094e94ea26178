/**
 * Businesses named in an answer. LLM answers name businesses in numbered or bulleted lists, bold text,
 * headings, links and tables; this reads those places, keeps what looks like a name (title case, short,
 * not a label such as "Pros:" or "Cost factors"), and orders the names by first mention. Pure.
 */
import { DIRECTORY_DOMAINS, MEDIA_DOMAINS, squash } from './domains.js'
import { countName, findName, nameKey } from './text.js'

export interface NamedBusiness {
  /** The name as first written. */
  readonly name: string
  /** nameKey(name): the identity. */
  readonly key: string
  /** Offset of the first mention in the answer. */
  readonly offset: number
  /** Whole-word mentions in the answer (at least 1). */
  readonly mentions: number
}

/** Words that make up labels and headings rather than names; a candidate made only of these is not a business. */
const GENERIC_WORDS = new Set(
  `a an the of to in on at by for from with and or your you my me our its it's it is are be this that these those
  top best highly rated top-rated recommended recommendation recommendations option options choice choices pick picks
  company companies business businesses service services provider providers professional professionals pro pros con cons
  tip tips summary conclusion overview note notes why how what when where who which whom key factor factors consideration
  considerations consider choosing choose hiring hire hired cost costs pricing price prices average estimate estimates
  estimated quote quotes review reviews rating ratings feature features highlight highlights strength strengths weakness
  weaknesses specialty specialties location locations area areas served serving contact phone website hours experience
  warranty warranties guarantee licensed insured bonded local nearby near final thoughts bottom line takeaway takeaways
  quick comparison compare table list other more additional also worth mentioning honorable mention mentions verdict
  question questions ask faq faqs thing things look looking emergency 24 7 24/7 affordable reliable trusted trustworthy
  good great excellent step steps source sources reference references citation citations budget premium value customer
  customers satisfaction best-for ideal typical range per hour hourly free inspection inspections financing availability
  available response time same day weekend certified family owned family-owned reputation track record years year
  established specialization specializes residential commercial why-it-stands-out stands out standout notable note:
  plumbing plumber plumbers drain drains cleaning cleaner cleaners water heater heaters repair repairs installation
  installations install replacement replacements roofing roofer roofers roof roofs hvac heating cooling air conditioning ac
  electrical electrician electricians dental dentist dentists dentistry lawyer lawyers attorney attorneys law firm firms
  legal landscaping landscaper landscapers lawn pest control movers moving contractor contractors remodeling remodel
  renovation renovations painting painter painters sewer leak leaks detection pipe pipes gas maintenance general home
  homes house kitchen bathroom bath restoration damage mold foundation garage door doors window windows solar pool
  tree care auto car mechanic mechanics salon spa clinic clinics doctor doctors therapy restaurant restaurants cafe
  things-to-know what-to-look-for pay expect expected expectations bonus example examples important considerations:
  signs red flags check checklist next best-rated well-reviewed popular leading trusted-by installation/repair options:
  in-house free-estimates estimates: licensed/insured upfront transparent fast prompt friendly`
    .split(/\s+/)
    .filter(Boolean),
)

/** Leading phrases of headings and labels. */
const GENERIC_PREFIXES = [
  'how',
  'what ',
  'why ',
  'when ',
  'where ',
  'who ',
  'which ',
  'tips',
  'things ',
  'key ',
  'factors',
  'cost',
  'price',
  'pricing',
  'average',
  'summary',
  'conclusion',
  'final ',
  'bottom line',
  'note',
  'pros',
  'cons',
  'best for',
  'ideal for',
  'great for',
  'good for',
  'considerations',
  'questions',
  'faq',
  'step ',
  'red flag',
  'here are',
  'here is',
  'i ',
  'if ',
  'look for',
  'check ',
  'ask ',
  'read ',
  'get ',
  'compare',
  'consider',
  'choose',
  'hire',
  'avoid',
  'make sure',
  'you ',
  'some ',
  'other ',
  'more ',
  'additional',
  'sources',
  'references',
  'disclaimer',
  'overall',
  'option ',
  'tier ',
  'services:',
  'location:',
  'address:',
  'phone:',
  'website:',
  'rating:',
  'why ',
  'notable',
  'standout',
].map((p) => p.trim().replace(/:$/, ''))

/** Platform names that are places businesses are listed, not businesses competing for the answer. */
const PLATFORM_KEYS = new Set(
  [
    ...Object.values(DIRECTORY_DOMAINS),
    ...Object.keys(DIRECTORY_DOMAINS).map((d) => d.split('.')[0]!),
    ...[...MEDIA_DOMAINS].map((d) => d.split('.')[0]!),
    'Google',
    'Google Maps',
    'Google Reviews',
    'Google Business',
    'Angi',
    "Angie's List",
    'Better Business Bureau',
    'BBB',
    'Yelp',
    'Reddit',
    'Nextdoor',
    'Facebook',
    'Wikipedia',
    'ChatGPT',
    'OpenAI',
    'Claude',
    'Gemini',
  ].map((name) => squash(name)),
)

/** Last words of business names written in running text ("Reliant Plumbing", "Lone Star Dental Group"). */
const BUSINESS_WORDS = [
  'Plumbing',
  'Plumbers',
  'Plumber',
  'Services',
  'Company',
  'Co',
  'LLC',
  'Inc',
  'Group',
  'Electric',
  'Electrical',
  'Roofing',
  'Roofers',
  'Dental',
  'Dentistry',
  'Law',
  'Firm',
  'HVAC',
  'Air',
  'Heating',
  'Cooling',
  'Conditioning',
  'Pros',
  'Experts',
  'Solutions',
  'Contractors',
  'Construction',
  'Clinic',
  'Studio',
  'Salon',
  'Spa',
  'Restoration',
  'Remodeling',
  'Landscaping',
  'Movers',
  'Moving',
  'Cleaning',
  'Cleaners',
  'Rooter',
  'Drains',
  'Sewer',
  'Partners',
  'Associates',
  'Agency',
  'Realty',
  'Insurance',
  'Bakery',
  'Cafe',
  'Restaurant',
  'Grill',
  'Automotive',
  'Motors',
  'Garage',
  'Doors',
  'Windows',
  'Solar',
  'Pools',
  'Medical',
  'Health',
  'Therapy',
  'Chiropractic',
  'Veterinary',
  'Hospital',
  'Academy',
  'Fitness',
  'Homes',
  'Builders',
]
/** Capitalized words that start sentences or phrases, not names ("While Acme Plumbing …" names Acme Plumbing). */
const LEADING_WORDS = new Set(
  `while when whereas although though according both call try consider contact and but also then for if choose hire like unlike
  compared per at in on with by from most many some other local top best popular several few all any every each these those
  this that our your their its my we you they it is are was be see check ask get for example including such as plus or nor so
  yes no meanwhile however additionally alternatively finally overall`.split(/\s+/),
)
/**
 * Abbreviations that end with a period inside a name ("St. Louis Plumbing", "Smith Bros. Plumbing"). Any other
 * word ending with a period ends a sentence, and a name never runs across one: "Reliant Plumbing. Austin
 * Plumbing" is two businesses, not one.
 */
const NAME_ABBREVIATIONS = ['St', 'Ste', 'Mt', 'Ft', 'Dr', 'Mr', 'Mrs', 'Ms', 'Jr', 'Sr', 'Bros', 'Co', 'Inc', 'Corp', 'Ltd']
/** A capitalized word of a name: initials ("J.R."), an abbreviation with its period, or a word with periods only inside ("Kinetico.com"). */
const NAME_WORD = `(?:(?:[A-Z]\\.)+|(?:${NAME_ABBREVIATIONS.join('|')})\\.|[A-Z](?:[\\w'’&-]|\\.(?=[\\w'’&-]))*)`
const PROSE_NAME = new RegExp(
  `(?<![A-Za-z0-9&'’.-])(${NAME_WORD}(?:\\s+(?:&|and|of|the|${NAME_WORD})){0,5}\\s+(?:${BUSINESS_WORDS.join('|')}))(?![A-Za-z0-9])`,
  'g',
)

/** Names in running text: capitalized words ending with a business word, leading sentence words removed. */
function proseCandidates(line: string, offset: number): Candidate[] {
  const out: Candidate[] = []
  for (const m of line.matchAll(PROSE_NAME)) {
    // "Reliant Plumbing and Radiant Plumbing" is two names; "Smith and Sons Plumbing" is one.
    const parts = m[1]!.split(/(\s+(?:and|&)\s+)/)
    let start = 0
    let text = ''
    for (let i = 0; i < parts.length; i += 2) {
      text += (text ? parts[i - 1]! : '') + parts[i]!
      const last = parts[i]!.split(/\s+/).at(-1)!
      if (i < parts.length - 1 && !BUSINESS_WORDS.includes(last)) continue
      const words = text.split(/\s+/)
      let skip = 0
      while (skip < words.length - 1 && LEADING_WORDS.has(words[skip]!.toLowerCase())) skip++
      const name = words.slice(skip).join(' ')
      if (words.length - skip >= 2) out.push({ text: name, offset: offset + m.index + start + text.indexOf(name) })
      start += text.length + (parts[i + 1]?.length ?? 0)
      text = ''
    }
  }
  return out
}

export interface EntityContext {
  /** Words of the client's services and locations and of the question: part of labels, not of names. */
  readonly contextWords: readonly string[]
  /** Names that are places (the client's locations, the question's location): never businesses. */
  readonly placeNames: readonly string[]
}

interface Candidate {
  readonly text: string
  readonly offset: number
}

/** Candidates from one line of the answer (offset: the line's offset in the answer). */
function lineCandidates(line: string, offset: number, inTable: { header: boolean }): Candidate[] {
  const out: Candidate[] = []
  const add = (text: string | undefined, at: number) => {
    if (text) out.push({ text, offset: offset + Math.max(0, at) })
  }
  const heading = /^\s{0,3}#{1,6}\s+(.+)$/.exec(line)
  if (heading) add(heading[1], line.indexOf(heading[1]!))
  const item = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.+)$/.exec(line)
  if (item) {
    const body = item[1]!
    const at = line.indexOf(body)
    const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__)/.exec(body)
    const link = /^\[([^\]]+)\]\([^)]*\)/.exec(body)
    if (bold) add(bold[1], at)
    else if (link) add(link[1], at)
    else add(body.split(/\s[-–—]\s|:\s|\s\(|,\s|\.\s/)[0], at)
  }
  if (/^\s*\|.*\|\s*$/.test(line)) {
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
    if (cells.every((c) => /^\s*:?-{2,}:?\s*$/.test(c))) inTable.header = false
    else if (inTable.header)
      inTable.header = false // the header row names columns
    else add(cells[0]?.trim(), line.indexOf(cells[0]!.trim()))
  } else inTable.header = true
  for (const m of line.matchAll(/(\*\*|__)(.+?)\1/g)) add(m[2], m.index)
  for (const m of line.matchAll(/\[([^\]]+)\]\((?:https?:)?[^)]*\)/g)) add(m[1], m.index)
  return out
}

/** The candidate cleaned to a bare name: markdown, numbering, trailing labels and punctuation removed. */
function cleanName(raw: string): string {
  let text = raw
    .replace(/(\*\*|__)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[\d+\]/g, '')
    .replace(/^\s*(?:#\d+|\d{1,3}[.)]|[-*+•])\s*/, '')
    .trim()
  text = text.split(/\s[-–—|]\s|:\s*$|:\s/)[0]!.trim()
  text = text.replace(/\s*\([^)]*\)\s*$/, '').trim()
  text = text
    .replace(/^["'“‘]+|["'”’]+$/g, '')
    .replace(/[\s.,;:!*_]+$/, '')
    .trim()
  return text
}

/**
 * "Austin Pipe Pros", "Round Rock Plumbing Co": a place, then words, then a business word. Every word of
 * such a name is a place or a generic word, so the generic test alone would drop it, yet local businesses
 * are very often named this way. It stays a label when what follows the place is only the client's own
 * service words ("Austin Emergency Plumbing" heading a section about the client's service).
 */
function isPlaceBrand(words: readonly string[], context: EntityContext, contextWords: ReadonlySet<string>): boolean {
  if (words.length < 3 || !BUSINESS_WORDS.includes(words.at(-1)!)) return false
  const placeKeys = context.placeNames.map((place) => nameKey(place.split(',')[0] ?? '')).filter(Boolean)
  const key = nameKey(words.join(' '))
  const place = placeKeys.find((p) => key.startsWith(`${p} `))
  if (!place) return false
  // The words as written: nameKey drops legal suffixes ("Co"), which are the surest sign of a business.
  const rest = words.slice(place.split(' ').length).map((w) => w.toLowerCase().replace(/[^a-z0-9&]/g, ''))
  return rest.length >= 2 && !rest.every((w) => contextWords.has(w))
}

function looksLikeName(name: string, context: EntityContext, contextWords: ReadonlySet<string>): boolean {
  if (name.length < 2 || name.length > 80) return false
  if (/[?]$/.test(name) || /^\d+$/.test(name)) return false
  if (!/^[A-Z0-9]/.test(name)) return false
  const words = name.split(/\s+/)
  if (words.length > 8) return false
  const lower = name.toLowerCase()
  if (GENERIC_PREFIXES.some((p) => lower === p || lower.startsWith(`${p} `) || lower.startsWith(`${p}:`))) return false
  if (PLATFORM_KEYS.has(squash(name)) || PLATFORM_KEYS.has(squash(name.replace(/\.(com|org|net)$/i, '')))) return false
  const key = nameKey(name)
  if (!key) return false
  if (context.placeNames.some((place) => nameKey(place) === key || nameKey(place.split(',')[0] ?? '') === key)) return false
  const bare = key.split(' ')
  if (bare.every((w) => GENERIC_WORDS.has(w) || contextWords.has(w) || /^\d+$/.test(w)) && !isPlaceBrand(words, context, contextWords))
    return false
  // Title case: a name's significant words are capitalized ("Radiant Plumbing & Air"); a phrase is not ("Licensed and insured").
  const significant = words.filter((w) => /^[A-Za-z]/.test(w) && !/^(of|and|the|a|an|for|in|on|at|by|to|&)$/i.test(w))
  const capitalized = significant.filter((w) => /^[A-Z]/.test(w))
  return significant.length === 0 || capitalized.length * 2 > significant.length
}

/** At most this many businesses are read from one answer (an answer naming more is a directory dump). */
export const MAX_BUSINESSES = 100

/** Businesses named in `text`, in order of first mention, one per name identity (at most MAX_BUSINESSES). */
export function namedBusinesses(text: string, context: EntityContext): NamedBusiness[] {
  const contextWords = new Set(context.contextWords.flatMap((w) => nameKey(w).split(' ')).filter(Boolean))
  const candidates: Candidate[] = []
  let offset = 0
  const inTable = { header: true }
  for (const line of text.split('\n')) {
    candidates.push(...lineCandidates(line, offset, inTable), ...proseCandidates(line, offset))
    offset += line.length + 1
  }
  candidates.sort((a, b) => a.offset - b.offset)
  const byKey = new Map<string, { name: string; key: string; offset: number }>()
  for (const candidate of candidates) {
    const name = cleanName(candidate.text)
    if (!looksLikeName(name, context, contextWords)) continue
    const key = nameKey(name)
    const found = { name, key, offset: candidate.offset }
    // One business written longer and shorter ("Radiant" / "Radiant Plumbing & Air"): keep the longer name.
    const same = [...byKey.values()].find((b) => b.key === key || b.key.startsWith(`${key} `) || key.startsWith(`${b.key} `))
    if (!same) {
      if (byKey.size < MAX_BUSINESSES) byKey.set(key, found)
      continue
    }
    const longer = key.length > same.key.length ? found : same
    byKey.delete(same.key)
    byKey.set(longer.key, { ...longer, offset: Math.min(same.offset, found.offset) })
  }
  return [...byKey.values()]
    .map((b) => {
      const first = findName(text, b.name)
      return { ...b, offset: first >= 0 ? Math.min(first, b.offset) : b.offset, mentions: Math.max(1, countName(text, b.name)) }
    })
    .sort((a, b) => a.offset - b.offset || a.key.localeCompare(b.key))
}
