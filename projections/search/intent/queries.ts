import type { IntentSignalValue, PageIntentValue } from '../../../domain/search/intent/events.js'
import type { ReadDb } from '../../tables.js'
import type { IntentSource } from './tables.js'

/** A page with its intent, as get_active_pages_with_intent lists it and set_page_intent answers. */
export interface PageIntentView {
  page_id: number
  client_id: number
  url: string
  title: string
  active: boolean
  intent: PageIntentValue | null
  source: IntentSource | null
  classified_intent: PageIntentValue | null
  classifier: 'rules' | 'model' | null
  confidence: number | null
  up_to_date: boolean
  content_sha256: string | null
  snapshot_id: number | null
  override: { intent: PageIntentValue; note: string; set_at: string } | null
}

/** One cached classification (get_page_intent_cache). */
export interface IntentCacheEntryView {
  content_sha256: string
  current: boolean
  snapshot_id: number | null
  intent: PageIntentValue
  confidence: number
  classifier: 'rules' | 'model'
  model: string | null
  fallback_reason: string | null
  signals: IntentSignalValue[]
  request_id: string | null
  classified_at: string
}

function pagesWithIntent(read: ReadDb) {
  return read
    .selectFrom('pages as p')
    .leftJoin('page_intents as i', 'i.page_id', 'p.id')
    .select([
      'p.id as page_id',
      'p.client_id',
      'p.url',
      'p.title',
      'p.active',
      'i.intent',
      'i.source',
      'i.classified_intent',
      'i.classifier',
      'i.confidence',
      'i.up_to_date',
      'i.content_sha256',
      'i.snapshot_id',
      'i.override_intent',
      'i.override_note',
      'i.override_at',
    ])
}

type Row = Awaited<ReturnType<ReturnType<typeof pagesWithIntent>['execute']>>[number]

function view(row: Row): PageIntentView {
  return {
    page_id: row.page_id,
    client_id: row.client_id,
    url: row.url,
    title: row.title,
    active: row.active,
    intent: row.intent ?? null,
    source: row.source ?? null,
    classified_intent: row.classified_intent ?? null,
    classifier: row.classifier ?? null,
    confidence: row.confidence ?? null,
    up_to_date: row.up_to_date ?? false,
    content_sha256: row.content_sha256 ?? null,
    snapshot_id: row.snapshot_id ?? null,
    override:
      row.override_intent && row.override_at
        ? { intent: row.override_intent, note: row.override_note ?? '', set_at: row.override_at.toISOString() }
        : null,
  }
}

/** The client's active pages with their intent, in page id order. */
export async function activePagesWithIntent(
  read: ReadDb,
  clientId: number,
  page: { limit: number; offset: number },
): Promise<PageIntentView[]> {
  const rows = await pagesWithIntent(read)
    .where('p.client_id', '=', clientId)
    .where('p.active', '=', true)
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(view)
}

/** One page with its intent (the caller has checked it is visible). */
export async function pageWithIntent(read: ReadDb, pageId: number): Promise<PageIntentView | undefined> {
  const row = await pagesWithIntent(read).where('p.id', '=', pageId).executeTakeFirst()
  return row && view(row)
}

/** The page's cached classifications, newest first, at most `limit`. */
export async function intentCacheEntries(
  read: ReadDb,
  pageId: number,
  currentHash: string | null,
  limit: number,
): Promise<IntentCacheEntryView[]> {
  const rows = await read
    .selectFrom('page_intent_cache')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('revision', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    content_sha256: r.content_sha256,
    current: r.content_sha256 === currentHash,
    snapshot_id: r.snapshot_id,
    intent: r.intent,
    confidence: r.confidence,
    classifier: r.classifier,
    model: r.model,
    fallback_reason: r.fallback_reason,
    signals: r.signals,
    request_id: r.request_id,
    classified_at: r.classified_at.toISOString(),
  }))
}

/**
 * What the classifier needs of a client: its name, services and current locations (a removed location no
 * longer makes a page local).
 */
export async function intentClientFacts(
  read: ReadDb,
  clientId: number,
): Promise<{ name: string; services: string[]; locations: { name: string; city: string; state: string }[] } | undefined> {
  const client = await read.selectFrom('clients').select(['name']).where('id', '=', clientId).executeTakeFirst()
  if (!client) return undefined
  const services = await read.selectFrom('client_services').select('name').where('client_id', '=', clientId).orderBy('id').execute()
  const locations = await read
    .selectFrom('client_locations')
    .select(['name', 'city', 'state'])
    .where('client_id', '=', clientId)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute()
  return { name: client.name, services: services.map((s) => s.name), locations }
}

/** The pages the classifier reads: the page, and its newest snapshot's title and content. */
export async function pageForClassification(
  read: ReadDb,
  pageId: number,
): Promise<
  | {
      page_id: number
      client_id: number
      org_id: number
      url: string
      title: string
      active: boolean
      snapshot: { id: number; title: string; content: string } | null
    }
  | undefined
> {
  const page = await read
    .selectFrom('pages')
    .select(['id', 'client_id', 'org_id', 'url', 'title', 'active'])
    .where('id', '=', pageId)
    .executeTakeFirst()
  if (!page) return undefined
  const snapshot = await read
    .selectFrom('page_snapshots')
    .select(['id', 'title', 'content'])
    .where('page_id', '=', pageId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return {
    page_id: page.id,
    client_id: page.client_id,
    org_id: page.org_id,
    url: page.url,
    title: page.title,
    active: page.active,
    snapshot: snapshot ?? null,
  }
}

/** Which of `pageIds` are the client's pages, and whether each is active (ids of other clients' pages are left out). */
export async function clientPagesAmong(read: ReadDb, clientId: number, pageIds: readonly number[]): Promise<Map<number, boolean>> {
  if (pageIds.length === 0) return new Map()
  const rows = await read
    .selectFrom('pages')
    .select(['id', 'active'])
    .where('client_id', '=', clientId)
    .where('id', 'in', pageIds)
    .execute()
  return new Map(rows.map((r) => [r.id, r.active]))
}

/** The ids of the client's active pages, in id order. */
export async function activePageIds(read: ReadDb, clientId: number): Promise<number[]> {
  const rows = await read
    .selectFrom('pages')
    .select('id')
    .where('client_id', '=', clientId)
    .where('active', '=', true)
    .orderBy('id')
    .execute()
  return rows.map((r) => r.id)
}
