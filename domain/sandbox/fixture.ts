/**
 * The sandbox's fictional world, as pure data and pure functions of (month, question, engine): who the
 * agency and its client are, which months the history covers relative to the clock, and what each engine
 * answered. The seeder (ops/sandbox) turns this into events through the ordinary commands, so the fixture
 * follows every event contract and analysis rule as they are today.
 */

import { monthOfDate } from '../shared/months.js'

/** Bumped when the fixture's story changes (recorded in SandboxSeeded). */
export const FIXTURE_VERSION = 2

export const SANDBOX_ORG_NAME = 'Sandbox Agency'
export const SANDBOX_BRANDING = { name: 'Sandbox Agency', accent_color: '#2563EB' } as const

export const SANDBOX_CLIENT = {
  name: 'Rapid Rooter Plumbing (sandbox)',
  websiteUrl: 'https://www.rapidrooterplumbing.example/',
  slug: 'rapid-rooter-plumbing',
  services: [
    { name: 'Drain cleaning', description: 'Clogged sinks, main lines and hydro-jetting' },
    { name: 'Water heater repair', description: 'Tank and tankless repair and replacement' },
    { name: 'Emergency plumbing', description: '24/7 burst pipes and leaks' },
  ],
  locations: [
    { name: 'Austin, TX', city: 'Austin', state: 'TX', country: 'US' },
    { name: 'Round Rock, TX', city: 'Round Rock', state: 'TX', country: 'US' },
  ],
  settings: { industry: 'plumbing', sandbox: 'true' },
} as const

/** The short name engines use for the client (its legal name carries the "(sandbox)" marker). */
const CLIENT_SHORT = 'Rapid Rooter Plumbing'
const CLIENT_SITE = 'https://www.rapidrooterplumbing.example'

/** Questions the agency keeps active and samples (the rest of the generated set is deactivated). */
export const SAMPLED_QUESTIONS = 6
export const DEACTIVATED_QUESTIONS = 2
export const SANDBOX_ENGINES = ['claude', 'openai'] as const
export const SAMPLES_PER_MONTH = 1
/** How many months of history, the current month included. */
export const HISTORY_MONTHS = 5

/** Statuses the agency gave the first tracker items, in order (the rest stay open). */
export const ITEM_STATUS_PLAN = [
  { status: 'in_progress', note: 'Service page rewrite drafted; waiting on the client to approve copy.' },
  { status: 'done', note: 'Google Business Profile categories and hours updated.' },
  { status: 'dismissed', note: 'Market-driven: the directory does not accept new listings this quarter.' },
  { status: 'done', note: 'Added pricing FAQ to the drain cleaning page.' },
] as const

const COMPETITORS = [
  { name: 'Lone Star Drain Co.', site: 'https://lonestardrain.example' },
  { name: 'Capital City Plumbing', site: 'https://capitalcityplumbing.example' },
  { name: 'Hill Country Pipe Works', site: 'https://hillcountrypipe.example' },
  { name: 'Bluebonnet Plumbing & Air', site: 'https://bluebonnetplumbing.example' },
  { name: 'Round Rock Rooter', site: 'https://roundrockrooter.example' },
] as const

const DIRECTORIES = [
  { url: 'https://www.yelp.example/search?find_desc=plumber&find_loc=Austin', title: 'Top 10 Best Plumbers in Austin' },
  { url: 'https://www.angi.example/companylist/austin/plumbing.htm', title: 'Best Plumbers in Austin, TX' },
  { url: 'https://www.bbb.example/us/tx/austin/category/plumber', title: 'Plumbers near Austin, TX | BBB' },
] as const

/** `YYYY-MM` of a date (UTC). */

/** The `count` months ending with the clock's month, oldest first. */
export function fixtureMonths(now: Date, count: number = HISTORY_MONTHS): string[] {
  const months: string[] = []
  for (let back = count - 1; back >= 0; back--) {
    months.push(monthOfDate(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))))
  }
  return months
}

