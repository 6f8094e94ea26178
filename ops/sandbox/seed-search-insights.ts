import { loadClient } from '../../commands/clients.js'
import { loadState, type CommandContext, type WriteDeps } from '../../commands/command-handler.js'
import { decode } from '../../commands/event-store/decode.js'
import { loadKeywordSet } from '../../commands/keywords.js'
import { changeSeoInsightStatus, loadInsightSet, refreshSeoInsights } from '../../commands/search/insights/insights.js'
import {
  metaSubject,
  proposeMetaOptimization,
  rejectMetaOptimization,
  stageMetaOptimization,
} from '../../commands/search/insights/meta-optimizations.js'
import type { InsightReads, MetaReads } from '../../commands/search/insights/reads.js'
import { pageSet } from '../../domain/pages/page-set.js'
import { keywordPages, primaryOf } from '../../domain/search/associations/keyword-pages.js'
import type { InsightType } from '../../domain/search/insights/kinds.js'
import type { GscPeriod, GscQueryPage, RankObservation } from '../../domain/search/insights/inputs.js'
import { BUILT_IN_META_WRITER, MANUAL_META_WRITER } from '../../domain/search/insights/meta-limits.js'
import { builtInMetaRewrite } from '../../domain/search/insights/meta-writer.js'
import { RANK_LOOKBACK_DAYS, RANK_ROWS_PER_SERIES, seriesKey } from '../../domain/search/insights/rules/series.js'
import { rankDayStream } from '../../domain/search/ranks/rank-day.js'
import type { GscRow } from '../../domain/search/gsc/events.js'
import { gscCaptureStream } from '../../domain/search/gsc/gsc-capture.js'
import { gscPropertyStream } from '../../domain/search/gsc/gsc-property.js'
import { captureOfDays, gscPeriodOf, queryPageTotals, type CompletedCapture } from '../../domain/search/insights/gsc-period.js'
import { rankRowKey, type RankRow } from '../../domain/search/ranks/rank-row.js'
import { DomainError } from '../../domain/shared/errors.js'

const dayBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)

/** The client's rank rows of the last RANK_LOOKBACK_DAYS days, from its day streams (the latest recorded per key). */
async function rankRowsFromLog(write: WriteDeps, clientId: number, today: string): Promise<RankObservation[]> {
  const rows: RankObservation[] = []
  for (let back = RANK_LOOKBACK_DAYS; back >= 0; back--) {
    const date = dayBefore(today, back)
    const byKey = new Map<string, RankRow>()
    for await (const recorded of write.store.readStream(rankDayStream({ clientId, date }))) {
      const event = decode(recorded)
      if (event.type === 'KeywordRanksRecorded') for (const row of event.data.rows) byKey.set(rankRowKey(row), row)
    }
    for (const r of byKey.values()) {
      rows.push({
        keyword_id: r.keyword_id,
        location_id: r.location_id,
        device: r.device,
        date: r.date,
        position: r.position,
        url: r.url,
        page_id: r.page_id,
        serp_features: r.serp_features,
      })
    }
  }
  // The newest RANK_ROWS_PER_SERIES of each series, as the read models' read keeps them.
  const kept = new Map<string, number>()
  return rows
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .filter((row) => {
      const count = kept.get(seriesKey(row)) ?? 0
      kept.set(seriesKey(row), count + 1)
      return count < RANK_ROWS_PER_SERIES
    })
}

/**
 * The client's Search Console totals from its captures' streams: the completed captures (named by the
 * property's stream), each day of the period from the latest one covering it, as the read models' read does.
 */
async function gscFromLog(write: WriteDeps, clientId: number): Promise<{ period: GscPeriod | null; rows: GscQueryPage[] }> {
  const captureIds: number[] = []
  for await (const recorded of write.store.readStream(gscPropertyStream(clientId))) {
    const event = decode(recorded)
    if (event.type === 'GscCaptureQueued') captureIds.push(event.data.capture_id)
  }
  const completed: (CompletedCapture & { rows: Map<string, GscRow[]> })[] = []
  for (const id of captureIds) {
    let range: { start: string; end: string } | null = null
    let done = false
    const rows = new Map<string, GscRow[]>()
    for await (const recorded of write.store.readStream(gscCaptureStream(id))) {
      const event = decode(recorded)
      if (event.type === 'GscCaptureStarted') range = { start: event.data.start_date, end: event.data.end_date }
      if (event.type === 'GscRowsRecorded') rows.set(event.data.date, [...(rows.get(event.data.date) ?? []), ...event.data.rows])
      if (event.type === 'GscCaptureCompleted') done = true
    }
    if (done && range) completed.push({ id, start_date: range.start, end_date: range.end, rows })
  }
  const period = gscPeriodOf(completed)
  if (!period) return { period: null, rows: [] }
  const days = captureOfDays(period, completed)
  const rows = days.flatMap(({ day, captureId }) =>
    (completed.find((c) => c.id === captureId)!.rows.get(day) ?? []).map((r) => ({ ...r, date: day })),
  )
  return { period, rows: queryPageTotals(rows) }
}

/** The page's newest snapshot from its content stream. */
async function newestSnapshot(write: WriteDeps, pageId: number): Promise<{ id: number; title: string; content: string } | null> {
  let newest: { id: number; title: string; content: string } | null = null
  for await (const recorded of write.store.readStream(`page-${pageId}`)) {
    const event = decode(recorded)
    if (event.type === 'PageSnapshotRecorded' && (newest === null || event.data.snapshot_id > newest.id)) {
      newest = { id: event.data.snapshot_id, title: event.data.title, content: event.data.content }
    }
  }
  return newest
}

