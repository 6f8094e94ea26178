/**
 * The tracker aggregate in given/when/then form: new / carried / resolved across captures of the same
 * question and engine, status changes, deletion and the rebuild that keeps statuses and notes.
 */
import t from 'tap'
import type { AeoTrackerEvent } from '../../domain/aeo/tracker/events.js'
import { tracker, type FindingInput, type TrackerCommand } from '../../domain/aeo/tracker/tracker.js'
import { spec } from './given-when-then.js'

const finding = (item_key: string, tier: FindingInput['tier'] = 'C'): FindingInput => ({
  item_key,
  tier,
  title: `Do ${item_key}`,
  evidence: `seen: ${item_key}`,
})
const score = { present: false }

function track(
  capture_id: number,
  findings: FindingInput[],
  over: Partial<Extract<TrackerCommand, { type: 'TrackCapture' }>> = {},
): TrackerCommand {
  return {
    type: 'TrackCapture',
    client_id: 7,
    capture_id,
    query_id: 11,
    engine: 'claude',
    month: '2026-10',
    scorecard: score,
    findings,
    new_item_ids: [100 + capture_id * 10, 101 + capture_id * 10, 102 + capture_id * 10],
    ...over,
  }
}

function tracked(
  capture_id: number,
  opened: [number, string, FindingInput['tier']][],
  carried: [number, string][] = [],
  resolved: string[] = [],
  over: Record<string, unknown> = {},
): AeoTrackerEvent {
  return {
    type: 'AeoCaptureTracked',
    data: {
      client_id: 7,
      capture_id,
      query_id: 11,
      engine: 'claude',
      month: '2026-10',
      scorecard: score,
      opened: opened.map(([item_id, item_key, tier]) => ({
        item_id,
        item_key,
        tier,
        title: `Do ${item_key}`,
        evidence: `seen: ${item_key}`,
      })),
      carried: carried.map(([, key]) => key),
      carried_items: carried.map(([item_id, item_key]) => ({ item_id, item_key })),
      resolved,
      ...over,
    },
  } as AeoTrackerEvent
}

const given = spec(tracker)

t.test('a first capture opens an item per finding', async (t) => {
  given()
    .when(track(1, [finding('listing:yelp.com'), finding('site:citable:x', 'B')]))
    .then(t, [
      tracked(1, [
        [110, 'listing:yelp.com', 'C'],
        [111, 'site:citable:x', 'B'],
      ]),
    ])
})

t.test('a second capture of the same question and engine carries, opens and resolves', async (t) => {
  const first = tracked(1, [
    [110, 'listing:yelp.com', 'C'],
    [111, 'site:citable:x', 'B'],
  ])
  given(first)
    .when(track(2, [finding('listing:yelp.com'), finding('market:leader:radiant', 'X')]))
    .then(t, [tracked(2, [[120, 'market:leader:radiant', 'X']], [[110, 'listing:yelp.com']], ['site:citable:x'])])
})

t.test('another engine carries what it finds but resolves nothing the first engine found', async (t) => {
  const first = tracked(1, [
    [110, 'listing:yelp.com', 'C'],
    [111, 'site:citable:x', 'B'],
  ])
  given(first)
    .when(track(2, [finding('listing:yelp.com')], { engine: 'gemini' }))
    .then(t, [tracked(2, [], [[110, 'listing:yelp.com']], [], { engine: 'gemini' })])
})

t.test('the same capture tracked twice changes nothing', async (t) => {
  given(tracked(1, [[110, 'listing:yelp.com', 'C']]))
    .when(track(1, [finding('listing:yelp.com')]))
    .thenNothingHappens(t)
})

t.test('duplicate findings in one capture are one item', async (t) => {
  given()
    .when(track(1, [finding('a:b'), finding('a:b')]))
    .then(t, [tracked(1, [[110, 'a:b', 'C']])])
})

