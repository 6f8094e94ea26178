import type { z } from 'zod'
import type { Engine } from '../engines.js'
import type { Aggregate } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import type { AeoTrackerEvent, AeoTrackerRebuilt, ItemStatus, Tier } from './events.js'

/**
 * A client's tracker, stream `aeo_tracker-<client_id>`: findings become items keyed by item_key; each
 * tracked capture reports which items it opened, carried and resolved. "Resolved" is per question and
 * engine: keys the latest earlier capture of the same question and engine found and this one does not.
 */
export const trackerStream = (clientId: number) => `aeo_tracker-${clientId}`

export type ItemStatusValue = z.infer<typeof ItemStatus>
export type TierValue = z.infer<typeof Tier>

export interface TrackerItem {
  readonly itemId: number
  readonly key: string
  readonly tier: TierValue
  readonly title: string
  readonly evidence: string
  readonly status: ItemStatusValue
  readonly note: string | null
}

export interface TrackerState {
  readonly clientId: number
  /** Items by item_key. */
  readonly items: ReadonlyMap<string, TrackerItem>
  /** `<query_id>|<engine>` → the keys its latest capture found. */
  readonly latest: ReadonlyMap<string, { readonly captureId: number; readonly keys: readonly string[] }>
  /** Every capture tracked (re-analysis goes over these). */
  readonly captures: ReadonlySet<number>
}

export interface FindingInput {
  readonly item_key: string
  readonly tier: TierValue
  readonly title: string
  readonly evidence: string
}

export interface AnalyzedCapture {
  readonly capture_id: number
  readonly query_id: number
  readonly engine: Engine
  readonly month: string
  readonly findings: readonly FindingInput[]
}

export type TrackerCommand =
  | ({
      type: 'TrackCapture'
      client_id: number
      scorecard: Record<string, unknown>
      /** Ids for items this capture may open, allocated before the decision (unused ones are skipped). */
      new_item_ids: readonly number[]
    } & AnalyzedCapture)
  | { type: 'ChangeItemStatus'; client_id: number; item_id: number; status: ItemStatusValue; note?: string | undefined }
  | { type: 'DeleteItems'; client_id: number }
  | {
      type: 'RebuildTracker'
      client_id: number
      analysis_version: number
      /** Every capture of the client, re-analyzed, oldest first. */
      captures: readonly AnalyzedCapture[]
      new_item_ids: readonly number[]
    }

const pairKey = (queryId: number, engine: string) => `${queryId}|${engine}`

const initialState = (): TrackerState => ({ clientId: 0, items: new Map(), latest: new Map(), captures: new Set() })

export function findItem(state: TrackerState, itemId: number): TrackerItem | undefined {
  for (const item of state.items.values()) if (item.itemId === itemId) return item
  return undefined
}

function unique(findings: readonly FindingInput[]): FindingInput[] {
  const seen = new Map<string, FindingInput>()
  for (const f of findings) if (!seen.has(f.item_key)) seen.set(f.item_key, f)
  return [...seen.values()]
}

function evolve(state: TrackerState, event: AeoTrackerEvent): TrackerState {
  switch (event.type) {
    case 'AeoCaptureTracked': {
      const d = event.data
      const items = new Map(state.items)
      for (const o of d.opened)
        items.set(o.item_key, {
          itemId: o.item_id,
          key: o.item_key,
          tier: o.tier,
          title: o.title,
          evidence: o.evidence,
          status: 'open',
          note: null,
        })
      const latest = new Map(state.latest)
      latest.set(pairKey(d.query_id, d.engine), { captureId: d.capture_id, keys: [...d.opened.map((o) => o.item_key), ...d.carried] })
      return { clientId: d.client_id, items, latest, captures: new Set([...state.captures, d.capture_id]) }
    }
    case 'AeoItemStatusChanged': {
      const item = state.items.get(event.data.item_key)
      if (!item || item.itemId !== event.data.item_id) return state
      const items = new Map(state.items)
      items.set(item.key, { ...item, status: event.data.to, note: event.data.note })
      return { ...state, items }
    }
    case 'AeoItemsDeleted': {
      const gone = new Set(event.data.item_ids)
      return { ...state, items: new Map([...state.items].filter(([, item]) => !gone.has(item.itemId))) }
    }
    case 'AeoTrackerRebuilt':
      return rebuilt(state, event.data)
  }
}

