/**
 * Findings: what the client can do about one answer, each with a stable `item_key` (the same situation in
 * another capture, month or engine gives the same key, so the tracker carries it). Tiers:
 * A/B website work (A: the pages themselves, B: supporting content), C Google Business / directory / review
 * work, X market-driven (tracked, not promised). Pure.
 *
 * Rules (one finding per key and capture):
 * - not named and own site not cited → A `site:service-page:<service>[:<location>]`
 * - own site cited but the business not named → A `site:name-on-page:<service>`
 * - named but own site not cited while the answer cites sources → B `site:citable:<service>`
 * - not present for a cost question → B `site:pricing:<service>`; for a trust question → B `site:trust-signals`
 * - a directory / review site cited and the client not named first → C `listing:<domain>`
 * - the answer weighs reviews or ratings and the client is not named first → C `reviews:<service>`
 * - another business named first → X `market:leader:<business>`
 * - a media source cited and the client not present → X `market:coverage:<domain>`
 */
import { directoryName } from './domains.js'
import { sentences, slug, truncate } from './text.js'
import type { AnalysisInput } from './input.js'
import type { EntityRow, Scorecard, SourceRow } from './report-rows.js'

export type FindingTier = 'A' | 'B' | 'C' | 'X'

export type Finding = {
  item_key: string
  tier: FindingTier
  title: string
  evidence: string
}

interface FindingInput {
  readonly input: AnalysisInput
  readonly scorecard: Scorecard
  readonly source_table: readonly SourceRow[]
  readonly entity_table: readonly EntityRow[]
  readonly claimCount: number
}

const TIER_ORDER: Record<FindingTier, number> = { A: 0, B: 1, C: 2, X: 3 }
const REVIEW_WORDS = /\b(reviews?|reviewed|ratings?|rated|stars?|testimonials?)\b/i

export function findingsOf({ input, scorecard, source_table, entity_table }: FindingInput): Finding[] {
  const { client, question } = input
  const service = question.service.trim() || client.services[0]?.trim() || 'your services'
  const location = question.location.trim()
  const where = location ? ` in ${location}` : ''
  const asked = `"${truncate(question.prompt, 200)}"`
  const standing = scorecard.named
    ? `${client.name} is named at position ${scorecard.position} of ${scorecard.named_count}`
    : `${client.name} is not named`
  const others = entity_table.slice(0, 5).map((e) => e.name)
  const namedInstead = others.length > 0 ? ` Named instead: ${others.join(', ')}.` : ''
  const out = new Map<string, Finding>()
  const add = (tier: FindingTier, key: string, title: string, evidence: string) => {
    if (!out.has(key)) out.set(key, { item_key: key.slice(0, 200), tier, title: truncate(title, 500), evidence: truncate(evidence, 4000) })
  }

  const own = source_table.find((s) => s.class === 'own')
  if (!scorecard.named && !scorecard.cited) {
    add(
      'A',
      `site:service-page:${slug(service)}${location ? `:${slug(location)}` : ''}`,
      `Build out the ${service} page${where} so answer engines can name ${client.name}`,
      `Not named or cited for ${asked}.${namedInstead}`,
    )
  }
  if (!scorecard.named && scorecard.cited) {
    add(
      'A',
      `site:name-on-page:${slug(service)}`,
      `Put the business name on the ${service} pages that answer engines cite`,
      `${own?.urls[0] ?? 'The own site'} is cited for ${asked}, but the answer does not name ${client.name}.`,
    )
  }
  if (scorecard.named && !scorecard.cited && scorecard.citation_count > 0) {
    const cited = source_table
      .filter((s) => s.count > 0)
      .slice(0, 5)
      .map((s) => s.domain)
    add(
      'B',
      `site:citable:${slug(service)}`,
      `Give answer engines a ${service} page they can cite`,
      `${standing} for ${asked}, but the own site is not among ${scorecard.citation_count} citations (cited: ${cited.join(', ')}).`,
    )
  }
  if (!scorecard.present && question.kind === 'cost') {
    add(
      'B',
      `site:pricing:${slug(service)}`,
      `Publish pricing guidance for ${service}`,
      `Not named for the cost question ${asked}.${namedInstead}`,
    )
  }
  if (!scorecard.present && question.kind === 'trust') {
    add(
      'B',
      'site:trust-signals',
      'Show licences, insurance, guarantees and reviews on the website',
      `Not named for the trust question ${asked}.${namedInstead}`,
    )
  }
  if (!scorecard.named_first) {
    for (const source of source_table) {
      if (source.class !== 'directory' || source.count === 0) continue
      const name = directoryName(source.domain) ?? source.domain
      add(
        'C',
        `listing:${source.domain}`,
        `Claim and complete the ${name} listing, with reviews`,
        `${name} (${source.domain}) is cited ${source.count} time${source.count === 1 ? '' : 's'} for ${asked}; ${standing}.`,
      )
    }
    const reviewSentence = sentences(input.answerText).find((s) => REVIEW_WORDS.test(s))
    if (reviewSentence) {
      add(
        'C',
        `reviews:${slug(service)}`,
        `Earn more recent reviews for ${service} on Google and review sites`,
        `The answer weighs reviews: "${truncate(reviewSentence, 300)}" ${standing}.`,
      )
    }
    const leader = entity_table[0]
    if (leader && leader.position === 1) {
      add(
        'X',
        `market:leader:${slug(leader.name)}`,
        `${leader.name} is named first for ${service}${where}`,
        `${leader.name} is named first for ${asked}; ${standing}.`,
      )
    }
  }
  if (!scorecard.present) {
    for (const source of source_table) {
      if (source.class !== 'media' || source.count === 0) continue
      add(
        'X',
        `market:coverage:${source.domain}`,
        `Earn coverage on ${source.domain}`,
        `${source.domain} is cited for ${asked}; ${client.name} is not named.`,
      )
    }
  }
  return [...out.values()].sort((a, b) => TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || a.item_key.localeCompare(b.item_key))
}
