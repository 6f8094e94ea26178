import type pg from 'pg'
import type { ID_KINDS } from '../migrations/0002-id-sequences.js'
import type { AEO_ID_KINDS } from '../migrations/0004-aeo.js'
import type { JOB_ID_KINDS } from '../migrations/0010-jobs.js'
import type { AD_COPY_KEYWORD_ID_KINDS } from '../migrations/0013-ad-copy-keywords.js'
import type { SITE_EDIT_ID_KINDS } from '../migrations/0012-site-edits.js'
import type { WEBHOOK_ID_KINDS } from '../migrations/0014-webhooks.js'
import type { PEOPLE_ID_KINDS } from '../migrations/0016-people.js'
import type { SSO_ID_KINDS } from '../migrations/0020-sso.js'
import type { OAUTH_ID_KINDS } from '../migrations/0017-oauth.js'
import type { SURVEY_ID_KINDS } from '../migrations/0027-survey-ids.js'
import type { RANK_CHECK_ID_KINDS } from '../migrations/0029-rank-check-ids.js'
import type { SEO_INSIGHT_ID_KINDS } from '../migrations/0031-seo-insight-ids.js'
import type { GSC_ID_KINDS } from '../migrations/0033-gsc-capture-ids.js'
import type { SITE_SCAN_ID_KINDS } from '../migrations/0035-site-scan-ids.js'
import type { SITE_CHANGE_ID_KINDS } from '../migrations/0036-site-change-ids.js'
import type { PLANNING_ID_KINDS } from '../migrations/0037-planning-ids.js'
import type { PUBLISHING_ID_KINDS } from '../migrations/0038-publishing-ids.js'
import type { CONTENT_ID_KINDS } from '../migrations/0039-content-ids.js'

export type IdKind =
  | (typeof ID_KINDS)[number]
  | (typeof AEO_ID_KINDS)[number]
  | (typeof JOB_ID_KINDS)[number]
  | (typeof AD_COPY_KEYWORD_ID_KINDS)[number]
  | (typeof SITE_EDIT_ID_KINDS)[number]
  | (typeof WEBHOOK_ID_KINDS)[number]
  | (typeof PEOPLE_ID_KINDS)[number]
  | (typeof SSO_ID_KINDS)[number]
  | (typeof OAUTH_ID_KINDS)[number]
  | (typeof SURVEY_ID_KINDS)[number]
  | (typeof RANK_CHECK_ID_KINDS)[number]
  | (typeof SEO_INSIGHT_ID_KINDS)[number]
  | (typeof GSC_ID_KINDS)[number]
  | (typeof SITE_SCAN_ID_KINDS)[number]
  | (typeof SITE_CHANGE_ID_KINDS)[number]
  | (typeof PLANNING_ID_KINDS)[number]
  | (typeof PUBLISHING_ID_KINDS)[number]
  | (typeof CONTENT_ID_KINDS)[number]

/** Allocates the integer ids the API shows, from one PostgreSQL sequence per kind. */
export interface IdAllocator {
  next(kind: IdKind): Promise<number>
  nextMany(kind: IdKind, count: number): Promise<number[]>
}

export class SequenceIds implements IdAllocator {
  readonly #pool: pg.Pool

  constructor(pool: pg.Pool) {
    this.#pool = pool
  }

  async next(kind: IdKind): Promise<number> {
    const [id] = await this.nextMany(kind, 1)
    return id!
  }

  async nextMany(kind: IdKind, count: number): Promise<number[]> {
    if (count <= 0) return []
    const { rows } = await this.#pool.query<{ id: string }>(`select nextval($1::regclass)::text as id from generate_series(1, $2)`, [
      `${kind}_id_seq`,
      count,
    ])
    return rows.map((r) => Number(r.id))
  }
}
