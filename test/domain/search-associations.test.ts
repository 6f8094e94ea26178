/**
 * Keyword ↔ page links, pure: the first link is primary, primary moves on request, a repeat changes nothing,
 * dissociating the primary promotes the oldest remaining link, and the refusals (two clients, a deleted
 * keyword, an inactive page, a missing record, the per-keyword cap).
 */
import t from 'tap'
import type { AssociationEvent } from '../../domain/search/associations/events.js'
import {
  keywordPages,
  linksOf,
  MAX_PAGES_PER_KEYWORD,
  primaryOf,
  type KeywordPagesCommand,
} from '../../domain/search/associations/keyword-pages.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const given = spec(keywordPages)
const CLIENT = 7
const linked = (keyword_id: number, page_id: number, primary: boolean): AssociationEvent => ({
  type: 'KeywordPageAssociated',
  data: { client_id: CLIENT, keyword_id, page_id, primary },
})
const primarySet = (keyword_id: number, page_id: number): AssociationEvent => ({
  type: 'KeywordPrimaryPageSet',
  data: { client_id: CLIENT, keyword_id, page_id },
})
const unlinked = (keyword_id: number, page_id: number): AssociationEvent => ({
  type: 'KeywordPageDissociated',
  data: { client_id: CLIENT, keyword_id, page_id },
})
const associate = (
  keyword_id: number,
  page_id: number,
  options: {
    primary?: boolean
    keywordClient?: number
    pageClient?: number
    deleted?: boolean
    active?: boolean
    missing?: 'keyword' | 'page'
  } = {},
): KeywordPagesCommand => ({
  type: 'Associate',
  client_id: CLIENT,
  keyword_id,
  page_id,
  keyword:
    options.missing === 'keyword'
      ? undefined
      : { id: keyword_id, clientId: options.keywordClient ?? CLIENT, deleted: options.deleted ?? false },
  page: options.missing === 'page' ? undefined : { id: page_id, clientId: options.pageClient ?? CLIENT, active: options.active ?? true },
  primary: options.primary,
})
const dissociate = (keyword_id: number, page_id: number): KeywordPagesCommand => ({
  type: 'Dissociate',
  client_id: CLIENT,
  keyword_id,
  page_id,
})

t.test('the first link of a keyword is primary; later ones are not unless asked', async (t) => {
  given()
    .when(associate(1, 10))
    .then(t, [linked(1, 10, true)])
  given()
    .when(associate(1, 10, { primary: false }))
    .then(t, [linked(1, 10, true)])
  given(linked(1, 10, true))
    .when(associate(1, 11))
    .then(t, [linked(1, 11, false)])
  given(linked(1, 10, true))
    .when(associate(1, 11, { primary: true }))
    .then(t, [linked(1, 11, true)])
  // One page serves many keywords, each with its own primary.
  given(linked(1, 10, true))
    .when(associate(2, 10))
    .then(t, [linked(2, 10, true)])
})

t.test('associating again changes nothing; primary: true on an existing link moves the primary', async (t) => {
  given(linked(1, 10, true))
    .when(associate(1, 10))
    .thenNothingHappens(t)
  given(linked(1, 10, true))
    .when(associate(1, 10, { primary: true }))
    .thenNothingHappens(t)
  given(linked(1, 10, true), linked(1, 11, false))
    .when(associate(1, 11, { primary: false }))
    .thenNothingHappens(t)
  given(linked(1, 10, true), linked(1, 11, false))
    .when(associate(1, 11, { primary: true }))
    .then(t, [primarySet(1, 11)])
  // A repeat succeeds even after the keyword was deleted or the page deactivated: a retry must not fail.
  given(linked(1, 10, true))
    .when(associate(1, 10, { deleted: true, active: false }))
    .thenNothingHappens(t)
})

t.test('dissociating: the primary promotes the oldest remaining link, or leaves none', async (t) => {
  given(linked(1, 10, true), linked(1, 11, false), linked(1, 12, false))
    .when(dissociate(1, 10))
    .then(t, [unlinked(1, 10), primarySet(1, 11)])
  given(linked(1, 10, true), linked(1, 11, false), linked(1, 12, true))
    .when(dissociate(1, 12))
    .then(t, [unlinked(1, 12), primarySet(1, 10)])
  given(linked(1, 10, true), linked(1, 11, false))
    .when(dissociate(1, 11))
    .then(t, [unlinked(1, 11)])
  given(linked(1, 10, true))
    .when(dissociate(1, 10))
    .then(t, [unlinked(1, 10)])
  given(linked(1, 10, true), unlinked(1, 10))
    .when(dissociate(1, 10))
    .thenNothingHappens(t)
  given().when(dissociate(1, 10)).thenNothingHappens(t)
  // Linked again after a dissociation: a new link, primary again as the keyword's only one.
  given(linked(1, 10, true), linked(1, 11, false), unlinked(1, 10), primarySet(1, 11))
    .when(associate(1, 10))
    .then(t, [linked(1, 10, false)])
})

t.test('the state keeps exactly one primary per linked keyword, links oldest first', async (t) => {
  const state = fold(keywordPages, [
    linked(1, 10, true),
    linked(1, 11, false),
    linked(1, 12, true),
    linked(2, 10, true),
    unlinked(1, 12),
    primarySet(1, 10),
    unlinked(2, 10),
  ])
  t.same(linksOf(state, 1), [
    { pageId: 10, primary: true },
    { pageId: 11, primary: false },
  ])
  t.equal(primaryOf(state, 1), 10)
  t.same(linksOf(state, 2), [], 'a keyword with no link left')
  t.equal(primaryOf(state, 2), null)
  t.equal(state.clientId, CLIENT)
})

t.test('refusals', async (t) => {
  given()
    .when(associate(1, 10, { pageClient: 8 }))
    .thenThrows(t, 'association_client_mismatch', { detail: "keyword 1 is client 7's, page 10 is client 8's" })
  given()
    .when(associate(1, 10, { keywordClient: 8, pageClient: 8 }))
    .thenThrows(t, 'association_client_mismatch')
  given()
    .when(associate(1, 10, { deleted: true }))
    .thenThrows(t, 'keyword_deleted', { detail: 'keyword 1' })
  given()
    .when(associate(1, 10, { active: false }))
    .thenThrows(t, 'page_inactive', { detail: 'page 10' })
  given(linked(1, 10, true), linked(1, 11, false))
    .when(associate(1, 11, { primary: true, active: false }))
    .thenThrows(t, 'page_inactive', { detail: 'page 11' })
  given()
    .when(associate(1, 10, { missing: 'keyword' }))
    .thenThrows(t, 'not_found', { detail: 'keyword 1 not found' })
  given()
    .when(associate(1, 10, { missing: 'page' }))
    .thenThrows(t, 'not_found', { detail: 'page 10 not found' })
  const full = Array.from({ length: MAX_PAGES_PER_KEYWORD }, (_, i) => linked(1, 100 + i, i === 0))
  given(...full)
    .when(associate(1, 999))
    .thenThrows(t, 'association_limit')
  given(...full)
    .when(associate(2, 999))
    .then(t, [linked(2, 999, true)])
})
