import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import { recordCrawledPages, type CrawledPage } from '../../../commands/monitoring/snapshots.js'
import { recordScanPages, recordScanSitemap, type ScanRef } from '../../../commands/monitoring/scans.js'
import { MAX_PAGES_PER_BATCH, type ScanPageResult } from '../../../domain/monitoring/scans/events.js'
import { DomainError } from '../../../domain/shared/errors.js'

/** A result waiting in the batch: a fetched page (its snapshot still to record) or an outcome already known. */
export type PendingResult =
  | { readonly kind: 'page'; readonly page: CrawledPage; readonly row: Omit<ScanPageResult, 'page_id' | 'outcome'> }
  | { readonly kind: 'row'; readonly row: ScanPageResult }

/** Why recording stopped: the scan was closed (complete_scan_session) or another worker took it. */
export type RecorderStop = 'closed' | 'lost'

const stopOf = (error: unknown): RecorderStop | null => {
  if (!(error instanceof DomainError)) return null
  if (error.code === 'scan_session_closed') return 'closed'
  if (error.code === 'site_scan_not_held' || error.code === 'site_scan_held') return 'lost'
  return null
}

/**
 * Records a scan's results in batches of at most MAX_PAGES_PER_BATCH: the batch's pages first through
 * recordCrawledPages (pages get-or-created, a snapshot only where the content changed), then the batch's
 * SiteScanPagesRecorded with each URL's outcome, which also moves the lease on. In that order, so a crash
 * between the two leaves snapshots whose URLs the resumed scan fetches again and finds unchanged: no snapshot
 * is lost and none is recorded twice. Writes go one at a time, in order; `heartbeat()` appends an empty batch
 * when nothing was written for a while (a slow site still holds its lease).
 */
export class ScanRecorder {
  private pending: PendingResult[] = []
  private serial: Promise<unknown> = Promise.resolve()
  private lastWriteAt = Date.now()
  /** Set once a write was refused because the scan is no longer this worker's. */
  stopped: RecorderStop | null = null

  constructor(
    private readonly write: WriteDeps,
    private readonly context: CommandContext,
    private readonly scan: ScanRef,
    private readonly attempt: number,
    private readonly leaseMs: number,
    private readonly source: 'crawl' | 'render',
    private readonly onStop: (why: RecorderStop) => void,
  ) {}

  /** Adds a result; writes a batch when one is full (the caller awaits it: the crawl waits for the writes). */
  async add(result: PendingResult): Promise<void> {
    this.pending.push(result)
    if (this.pending.length >= MAX_PAGES_PER_BATCH) await this.flush()
  }

  sitemap(input: { url: string; urls: number; truncated: boolean; error: string | null }): Promise<void> {
    return this.inOrder(() => recordScanSitemap(this.write, this.context, this.scan, { attempt: this.attempt, ...input }))
  }

  /** Writes what is pending (nothing pending: nothing written). */
  flush(): Promise<void> {
    return this.inOrder(async () => {
      while (this.pending.length > 0 && this.stopped === null) {
        const batch = this.pending.splice(0, MAX_PAGES_PER_BATCH)
        await this.writeBatch(batch)
      }
    })
  }

  /** The lease moves on even when no page came for a while (one slow fetch). */
  heartbeat(everyMs: number): Promise<void> {
    if (Date.now() - this.lastWriteAt < everyMs) return Promise.resolve()
    return this.inOrder(async () => {
      if (Date.now() - this.lastWriteAt < everyMs) return
      await this.writeBatch(this.pending.splice(0, MAX_PAGES_PER_BATCH))
    })
  }

  private async writeBatch(batch: readonly PendingResult[]): Promise<void> {
    const pages = batch.flatMap((r) => (r.kind === 'page' ? [r.page] : []))
    const recorded =
      pages.length === 0
        ? []
        : (
            await recordCrawledPages(this.write, this.context, {
              orgId: this.scan.orgId,
              clientId: this.scan.clientId,
              scanId: this.scan.scanId,
              source: this.source,
              pages,
            })
          ).results
    let next = 0
    const rows: ScanPageResult[] = batch.map((r) => {
      if (r.kind === 'row') return r.row
      const result = recorded[next++]!
      return { ...r.row, page_id: result.pageId, outcome: result.snapshotId === null ? 'unchanged' : 'recorded' }
    })
    await recordScanPages(this.write, this.context, this.scan, { attempt: this.attempt, leaseMs: this.leaseMs, pages: rows })
    this.lastWriteAt = Date.now()
  }

  /** One write at a time; a refusal that says the scan is no longer ours stops the recorder (and the crawl). */
  private inOrder(work: () => Promise<unknown>): Promise<void> {
    const next = this.serial.then(async () => {
      if (this.stopped !== null) return
      try {
        await work()
      } catch (error) {
        const why = stopOf(error)
        if (why === null) throw error
        this.stopped = why
        this.onStop(why)
      }
    })
    this.serial = next.catch(() => undefined)
    return next
  }
}
