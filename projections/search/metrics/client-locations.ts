import { sql } from 'kysely'
import type { MetricsLocation } from '../../../domain/search/metrics/events.js'
import { METRICS_COUNTRY_SETTING, metricsLocationFor } from '../../../domain/search/metrics/location.js'
import type { ReadDb } from '../../tables.js'

/**
 * Each client's metrics market (domain/search/metrics/location.ts) from the read models: its
 * keyword_metrics_country setting and its current locations in the order they were added, the same facts
 * refresh_keyword_metrics reads from the client's stream.
 */
export async function metricsLocationsOf(read: ReadDb, clientIds: readonly number[]): Promise<Map<number, MetricsLocation>> {
  const ids = [...new Set(clientIds)]
  const result = new Map<number, MetricsLocation>()
  if (ids.length === 0) return result
  const inClients = sql<boolean>`client_id = any(${sql.val(ids)}::bigint[])`
  const [places, settings] = await Promise.all([
    read
      .selectFrom('client_locations')
      .select(['client_id', 'country', 'state'])
      .where(inClients)
      .where('removed_at', 'is', null)
      .orderBy('id')
      .execute(),
    read.selectFrom('client_settings').select(['client_id', 'value']).where(inClients).where('key', '=', METRICS_COUNTRY_SETTING).execute(),
  ])
  const placesOf = new Map<number, { country: string; state: string }[]>()
  for (const p of places) placesOf.set(p.client_id, [...(placesOf.get(p.client_id) ?? []), p])
  const settingOf = new Map(settings.map((s) => [s.client_id, s.value]))
  for (const id of ids) {
    const setting = settingOf.get(id)
    const { location } = metricsLocationFor({
      settings: setting === undefined ? {} : { [METRICS_COUNTRY_SETTING]: setting },
      locations: placesOf.get(id) ?? [],
    })
    result.set(id, location)
  }
  return result
}
