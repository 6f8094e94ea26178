/**
 * The analysis of one captured answer (report_json): scorecard, source table, claim map, entity table and
 * findings. Pure and deterministic: the same input always gives the same report, so a report changes
 * only when ANALYSIS_VERSION does (and the capture is re-analyzed).
 */
import { directoryName, domainLabel, hostOf, MEDIA_DOMAINS, registrableDomain, squash, type SourceClass } from './domains.js'
import { namedBusinesses, type NamedBusiness } from './entities.js'
import { findingsOf, type Finding } from './findings.js'
import { findName, nameKey, sentences } from './text.js'
import type { AnalysisCitation, AnalysisClient, AnalysisInput } from './input.js'
import type { ClaimRow, EntityRow, Scorecard, SourceRow } from './report-rows.js'

/** Bump on any change that can change a report; reanalyze_aeo_client brings old captures up to it. */
export const ANALYSIS_VERSION = 3

/** Sentences kept in the claim map (the first ones; an answer is rarely about the client more often). */
export const MAX_CLAIMS = 50

export type AeoAnalysis = {
  scorecard: Scorecard
  source_table: SourceRow[]
  claim_map: ClaimRow[]
  entity_table: EntityRow[]
  findings: Finding[]
}

export type { Finding }
export type { AnalysisCitation, AnalysisClient, AnalysisInput, AnalysisQuestion } from './input.js'
export type { ClaimRow, EntityRow, Scorecard, SourceRow } from './report-rows.js'

/** The client's ways of being named: its name, its name without legal suffixes, and its site name. */
function clientNames(client: AnalysisClient, ownDomain: string): string[] {
  const names = [client.name.trim()]
  const key = nameKey(client.name)
  if (key && key !== client.name.trim().toLowerCase()) names.push(key)
  if (ownDomain) names.push(ownDomain)
  const host = hostOf(client.websiteUrl)
  if (host && host !== ownDomain) names.push(host)
  return names.filter((n) => n.length >= 2)
}

/** Offset of the client's first mention, or -1: by name, by site name, or by its domain label written together. */
function clientOffset(text: string, names: readonly string[], ownDomain: string): number {
  const offsets = names.map((n) => findName(text, n)).filter((o) => o >= 0)
  if (offsets.length > 0) return Math.min(...offsets)
  const label = domainLabel(ownDomain)
  if (label.length >= 5) {
    const match = new RegExp(`(?<![a-z0-9])${label.replace(/-/g, '[- ]?')}(?![a-z0-9])`, 'i').exec(text)
    if (match) return match.index
  }
  return -1
}

/** True when the business is the client (same identity, or one name contains the other). */
function isClient(business: NamedBusiness, client: AnalysisClient, ownDomain: string): boolean {
  const key = nameKey(client.name)
  if (!key) return false
  if (business.key === key || business.key.startsWith(`${key} `) || key.startsWith(`${business.key} `)) return true
  const squashed = squash(business.name)
  const label = squash(domainLabel(ownDomain))
  return squashed === squash(key) || (label.length >= 5 && (squashed === label || squashed === `${label}com`))
}

/** The cited domain that belongs to a business: its squashed name and the domain label contain each other. */
function domainOf(business: NamedBusiness, domains: readonly string[]): string | null {
  const name = squash(business.name)
  const key = squash(business.key)
  for (const domain of domains) {
    const label = squash(domainLabel(domain))
    if (label.length < 4) continue
    if (name.includes(label) || label.includes(key) || label.includes(name)) return domain
  }
  return null
}

