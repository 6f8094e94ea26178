/**
 * Shared by the execute_tier_a and fulfill_selected tests: a client with a small site (pages with content, one
 * gone page) and its month's action items added with addActionItems, as the strategist adds them.
 */
import { systemContext } from '../../../commands/command-handler.js'
import { addActionItems, loadClientMonth, type ActionItemInput } from '../../../commands/planning/action-items.js'
import type { ActionItemTier } from '../../../domain/planning/action-items/events.js'
import { clientPayload } from '../../http/helpers.js'
import type { TestSystem } from '../../support/system.js'

export const MONTH = '2026-11'

export interface Site {
  readonly clientId: number
  readonly base: string
  readonly pages: Record<'home' | 'drains' | 'heaters' | 'about' | 'gone', number>
}

/** A client of the key's organization with five pages: four with content, one (gone) without. */
export async function siteOf(ts: TestSystem, key: string, name: string): Promise<Site> {
  const clientId = await ts.call<number>(
    'add_client',
    clientPayload(name, { services: ['Drain cleaning', 'Water heaters'], locations: ['Austin, TX'] }),
    key,
  )
  const base = `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`
  const add = async (path: string, title: string, content: string | null) => {
    const id = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${base}${path}`, title } }, key)
    if (content !== null) await ts.call('add_snapshot', { snapshot: { page_id: id, title, content } }, key)
    return id
  }
  const pages = {
    home: await add(
      '/',
      'Home',
      '<html><head><title>Home</title></head><body><h1>Plumbing in Austin</h1><p>We fix pipes.</p></body></html>',
    ),
    drains: await add(
      '/services/drains',
      'Drain cleaning',
      '<html><head><title>Drains</title></head><body><h1>Drain cleaning</h1><p>Hydro-jetting and camera inspection.</p></body></html>',
    ),
    heaters: await add(
      '/services/water-heaters',
      'Water heaters',
      '<html><head><title>Water heaters</title></head><body><h1>Water heaters</h1><p>Tank and tankless.</p></body></html>',
    ),
    about: await add('/about', 'About us', '<p>Family owned. See our <a href="/services/drains">drain cleaning</a>.</p>'),
    gone: await add('/services/drains-old', 'Old drains page', null),
  }
  return { clientId, base, pages }
}

export function item(
  actionType: string,
  pageUrl: string,
  description: string,
  tier: ActionItemTier = 'A',
  key: string | null = null,
): ActionItemInput {
  return {
    action_type: actionType,
    page_url: pageUrl,
    description,
    tier,
    hours: 1,
    impact: 50,
    source: { kind: 'person', id: null, by: 'test' },
    source_key: key,
    carried_from_item_id: null,
    job_id: null,
  }
}

/** The four automatable types (tier A) and two that execute_tier_a leaves: one not automatable, one tier B. */
export async function monthOfWork(ts: TestSystem, orgId: number, site: Site, month = MONTH) {
  const b = site.base
  const { bySourceKey } = await addActionItems(
    ts.system.write,
    systemContext('test'),
    { clientId: site.clientId, callerOrgId: orgId, month },
    [
      item('title_meta_rewrite', `${b}/services/drains`, 'Rewrite the title for "drain cleaning austin"', 'A', 'meta'),
      item('redirect', `${b}/services/drains-old`, 'Redirect the gone drains page', 'A', 'redirect'),
      item('internal_links', `${b}/services/water-heaters`, 'Link to the water heaters page', 'A', 'links'),
      item('create_page', '', 'Draft a page for "emergency plumber"', 'A', 'page'),
      item('improve_content', `${b}/about`, 'Strengthen the about page', 'A', 'content'),
      item('title_meta_rewrite', `${b}/about`, 'Rewrite the about title', 'B', 'meta-b'),
    ],
  )
  const id = (k: string) => bySourceKey.get(k)!
  return {
    meta: id('meta'),
    redirect: id('redirect'),
    links: id('links'),
    page: id('page'),
    content: id('content'),
    metaB: id('meta-b'),
  }
}

/** Each item's status, from the month's stream. */
export async function statuses(ts: TestSystem, clientId: number, month = MONTH): Promise<Map<number, string>> {
  const state = await loadClientMonth(ts.system.write, clientId, month)
  return new Map([...state.items.values()].map((i) => [i.id, i.status]))
}

/** The client's site edits, oldest first. */
export function editsOf(ts: TestSystem, clientId: number) {
  return ts.system.read.selectFrom('site_edits').selectAll().where('client_id', '=', clientId).orderBy('id').execute()
}
