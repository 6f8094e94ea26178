import { nameKey } from '../clients/values.js'
import { extractJsonObject } from '../shared/model-json.js'
import {
  DESCRIPTION_MAX_CHARS,
  DESCRIPTIONS_MAX,
  DESCRIPTIONS_MIN,
  fitLines,
  HEADLINE_MAX_CHARS,
  HEADLINES_MAX,
  HEADLINES_MIN,
  type AdLines,
} from './limits.js'
import type { PlannedGroup } from './plan.js'

/**
 * Asking a language model for ad copy and reading its answer. The model gets the client's facts and the
 * limits; its answer is only ever used through fitLines (over-long lines dropped, a group left with too
 * few lines rejected), so a model can make copy better but never make it break the limits.
 */
export interface AdCopyClientFacts {
  readonly name: string
  readonly websiteUrl: string
}

export function adCopyRequest(client: AdCopyClientFacts, groups: readonly PlannedGroup[]): { system: string; prompt: string } {
  const system = [
    'You write Google Ads responsive search ad copy for a local business.',
    'Answer with JSON only, no prose: {"ad_groups": [{"service": string, "area": string, "headlines": [string], "descriptions": [string]}]},',
    'one entry per requested ad group, in the same order, with the same service and area.',
    `Each ad group: ${HEADLINES_MIN} to ${HEADLINES_MAX} headlines of at most ${HEADLINE_MAX_CHARS} characters, ` +
      `${DESCRIPTIONS_MIN} to ${DESCRIPTIONS_MAX} descriptions of at most ${DESCRIPTION_MAX_CHARS} characters.`,
    'State no facts you are not given: no prices, discounts, free offers, licences, guarantees, ratings or years in business.',
  ].join('\n')
  const prompt = JSON.stringify({
    business: client.name,
    website: client.websiteUrl,
    ad_groups: groups.map((g) => ({ service: g.service.name, service_description: g.service.description, area: g.area })),
  })
  return { system, prompt }
}

/**
 * The model's lines for each planned group (null where the answer has none that fit). Entries are matched
 * by service and area, falling back to position, so a model that reorders groups still lands each right.
 */
export function readAdCopyAnswer(text: string, groups: readonly PlannedGroup[]): (AdLines | null)[] {
  const answer = extractJsonObject(text)
  const entries = Array.isArray(answer?.ad_groups) ? (answer.ad_groups as unknown[]) : []
  const records = entries.filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object' && !Array.isArray(e))
  return groups.map((group, i) => {
    const matching = records.find(
      (r) =>
        typeof r.service === 'string' &&
        nameKey(r.service) === nameKey(group.service.name) &&
        nameKey(String(r.area ?? '')) === nameKey(group.area),
    )
    const entry = matching ?? records[i]
    if (!entry) return null
    const headlines = Array.isArray(entry.headlines) ? entry.headlines : []
    const descriptions = Array.isArray(entry.descriptions) ? entry.descriptions : []
    return fitLines({ headlines, descriptions })
  })
}