t.test('status changes: from and to, the note kept unless given; the same status and note is a no-op', async (t) => {
  const first = tracked(1, [[110, 'listing:yelp.com', 'C']])
  given(first)
    .when({ type: 'ChangeItemStatus', client_id: 7, item_id: 110, status: 'in_progress', note: 'claimed the listing' })
    .then(t, [
      {
        type: 'AeoItemStatusChanged',
        data: { client_id: 7, item_id: 110, item_key: 'listing:yelp.com', from: 'open', to: 'in_progress', note: 'claimed the listing' },
      },
    ])
  const changed: AeoTrackerEvent = {
    type: 'AeoItemStatusChanged',
    data: { client_id: 7, item_id: 110, item_key: 'listing:yelp.com', from: 'open', to: 'in_progress', note: 'n' },
  }
  given(first, changed)
    .when({ type: 'ChangeItemStatus', client_id: 7, item_id: 110, status: 'done' })
    .then(t, [
      {
        type: 'AeoItemStatusChanged',
        data: { client_id: 7, item_id: 110, item_key: 'listing:yelp.com', from: 'in_progress', to: 'done', note: 'n' },
      },
    ])
  given(first, changed).when({ type: 'ChangeItemStatus', client_id: 7, item_id: 110, status: 'in_progress' }).thenNothingHappens(t)
  given(first).when({ type: 'ChangeItemStatus', client_id: 7, item_id: 999, status: 'done' }).thenThrows(t, 'not_found')
})

t.test('deleting items removes them all; a later capture opens them again with new ids', async (t) => {
  const first = tracked(1, [
    [110, 'a:b', 'C'],
    [111, 'c:d', 'A'],
  ])
  given(first)
    .when({ type: 'DeleteItems', client_id: 7 })
    .then(t, [{ type: 'AeoItemsDeleted', data: { client_id: 7, item_ids: [110, 111] } }])
  const deleted: AeoTrackerEvent = { type: 'AeoItemsDeleted', data: { client_id: 7, item_ids: [110, 111] } }
  given(first, deleted).when({ type: 'DeleteItems', client_id: 7 }).thenNothingHappens(t)
  given(first, deleted)
    .when(track(2, [finding('a:b')]))
    .then(t, [tracked(2, [[120, 'a:b', 'C']], [], [])])
})

t.test('a rebuild keeps ids, statuses and notes of surviving keys and drops the rest', async (t) => {
  const first = tracked(1, [
    [110, 'a:b', 'C'],
    [111, 'c:d', 'A'],
  ])
  const status: AeoTrackerEvent = {
    type: 'AeoItemStatusChanged',
    data: { client_id: 7, item_id: 110, item_key: 'a:b', from: 'open', to: 'done', note: 'fixed' },
  }
  const events = given(first, status)
    .when({
      type: 'RebuildTracker',
      client_id: 7,
      analysis_version: 2,
      captures: [
        { capture_id: 1, query_id: 11, engine: 'claude', month: '2026-10', findings: [finding('a:b'), finding('e:f', 'X')] },
        { capture_id: 3, query_id: 12, engine: 'openai', month: '2026-11', findings: [] },
      ],
      new_item_ids: [500, 501],
    })
    .then(t, [
      {
        type: 'AeoTrackerRebuilt',
        data: {
          client_id: 7,
          analysis_version: 2,
          items: [
            {
              item_id: 110,
              item_key: 'a:b',
              tier: 'C',
              title: 'Do a:b',
              evidence: 'seen: a:b',
              status: 'done',
              note: 'fixed',
              hits: [{ capture_id: 1, query_id: 11, engine: 'claude', month: '2026-10' }],
            },
            {
              item_id: 500,
              item_key: 'e:f',
              tier: 'X',
              title: 'Do e:f',
              evidence: 'seen: e:f',
              status: 'open',
              note: null,
              hits: [{ capture_id: 1, query_id: 11, engine: 'claude', month: '2026-10' }],
            },
          ],
          captures: [
            { capture_id: 1, query_id: 11, engine: 'claude', month: '2026-10' },
            { capture_id: 3, query_id: 12, engine: 'openai', month: '2026-11' },
          ],
        },
      },
    ])
  // After the rebuild, "found before" is what the rebuilt captures found.
  given(first, status, ...events)
    .when(track(4, []))
    .then(t, [tracked(4, [], [], ['a:b', 'e:f'])])
})
