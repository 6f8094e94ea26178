import { systemContext } from '../../../commands/command-handler.js'
import { recordKeywordRanks } from '../../../commands/search/ranks.js'
import { NO_SERP_FEATURES, type RankRow } from '../../../domain/search/ranks/rank-row.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt } from '../../support/read-models.js'

/**
 * The ranks part of the realistic log: ranks recorded through record_keyword_ranks at the client's location
 * and nationally, on both devices, over several days (a repeat that records nothing, a correction that
 * replaces a row of an earlier event of the same day), a rank check's day written through the command with
 * more rows than one event holds (so a day's stream has several events in one append) and retried, a refused
 * call, and another organization's ranks. Runs after the keywords and site-edits parts, whose keywords and
 * pages it names.
 */
export async function writeRanksLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const keywords = await call<{ id: number; keyword: string }[]>('get_keywords_for_client', { client_id: plumbers }, keys.orgA)
  const [austin] = await call<{ id: number }[]>('get_locations_for_client', { client_id: plumbers }, keys.orgA)
  const drain = keywords.find((k) => k.keyword.toLowerCase() === 'drain cleaning austin')!.id
  const nearMe = keywords.find((k) => k.keyword.toLowerCase() === 'plumber near me')!.id
  const url = 'https://acme-plumbing.example.com/'

  const rank = (keyword_id: number, date: string, position: number | null, extra: Record<string, unknown> = {}) => ({
    keyword_id,
    location_id: austin!.id,
    device: 'desktop',
    date,
    position,
    url: position === null ? null : url,
    competitors: ['rotorooter.com', 'yelp.com', 'mrrooter.com'],
    serp_features: { people_also_ask: true, ai_overview: true, ai_overview_cites_client: position !== null && position <= 3 },
    ...extra,
  })
  const days = ['2026-02-26', '2026-02-27', '2026-02-28']
  await call(
    'record_keyword_ranks',
    {
      client_id: plumbers,
      ranks: days.flatMap((date, i) => [
        rank(drain, date, 6 - i),
        rank(drain, date, 8 - i, { device: 'mobile' }),
        rank(nearMe, date, i === 1 ? null : 14, { location_id: null }),
      ]),
    },
    keys.orgA,
  )
  await call('record_keyword_ranks', { client_id: plumbers, ranks: [rank(drain, days[2]!, 4)] }, keys.orgA) // the same: nothing
  await call('record_keyword_ranks', { client_id: plumbers, ranks: [rank(drain, days[2]!, 3, { page_id: null })] }, keys.orgA) // corrected

  // A rank check's day: more keys than one event holds (15 keywords × national and Austin × 2 devices), in
  // one append; retried, it records nothing, and a late different row for a key it has is left out.
  const jobs: number[] = [drain, nearMe]
  for (let i = 1; jobs.length < 15; i++) {
    jobs.push(await call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: `plumber job ${i} austin` } }, keys.orgA))
  }
  const day: RankRow[] = jobs.flatMap((keyword_id, i) =>
    [null, austin!.id].flatMap((location_id) =>
      (['desktop', 'mobile'] as const).map(
        (device): RankRow => ({
          keyword_id,
          location_id,
          device,
          date: '2026-03-01',
          position: i < 12 ? i + 1 + (device === 'mobile' ? 1 : 0) : null,
          url: i < 12 ? url : null,
          page_id: null,
          competitors: ['angi.com', 'homeadvisor.com'],
          serp_features: {
            ...NO_SERP_FEATURES,
            local_pack: location_id !== null,
            local_pack_includes_client: location_id !== null && i < 3,
          },
          source: 'dataforseo',
        }),
      ),
    ),
  )
  const check = async (rows: RankRow[], checkId: number) => {
    const outcome = await recordKeywordRanks(ts.system.write, systemContext('realistic-rank-check'), {
      clientId: plumbers,
      rows,
      checkId,
      overwrite: false,
    })
    await readModelsAt(ts, outcome.position)
  }
  await check(day, 41)
  await check(day, 42) // retried: nothing
  await check([{ ...day[0]!, position: 99 }], 43) // a key the day has: left as it is

  const refused = await ts.rpc(
    'record_keyword_ranks',
    { client_id: plumbers, ranks: [rank(drain, days[0]!, 2, { location_id: 999_999 })] },
    keys.orgA,
  )
  if (refused.statusCode !== 400) throw new Error(`a rank at an unknown location answered ${refused.statusCode}`)

  const [implants] = await call<{ id: number }[]>('get_keywords_for_client', { client_id: bravo }, keys.orgB)
  await call(
    'record_keyword_ranks',
    { client_id: bravo, ranks: [{ keyword_id: implants!.id, device: 'mobile', date: days[0], position: 12 }] },
    keys.orgB,
  )
}