function sourceRows(
  citations: readonly AnalysisCitation[],
  retrieved: readonly AnalysisCitation[],
  ownDomain: string,
  competitorOf: (domain: string) => string | null,
): SourceRow[] {
  const rows = new Map<string, SourceRow>()
  const row = (domain: string): SourceRow => {
    let r = rows.get(domain)
    if (!r) {
      const directory = directoryName(domain)
      const competitor = competitorOf(domain)
      const cls: SourceClass =
        domain === ownDomain ? 'own' : directory ? 'directory' : MEDIA_DOMAINS.has(domain) ? 'media' : competitor ? 'competitor' : 'other'
      r = {
        domain,
        class: cls,
        count: 0,
        retrieved: 0,
        label: cls === 'directory' ? directory! : cls === 'competitor' ? competitor : null,
        urls: [],
      }
      rows.set(domain, r)
    }
    return r
  }
  for (const c of citations) {
    const domain = registrableDomain(c.url)
    if (!domain) continue
    const r = row(domain)
    r.count++
    if (r.urls.length < 5 && !r.urls.includes(c.url)) r.urls.push(c.url)
  }
  // Only cited domains are rows; what the engine merely retrieved is counted on them, and in the scorecard.
  for (const c of retrieved) {
    const r = rows.get(registrableDomain(c.url))
    if (r) r.retrieved++
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain))
}

export function analyze(input: AnalysisInput): AeoAnalysis {
  const { client, question } = input
  const text = input.answerText
  const ownDomain = registrableDomain(client.websiteUrl)
  const names = clientNames(client, ownDomain)

  const placeNames = [...client.locations, question.location].filter(Boolean)
  const contextWords = [...client.services, question.service, ...placeNames, ...placeNames.flatMap((p) => p.split(','))]
  const businesses = namedBusinesses(text, { contextWords, placeNames })
  const others = businesses.filter((b) => !isClient(b, client, ownDomain))

  const offset = clientOffset(text, names, ownDomain)
  const named = offset >= 0
  const ordered = [
    ...others.map((b) => ({ offset: b.offset, business: b as NamedBusiness | null })),
    ...(named ? [{ offset, business: null }] : []),
  ].sort((a, b) => a.offset - b.offset)
  const position = named ? ordered.findIndex((o) => o.business === null) + 1 : null

  const citedDomains = [...new Set(input.citations.map((c) => registrableDomain(c.url)).filter(Boolean))]
  const retrievedDomains = [...new Set(input.retrieved.map((c) => registrableDomain(c.url)).filter(Boolean))]
  const ownCitations = input.citations.filter((c) => ownDomain !== '' && registrableDomain(c.url) === ownDomain).length
  const candidateDomains = [...citedDomains, ...retrievedDomains].filter(
    (d) => d !== ownDomain && !directoryName(d) && !MEDIA_DOMAINS.has(d),
  )
  const entityDomains = new Map(others.map((b) => [b.key, domainOf(b, candidateDomains)]))
  const competitorOf = (domain: string) => others.find((b) => entityDomains.get(b.key) === domain)?.name ?? null

  const scorecard: Scorecard = {
    present: named || ownCitations > 0,
    named,
    named_first: position === 1,
    position,
    named_count: others.length + (named ? 1 : 0),
    cited: ownCitations > 0,
    own_domain_citations: ownCitations,
    citation_count: input.citations.length,
    retrieved_own: input.retrieved.filter((c) => ownDomain !== '' && registrableDomain(c.url) === ownDomain).length,
    retrieved_count: input.retrieved.length,
  }
  const source_table = sourceRows(input.citations, input.retrieved, ownDomain, competitorOf)
  const claim_map = sentences(text)
    .map((sentence, index) => ({ sentence, index }))
    .filter((s) => names.some((n) => findName(s.sentence, n) >= 0))
    .slice(0, MAX_CLAIMS)
    .map((s) => ({ sentence: s.sentence.slice(0, 1000), index: s.index }))
  const entity_table = ordered
    .filter((o) => o.business !== null)
    .map((o) => ({
      name: o.business!.name,
      position: ordered.indexOf(o) + 1,
      mentions: o.business!.mentions,
      domain: entityDomains.get(o.business!.key) ?? null,
    }))
  const findings = findingsOf({ input, scorecard, source_table, entity_table, claimCount: claim_map.length })
  return { scorecard, source_table, claim_map, entity_table, findings }
}