/**
 * When the `index`-th of `total` events of a month happened: spread over days 2–26 of a past month, and
 * over the elapsed part of the clock's month, always before `now`.
 */
export function momentIn(month: string, index: number, total: number, now: Date): Date {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number]
  const start = Date.UTC(year, monthNumber - 1, 2, 9)
  const end = Math.min(Date.UTC(year, monthNumber - 1, 26, 17), now.getTime() - 60_000)
  const span = Math.max(0, end - start)
  const at = start + Math.floor((span * (index + 1)) / (total + 1))
  return new Date(Math.min(at, now.getTime() - 60_000))
}

/** A deterministic number in [0, 1) from a text (FNV-1a, then a mulberry32 round): noise without randomness. */
export function noise(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  let t = (h + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

export interface AnswerInput {
  readonly prompt: string
  readonly service: string
  readonly location: string
  readonly engine: string
  /** 0 for the oldest month of the history. */
  readonly monthIndex: number
  readonly month: string
}

export interface FixtureAnswer {
  readonly answerText: string
  readonly citations: { url: string; title: string }[]
  /** How the answer treats the client, for tests and the README's story. */
  readonly placement: 'first' | 'later' | 'absent'
}

/**
 * What an engine answered. The client's visibility improves over the months (the agency's work paying
 * off) with per-question and per-engine noise, so the summary shows real moves month on month.
 */
export function fixtureAnswer(input: AnswerInput): FixtureAnswer {
  const key = `${input.prompt}|${input.engine}|${input.month}`
  const roll = noise(key)
  const engineBias = input.engine === 'claude' ? 0.05 : -0.05
  const pFirst = 0.08 + 0.1 * input.monthIndex + engineBias
  const pPresent = 0.3 + 0.12 * input.monthIndex + engineBias
  const placement: FixtureAnswer['placement'] = roll < pFirst ? 'first' : roll < pPresent ? 'later' : 'absent'
  const place = input.location || 'Austin, TX'
  const service = (input.service || 'plumbing').toLowerCase()
  const offset = Math.floor(noise(`${key}|order`) * COMPETITORS.length)
  const others = [0, 1, 2].map((i) => COMPETITORS[(offset + i) % COMPETITORS.length]!)
  const directory = DIRECTORIES[Math.floor(noise(`${key}|dir`) * DIRECTORIES.length)]!
  const clientLine = `**${CLIENT_SHORT}** – Local team known for upfront pricing and same-day ${service}; reviewers mention clean, on-time technicians. [rapidrooterplumbing.example](${CLIENT_SITE}/services)`
  const lines = others.map(
    (c, i) =>
      `**${c.name}** – ${['Well reviewed on Google, with fast dispatch.', 'Family-owned, serving the area for decades.', 'Offers evening and weekend appointments.'][i]}`,
  )
  if (placement === 'first') lines.unshift(clientLine)
  if (placement === 'later') lines.splice(2, 0, clientLine)
  const intro =
    input.engine === 'claude'
      ? `Several companies handle ${service} in ${place}. Here are well-regarded options:`
      : `Here are some of the best options for ${service} in ${place}:`
  const body = lines.map((line, i) => `${i + 1}. ${line}`).join('\n')
  const outro = 'Tip: compare written quotes and check that the plumber is licensed in Texas before booking.'
  const citations: { url: string; title: string }[] = [
    { url: directory.url, title: directory.title },
    { url: `${others[0]!.site}/`, title: others[0]!.name },
  ]
  if (placement !== 'absent' && noise(`${key}|cite`) < 0.6)
    citations.unshift({ url: `${CLIENT_SITE}/services`, title: `${input.service || 'Services'} | ${CLIENT_SHORT}` })
  return { answerText: `${intro}\n\n${body}\n\n${outro}`, citations, placement }
}
