import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The associations part of the realistic log, through HTTP: links made (a first one primary, a repeat, a
 * primary moved), the primary dissociated (promoting the oldest remaining link) and a dissociation repeated,
 * a link to a keyword deleted afterwards, a refused link to an inactive page, another organization's links
 * and a refused foreign attempt. Runs after the keywords and site-edits parts, whose keywords and pages it links.
 */
export async function writeAssociationsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const keywords = await call<{ id: number; keyword: string }[]>('get_keywords_for_client', { client_id: plumbers }, keys.orgA)
  const pages = await call<{ page_id: number; url: string; active: boolean }[]>('get_pages_for_client', { client_id: plumbers }, keys.orgA)
  const keywordId = (text: string) => keywords.find((k) => k.keyword.toLowerCase() === text)!.id
  const pageId = (path: string) => pages.find((p) => new URL(p.url).pathname === path)!.page_id
  const drain = keywordId('drain cleaning austin')
  const nearMe = keywordId('plumber near me')
  const [home, about, old] = [pageId('/'), pageId('/about'), pageId('/old')]

  const link = (keyword_id: number, page_id: number, key: string, primary?: boolean) =>
    call('associate_keyword_page', { keyword_id, page_id, ...(primary === undefined ? {} : { primary }) }, key)
  await link(drain, home, keys.orgA) // first: primary
  await link(drain, about, keys.orgA)
  await link(drain, about, keys.orgA) // repeat: nothing
  await link(drain, about, keys.orgA, true) // primary moved
  await link(nearMe, home, keys.orgA)
  await link(nearMe, about, keys.orgA)
  await call('dissociate_keyword_page', { keyword_id: drain, page_id: about }, keys.orgA) // primary: home promoted
  await call('dissociate_keyword_page', { keyword_id: drain, page_id: about }, keys.orgA) // nothing left to remove
  const leak = await call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: 'leak detection austin' } }, keys.orgA)
  await link(leak, about, keys.orgA)
  await call('delete_keyword', { keyword_id: leak }, keys.orgA) // the link stays, marked
  const inactive = await ts.rpc('associate_keyword_page', { keyword_id: nearMe, page_id: old }, keys.orgA)
  if (inactive.statusCode !== 409) throw new Error(`a link to an inactive page answered ${inactive.statusCode}`)

  const [implants] = await call<{ id: number }[]>('get_keywords_for_client', { client_id: bravo }, keys.orgB)
  const smile = await call<number>(
    'add_page',
    { page: { client_id: bravo, url: 'https://dental.example.org/implants', title: 'Implants' } },
    keys.orgB,
  )
  await link(implants!.id, smile, keys.orgB)
  const foreign = await ts.rpc('dissociate_keyword_page', { keyword_id: implants!.id, page_id: smile }, keys.orgA)
  if (foreign.statusCode !== 404) throw new Error(`a foreign dissociation answered ${foreign.statusCode}`)
}
