import { nameKey } from '../clients/values.js'
import { DomainError } from '../shared/errors.js'
import { generateKeywords } from '../keywords/generate.js'
import { MAX_AD_GROUPS } from './ad-copy-set.js'

/**
 * Which ad groups an ad_copy job writes: one per service × area. Services default to the client's, areas
 * to the client's locations (no locations: one group per service about no particular area). A named service
 * the client does not list fails the job naming it (a typo would otherwise go unnoticed as a missing ad
 * group); areas are free text (a campaign may target places the client does not list as locations). Past
 * MAX_AD_GROUPS, pairs are kept in order (earlier services first) and the rest counted as omitted.
 */
export interface PlanInput {
  readonly services: readonly { readonly name: string; readonly description: string }[]
  readonly locations: readonly string[]
  readonly requestedServices?: readonly string[] | undefined
  readonly requestedAreas?: readonly string[] | undefined
}

export interface PlannedGroup {
  readonly service: { readonly name: string; readonly description: string }
  readonly area: string
}

export interface AdGroupPlan {
  readonly groups: readonly PlannedGroup[]
  /** Service × area pairs left out past MAX_AD_GROUPS. */
  readonly omitted: number
}

function unique(values: readonly string[]): string[] {
  const seen = new Set<string>()
  return values
    .map((v) => v.trim().replace(/\s+/g, ' '))
    .filter((v) => {
      if (v === '' || seen.has(nameKey(v))) return false
      seen.add(nameKey(v))
      return true
    })
}

export function planAdGroups(input: PlanInput): AdGroupPlan {
  if (input.services.length === 0) {
    throw new DomainError('ad_copy_no_services', 'The client has no services to write ad copy for', 'add services to the client first')
  }
  let services = input.services
  if (input.requestedServices) {
    const requested = unique(input.requestedServices)
    const unknown = requested.filter((name) => !input.services.some((s) => nameKey(s.name) === nameKey(name)))
    if (unknown.length > 0) {
      throw new DomainError(
        'ad_copy_unknown_service',
        'The client does not list a requested service',
        `unknown: ${unknown.map((u) => `"${u}"`).join(', ')}; the client's services: ${input.services.map((s) => `"${s.name}"`).join(', ')}`,
      )
    }
    services = requested.map((name) => input.services.find((s) => nameKey(s.name) === nameKey(name))!)
  }
  const areas = unique(input.requestedAreas ?? input.locations)
  if (areas.length === 0) areas.push('')
  const pairs = services.flatMap((service) => areas.map((area) => ({ service, area })))
  return { groups: pairs.slice(0, MAX_AD_GROUPS), omitted: Math.max(0, pairs.length - MAX_AD_GROUPS) }
}

/** "Drain Cleaning – Austin, TX" (or the service alone). */
export function adGroupName(group: PlannedGroup): string {
  return group.area ? `${group.service.name} – ${group.area}` : group.service.name
}

/** Search keywords suggested for an ad group: the keyword generator's phrases for its one service × area. */
export function adGroupKeywords(group: PlannedGroup, max = 10): string[] {
  const [city = '', state = ''] = group.area.split(',').map((p) => p.trim())
  return generateKeywords({
    services: [group.service.name],
    locations: group.area ? [{ name: group.area, city, state }] : [],
    questions: [],
    max,
  }).map((k) => k.keyword)
}
