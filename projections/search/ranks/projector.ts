import { sql } from 'kysely'
import { rankRowKey, type RankRow } from '../../../domain/search/ranks/rank-row.js'
import { arrayLiteral } from '../../array-literal.js'
import { executeWrite } from '../../live-write.js'
import { occurredAt, ofType, orgIdOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'

/** Rows per statement: a runner batch of 500 events of 50 rows is five statements. */
const ROWS_PER_STATEMENT = 5000

interface Written {
  readonly row: RankRow
  readonly clientId: number
  readonly orgId: number
  readonly checkId: number | null
  readonly revision: number
  readonly at: Date
}

/** The columns written, in the order of the unnest arrays, with their element types. */
const COLUMNS = [
  ['keyword_id', 'bigint'],
  ['location_key', 'bigint'],
  ['device', 'text'],
  ['rank_date', 'text'],
  ['location_id', 'bigint'],
  ['client_id', 'bigint'],
  ['org_id', 'bigint'],
  ['position', 'smallint'],
  ['url', 'text'],
  ['page_id', 'bigint'],
  ['competitors', 'jsonb'],
  ['local_pack', 'boolean'],
  ['local_pack_includes_client', 'boolean'],
  ['featured_snippet', 'boolean'],
  ['featured_snippet_is_client', 'boolean'],
  ['people_also_ask', 'boolean'],
  ['ai_overview', 'boolean'],
  ['ai_overview_cites_client', 'boolean'],
  ['source', 'text'],
  ['check_id', 'bigint'],
  ['revision', 'bigint'],
  ['recorded_at', 'timestamptz'],
] as const

type Column = (typeof COLUMNS)[number][0]

function valuesOf(w: Written): Record<Column, unknown> {
  const r = w.row
  const f = r.serp_features
  return {
    keyword_id: r.keyword_id,
    location_key: r.location_id ?? 0,
    device: r.device,
    rank_date: r.date,
    location_id: r.location_id,
    client_id: w.clientId,
    org_id: w.orgId,
    position: r.position,
    url: r.url,
    page_id: r.page_id,
    competitors: r.competitors,
    local_pack: f.local_pack,
    local_pack_includes_client: f.local_pack_includes_client,
    featured_snippet: f.featured_snippet,
    featured_snippet_is_client: f.featured_snippet_is_client,
    people_also_ask: f.people_also_ask,
    ai_overview: f.ai_overview,
    ai_overview_cites_client: f.ai_overview_cites_client,
    source: r.source,
    check_id: w.checkId,
    revision: w.revision,
    recorded_at: w.at,
  }
}

/**
 * One statement for up to ROWS_PER_STATEMENT rows: every column one array parameter (arrayLiteral), so the
 * text is the same for every batch and runs as a named statement on the live read models. A row only
 * replaces one written by an earlier event of its day's stream (`revision <`): a redelivered older event
 * changes nothing.
 */
async function upsert(db: ReadDb, rows: readonly Written[]): Promise<void> {
  const values = rows.map(valuesOf)
  const arrays = COLUMNS.map(([name, type]) => sql`${arrayLiteral(values.map((v) => v[name]))}::${sql.raw(type)}[]`)
  const names = COLUMNS.map(([name]) => name)
  const updated = Object.fromEntries(names.map((name) => [name, sql.ref(`excluded.${name}`)]))
  await executeWrite(
    db,
    db
      .insertInto('keyword_ranks')
      .columns(names)
      .expression(sql`select * from unnest(${sql.join(arrays)})`)
      .onConflict((oc) =>
        oc
          .columns(['keyword_id', 'location_key', 'device', 'rank_date'])
          .doUpdateSet(updated)
          .where(sql<boolean>`keyword_ranks.revision < excluded.revision`),
      ),
  )
}

/**
 * keyword_ranks: each KeywordRanksRecorded row upserted by its key. A batch keeps, per key, the row of the
 * latest event of its stream (a key lives in one day's stream, so its revisions order its rows), then writes
 * them in a few multi-row statements: rank rows come in thousands. Reads and writes no other table.
 */
export const ranksProjector: Projector = {
  name: 'keyword_ranks',
  handles: ['KeywordRanksRecorded'],
  standalone: true,
  async apply(db, events) {
    const latest = new Map<string, Written>()
    for (const event of ofType(events, 'KeywordRanksRecorded')) {
      const revision = Number(event.revision)
      const orgId = orgIdOf(event)
      const at = occurredAt(event)
      const d = event.data
      for (const row of d.rows) {
        const key = rankRowKey(row)
        const before = latest.get(key)
        if (before !== undefined && before.revision >= revision) continue
        latest.set(key, { row, clientId: d.client_id, orgId, checkId: d.check_id, revision, at })
      }
    }
    const rows = [...latest.values()]
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await upsert(db, rows.slice(start, start + ROWS_PER_STATEMENT))
    }
  },
}

/** The ranks projectors. */
export const ranksProjectors: readonly Projector[] = [ranksProjector]
