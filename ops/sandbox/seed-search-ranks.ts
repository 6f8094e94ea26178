import { loadClient } from '../../commands/clients.js'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { loadState } from '../../commands/command-handler.js'
import { loadKeywordSet } from '../../commands/keywords.js'
import { recordCallerRanks, type RankInput } from '../../commands/search/ranks.js'
import { MAX_RANKS_PER_CALL } from '../../domain/search/ranks/rank-row.js'
import { pageSet } from '../../domain/pages/page-set.js'
import type { RankDevice, SerpFeatures } from '../../domain/search/ranks/rank-row.js'
import { primaryLocationId } from '../../domain/search/ranks/series.js'

/** Days of history, ending yesterday (today is left to the rank checks). */
export const SANDBOX_RANK_DAYS = 90

/**
 * The story the sandbox's ranks tell, one line per kind of keyword (by what its text names):
 * - drain cleaning: climbing from the mid-teens into the top 3, the client's page cited by the AI Overview once
 *   it reaches the top 5 and the map pack with it;
 * - water heaters: steady around 6 to 9, except the first one, which drops from 3 to the mid-teens after day 55,
 *   when an AI Overview that does not cite the client appears;
 * - emergency plumbing: outside the top 100 for the first month, then entering in the 60s and climbing to the 20s;
 * - anything else: drifting in the 20s and 30s.
 */
type Story = 'climbing' | 'steady' | 'dropping' | 'entering' | 'drifting'

/** A small integer hash: the same keyword, day and device always get the same wobble. */
function wobble(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(c + 1, 0x27d4eb2f)
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  h ^= h >>> 12
  return ((h >>> 0) % 3) - 1
}

const lerp = (from: number, to: number, share: number) => Math.round(from + (to - from) * Math.min(1, Math.max(0, share)))

/** The desktop position of a keyword on day `day` (0: the oldest of the history), before the device's offset. */
function positionOf(story: Story, index: number, day: number): number | null {
  const share = day / (SANDBOX_RANK_DAYS - 1)
  switch (story) {
    case 'climbing':
      return Math.max(1, lerp(16 + (index % 4), 2 + (index % 3), share) + wobble(index, day, 0))
    case 'steady':
      return 6 + (index % 3) + wobble(index, day, 0)
    case 'dropping':
      return day < 55 ? 3 + Math.max(0, wobble(index, day, 0)) : lerp(4, 14, (day - 55) / 15) + wobble(index, day, 0)
    case 'entering':
      return day < 30 ? null : lerp(64 + (index % 5), 21 + (index % 4), (day - 30) / (SANDBOX_RANK_DAYS - 31)) + wobble(index, day, 0)
    case 'drifting':
      return 22 + ((index * 7) % 15) + wobble(index, day, 0) + wobble(index, day >> 3, 1) * 2
  }
}

/** Competitors per service: the directories everyone meets, and fictional plumbers of the area. */
const COMPETITORS: Record<string, readonly string[]> = {
  drain: ['mrrooter-austin.example', 'yelp.com', 'capitaldrainpros.example', 'angi.com', 'rotorooter-central.example', 'homeadvisor.com'],
  heater: ['lonestarwaterheaters.example', 'homedepot.com', 'yelp.com', 'tanklessaustin.example', 'angi.com', 'bbb.org'],
  other: ['yelp.com', 'austinplumbingco.example', 'angi.com', 'roundrockplumbers.example', 'thumbtack.com', 'bbb.org', 'nextdoor.com'],
}

function storyOf(text: string, firstHeater: boolean): Story {
  if (/drain/.test(text)) return 'climbing'
  if (/water heater/.test(text)) return firstHeater ? 'dropping' : 'steady'
  if (/emergency/.test(text)) return 'entering'
  return 'drifting'
}

