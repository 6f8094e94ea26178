import { createHash } from 'node:crypto'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { loadClient } from '../../commands/clients.js'
import { loadKeywordSet } from '../../commands/keywords.js'
import { type CallerMetrics, recordCallerMetrics } from '../../commands/search/metrics.js'
import { MAX_KEYWORDS_PER_FETCH } from '../../domain/search/metrics/events.js'
import { metricsLocationFor } from '../../domain/search/metrics/location.js'

/** A stable number in [0, 1) from a phrase: the same keyword gets the same fiction on every seed. */
function unit(text: string, salt: string): number {
  return createHash('sha256').update(`sandbox:${salt}:${text}`).digest().readUInt32BE(0) / 2 ** 32
}

/** A UUID (version 4 layout) derived from a name, so a seed's fetch id is the same every time for the same client. */
function derivedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** Plausible local-service numbers for a phrase: "near me" and "emergency" phrases are searched more and cost more. */
function fiction(keyword: string, now: Date): CallerMetrics {
  const demand = /near me|emergency|24/.test(keyword) ? 3 : 1
  const volume = [20, 30, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590][Math.floor(unit(keyword, 'volume') * 14)]! * demand
  const cpc = Math.round((4 + unit(keyword, 'cpc') * 22) * demand * 100) / 100
  const index = Math.floor(unit(keyword, 'competition') * 101)
  const latest = now.getUTCFullYear() * 12 + now.getUTCMonth() - 1
  return {
    keyword,
    search_volume: volume,
    cpc,
    competition: index < 34 ? 'low' : index < 67 ? 'medium' : 'high',
    competition_index: index,
    low_top_of_page_bid: Math.round(cpc * 45) / 100,
    high_top_of_page_bid: Math.round(cpc * 160) / 100,
    difficulty: Math.floor(unit(keyword, 'difficulty') * 60),
    monthly_searches: Array.from({ length: 12 }, (_, i) => ({
      year: Math.floor((latest - i) / 12),
      month: ((latest - i) % 12) + 1,
      search_volume: Math.round(volume * (0.75 + unit(keyword, `month-${i}`) * 0.5)),
    })),
  }
}

/**
 * The sandbox's fictional metrics for its client's keywords, recorded as a caller's numbers (source
 * `recorded`), in the client's market. The metrics processor never fetches for the sandbox organization, so
 * these are all its keywords ever show.
 */
export async function seedSandboxKeywordMetrics(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const client = await loadClient(write.store, clientId)
  const keywords = (await loadKeywordSet(write, clientId)).keywords.filter((k) => !k.deleted).slice(0, MAX_KEYWORDS_PER_FETCH)
  if (keywords.length === 0) return
  const { location } = metricsLocationFor({ settings: client.settings, locations: client.locations })
  await recordCallerMetrics(write, ctx, {
    orgId,
    location,
    metrics: keywords.map((k) => fiction(k.keyword, write.clock())),
    fetchId: derivedUuid(`sandbox-keyword-metrics:${orgId}:${clientId}`),
  })
}