/**
 * What the insights read, from the log rather than the read models (seeding writes ahead of them): the
 * client's keywords, pages, links, locations, rank rows and Search Console totals. AI Visibility's totals
 * are the read models' own arithmetic over its captures, so the fiction's insights leave that rule out, and
 * page_problem too (it reads the crawled states page_snapshots keeps).
 */
function readsFromLog(write: WriteDeps, clientId: number): InsightReads & MetaReads {
  return {
    async inputsFor() {
      const [keywords, pages, links, client, gsc] = await Promise.all([
        loadKeywordSet(write, clientId),
        loadState(write.store, pageSet, clientId),
        loadState(write.store, keywordPages, clientId),
        loadClient(write.store, clientId),
        gscFromLog(write, clientId),
      ])
      return {
        keywords: keywords.keywords
          .filter((k) => !k.deleted)
          .map(({ id, keyword, service, location }) => ({ id, keyword, service, location })),
        pages: pages.pages.filter((p) => p.active).map(({ id, url, title }) => ({ id, url, title })),
        associations: [...links.links.entries()].flatMap(([keyword_id, list]) => list.map((l) => ({ keyword_id, page_id: l.pageId }))),
        ranks: await rankRowsFromLog(write, clientId, write.clock().toISOString().slice(0, 10)),
        locations: new Map(client.locations.map((l) => [l.id, l.name])),
        gsc: gsc.rows,
        gscPeriod: gsc.period,
        aeo: [],
        // Crawl states are the read models' (page_snapshots.state); the fiction's insights leave page_problem out.
        pageStates: [],
      }
    },
    async page(_clientId, pageId) {
      const page = (await loadState(write.store, pageSet, clientId)).pages.find((p) => p.id === pageId)
      return page
        ? { id: page.id, url: page.url, title: page.title, active: page.active, snapshot: await newestSnapshot(write, page.id) }
        : undefined
    },
    async insight() {
      return undefined
    },
  }
}

/** A proposal the running meta proposer may have made first for the same page answers instead. */
function alreadyOpen(error: unknown): null {
  if (error instanceof DomainError && error.code === 'meta_optimization_open') return null
  throw error
}

/**
 * The sandbox's insights and meta optimizations for its client, after the other search fiction: its insights
 * derived by the same rules from its ranks, pages and links (the water-heater keyword under an AI Overview
 * that does not cite the client, the emergency keywords without a page, …); the agency's decisions on two of
 * them (one keyword without a page dismissed, the AI Overview insight being worked on: applied); a title and
 * description rewrite of the water-heater page by the built-in writer, staged as a site edit awaiting
 * approval; and an earlier hand-written one for the drain-cleaning page, rejected. Deterministic for the
 * same fiction and day.
 */
export async function seedSandboxInsights(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const reads = readsFromLog(write, clientId)
  await refreshSeoInsights(write, ctx, { clientId, callerOrgId: orgId, reads })
  const live = [...(await loadInsightSet(write, clientId)).live.values()].sort((a, b) => a.id - b.id)
  const liveOf = (type: InsightType) => live.filter((i) => i.type === type && i.status === 'open')

  const [withoutPage] = liveOf('keyword_without_page')
  if (withoutPage) {
    const note = 'No emergency page this quarter: the phone line covers it'
    await changeSeoInsightStatus(write, ctx, { clientId, callerOrgId: orgId, insightId: withoutPage.id, status: 'dismissed', note })
  }
  const [overview] = liveOf('ai_overview_without_client')
  if (overview) {
    const note = 'Added an FAQ answering the question the overview answers'
    await changeSeoInsightStatus(write, ctx, { clientId, callerOrgId: orgId, insightId: overview.id, status: 'applied', note })
  }

  const keywords = (await loadKeywordSet(write, clientId)).keywords.filter((k) => !k.deleted)
  const links = await loadState(write.store, keywordPages, clientId)
  const pageFor = (match: RegExp) => {
    const keyword = keywords.find((k) => match.test(k.keyword) && primaryOf(links, k.id) !== null)
    return keyword ? { keyword, pageId: primaryOf(links, keyword.id)! } : null
  }
  const heater = pageFor(/water heater/)
  if (heater) {
    const subject = await metaSubject(write, reads, { clientId, callerOrgId: orgId, pageId: heater.pageId, query: heater.keyword.keyword })
    const proposed = await proposeMetaOptimization(write, ctx, {
      subject,
      insightId: null,
      rewrite: builtInMetaRewrite(subject.brief),
      writer: BUILT_IN_META_WRITER,
    }).catch(alreadyOpen)
    if (proposed) await stageMetaOptimization(write, ctx, { clientId, callerOrgId: orgId, optimizationId: proposed.optimizationId, reads })
  }
  const drain = pageFor(/drain/)
  if (drain) {
    const subject = await metaSubject(write, reads, { clientId, callerOrgId: orgId, pageId: drain.pageId, query: drain.keyword.keyword })
    const proposed = await proposeMetaOptimization(write, ctx, {
      subject,
      insightId: null,
      rewrite: { title: 'Cheap Drain Cleaning | Rapid Rooter', description: 'The cheapest drain cleaning in town. Call now!' },
      writer: MANUAL_META_WRITER,
    }).catch(alreadyOpen)
    if (proposed) {
      const reason = 'We never lead with price; keep the same-day promise'
      await rejectMetaOptimization(write, ctx, {
        clientId,
        callerOrgId: orgId,
        optimizationId: proposed.optimizationId,
        rejectedBy: 'owner@sandbox.example',
        reason,
      })
    }
  }
}