/** What one keyword's results page showed on one day and device. */
function observe(
  story: Story,
  index: number,
  day: number,
  device: RankDevice,
  local: boolean,
): { position: number | null; competitors: string[]; features: SerpFeatures } {
  const desktop = positionOf(story, index, day)
  const position = desktop === null ? null : Math.min(100, Math.max(1, desktop + (device === 'mobile' ? 1 + (index % 2) : 0)))
  const pool = COMPETITORS[story === 'climbing' ? 'drain' : story === 'steady' || story === 'dropping' ? 'heater' : 'other']!
  // The order of the field shifts every couple of weeks.
  const shift = (index + (day >> 4)) % pool.length
  const competitors = [...pool.slice(shift), ...pool.slice(0, shift)]
  const aiOverview = story === 'dropping' ? day >= 55 : index % 3 === 0 || story === 'climbing'
  const top5 = position !== null && position <= 5
  return {
    position,
    competitors,
    features: {
      local_pack: local,
      local_pack_includes_client: local && top5,
      featured_snippet: index % 4 === 1,
      featured_snippet_is_client: index % 4 === 1 && position === 1,
      people_also_ask: story !== 'entering' || day % 2 === 0,
      ai_overview: aiOverview,
      ai_overview_cites_client: aiOverview && story === 'climbing' && top5,
    },
  }
}

/**
 * The sandbox's fictional rank history for its client: ninety days of daily desktop and mobile ranks for each of
 * its keywords, at the location the keyword names (else its first), as the agency's earlier tracker's history
 * imported with record_keyword_ranks (source `recorded`, pages found by URL), in calls of whole days. Runs after
 * the associations part, whose pages the URLs name; deterministic for the same keywords and day.
 */
export async function seedSandboxRanks(write: WriteDeps, ctx: CommandContext, _orgId: number, clientId: number): Promise<void> {
  const client = await loadClient(write.store, clientId)
  const base = client.websiteUrl.replace(/\/+$/, '')
  const pages = (await loadState(write.store, pageSet, clientId)).pages
  const pageUrl = (path: string) => pages.find((p) => p.url.replace(/\/+$/, '') === `${base}${path}`.replace(/\/+$/, ''))?.url ?? `${base}/`
  const keywords = (await loadKeywordSet(write, clientId)).keywords.filter((k) => !k.deleted)
  const firstHeater = keywords.find((k) => /water heater/.test(k.keyword.toLowerCase()))?.id
  const plan = keywords.map((k, index) => {
    const text = k.keyword.toLowerCase()
    const story = storyOf(text, k.id === firstHeater)
    const path = story === 'climbing' ? '/services/drain-cleaning' : /water heater/.test(text) ? '/services/water-heater-repair' : '/'
    return { id: k.id, index, story, url: pageUrl(path), locationId: primaryLocationId(k.location, client.locations) }
  })
  if (plan.length === 0) return

  const today = Date.UTC(write.clock().getUTCFullYear(), write.clock().getUTCMonth(), write.clock().getUTCDate())
  let batch: RankInput[] = []
  for (let day = 0; day < SANDBOX_RANK_DAYS; day++) {
    const date = new Date(today - (SANDBOX_RANK_DAYS - day) * 86_400_000).toISOString().slice(0, 10)
    const ranks: RankInput[] = plan.flatMap((k) =>
      (['desktop', 'mobile'] as const).map((device): RankInput => {
        const seen = observe(k.story, k.index, day, device, k.locationId !== null)
        return {
          keyword_id: k.id,
          location_id: k.locationId,
          device,
          date,
          position: seen.position,
          url: seen.position === null ? null : k.url,
          competitors: seen.competitors,
          serp_features: seen.features,
        }
      }),
    )
    // Whole days, at most as many ranks as one record_keyword_ranks call takes.
    if (batch.length + ranks.length > MAX_RANKS_PER_CALL) {
      await recordCallerRanks(write, ctx, { clientId, ranks: batch })
      batch = []
    }
    batch.push(...ranks)
  }
  if (batch.length > 0) await recordCallerRanks(write, ctx, { clientId, ranks: batch })
}