function rebuilt(state: TrackerState, data: z.infer<typeof AeoTrackerRebuilt>): TrackerState {
  const items = new Map<string, TrackerItem>()
  const keysByCapture = new Map<number, string[]>()
  for (const i of data.items) {
    items.set(i.item_key, {
      itemId: i.item_id,
      key: i.item_key,
      tier: i.tier,
      title: i.title,
      evidence: i.evidence,
      status: i.status,
      note: i.note,
    })
    for (const hit of i.hits) keysByCapture.set(hit.capture_id, [...(keysByCapture.get(hit.capture_id) ?? []), i.item_key])
  }
  const captures = data.captures ?? data.items.flatMap((i) => i.hits)
  const latest = new Map<string, { captureId: number; keys: readonly string[] }>()
  for (const c of [...captures].sort((a, b) => a.capture_id - b.capture_id)) {
    latest.set(pairKey(c.query_id, c.engine), { captureId: c.capture_id, keys: keysByCapture.get(c.capture_id) ?? [] })
  }
  return { clientId: data.client_id, items, latest, captures: new Set([...state.captures, ...captures.map((c) => c.capture_id)]) }
}

function decide(command: TrackerCommand, state: TrackerState): AeoTrackerEvent[] {
  switch (command.type) {
    case 'TrackCapture': {
      if (state.captures.has(command.capture_id)) return []
      const findings = unique(command.findings)
      const ids = [...command.new_item_ids]
      const opened: { item_id: number; item_key: string; tier: TierValue; title: string; evidence: string }[] = []
      const carried: { item_id: number; item_key: string }[] = []
      for (const f of findings) {
        const existing = state.items.get(f.item_key)
        if (existing) carried.push({ item_id: existing.itemId, item_key: f.item_key })
        else {
          const id = ids.shift()
          if (id === undefined) throw new Error('TrackCapture needs an item id per finding')
          opened.push({ item_id: id, item_key: f.item_key, tier: f.tier, title: f.title, evidence: f.evidence })
        }
      }
      const found = new Set(findings.map((f) => f.item_key))
      const before = state.latest.get(pairKey(command.query_id, command.engine))?.keys ?? []
      const resolved = before.filter((key) => !found.has(key) && state.items.has(key))
      return [
        {
          type: 'AeoCaptureTracked',
          data: {
            client_id: command.client_id,
            capture_id: command.capture_id,
            query_id: command.query_id,
            engine: command.engine,
            month: command.month,
            scorecard: command.scorecard,
            opened,
            carried: carried.map((c) => c.item_key),
            carried_items: carried,
            resolved: [...new Set(resolved)],
          },
        },
      ]
    }
    case 'ChangeItemStatus': {
      const item = findItem(state, command.item_id)
      if (!item) throw new NotFoundError('item', command.item_id)
      const note = command.note === undefined ? item.note : command.note
      if (item.status === command.status && item.note === note) return []
      return [
        {
          type: 'AeoItemStatusChanged',
          data: { client_id: command.client_id, item_id: item.itemId, item_key: item.key, from: item.status, to: command.status, note },
        },
      ]
    }
    case 'DeleteItems': {
      const ids = [...state.items.values()].map((i) => i.itemId).sort((a, b) => a - b)
      return ids.length === 0 ? [] : [{ type: 'AeoItemsDeleted', data: { client_id: command.client_id, item_ids: ids } }]
    }
    case 'RebuildTracker':
      return [{ type: 'AeoTrackerRebuilt', data: rebuildItems(state, command) }]
  }
}

/**
 * Items from re-analyzed captures: one per item_key, tier/title/evidence from its first finding (oldest
 * capture first); a key the tracker already has keeps its id, status and note.
 */
export function rebuildItems(
  state: TrackerState,
  command: Extract<TrackerCommand, { type: 'RebuildTracker' }>,
): z.infer<typeof AeoTrackerRebuilt> {
  const ids = [...command.new_item_ids]
  const byKey = new Map<string, z.infer<typeof AeoTrackerRebuilt>['items'][number]>()
  const captures = [...command.captures].sort((a, b) => a.capture_id - b.capture_id)
  for (const c of captures) {
    for (const f of unique(c.findings)) {
      let item = byKey.get(f.item_key)
      if (!item) {
        const existing = state.items.get(f.item_key)
        const itemId = existing?.itemId ?? ids.shift()
        if (itemId === undefined) throw new Error('RebuildTracker needs an item id per new key')
        item = {
          item_id: itemId,
          item_key: f.item_key,
          tier: f.tier,
          title: f.title,
          evidence: f.evidence,
          status: existing?.status ?? 'open',
          note: existing?.note ?? null,
          hits: [],
        }
        byKey.set(f.item_key, item)
      }
      item.hits.push({ capture_id: c.capture_id, query_id: c.query_id, engine: c.engine, month: c.month })
    }
  }
  return {
    client_id: command.client_id,
    analysis_version: command.analysis_version,
    items: [...byKey.values()].sort((a, b) => a.item_id - b.item_id),
    captures: captures.map((c) => ({ capture_id: c.capture_id, query_id: c.query_id, engine: c.engine, month: c.month })),
  }
}

export const tracker: Aggregate<TrackerState, TrackerCommand, AeoTrackerEvent> = { streamOf: trackerStream, initialState, evolve, decide }
