import t from 'tap'
import type { PageRendered } from '../../domain/monitoring/renders/events.js'
import { renderPlan, scanRenders } from '../../domain/monitoring/renders/scan-renders.js'
import { fold } from '../../domain/shared/aggregate.js'
import { pngSize } from '../../processors/monitoring/renders/browser.js'
import { assertValidEvents } from './given-when-then.js'

const render = (url: string, extra: Partial<PageRendered> = {}): PageRendered => ({
  render_id: '5-0123456789abcdef',
  scan_id: 5,
  client_id: 3,
  page_url: url,
  page_id: 12,
  final_url: url,
  status: 200,
  html: { path: 'renders/1/3/5/0123456789abcdef.html', bytes: 10, sha256: 'a'.repeat(64) },
  screenshot: { path: 'renders/1/3/5/0123456789abcdef.png', bytes: 20, sha256: 'b'.repeat(64), width: 1280, height: 900 },
  html_truncated: false,
  content_hash: 'c'.repeat(64),
  snapshot_id: 40,
  requests_blocked: 0,
  blocked_urls: [],
  rendered_at: '2026-03-01T10:00:00.000Z',
  error: null,
  ...extra,
})

t.test('renderPlan: the home page first, each URL once as pages compare, at most max', async (t) => {
  t.same(
    renderPlan(
      'https://acme.example/',
      ['https://ACME.example/about/', 'https://acme.example/about', 'https://acme.example/#top', ' '],
      10,
    ),
    ['https://acme.example/', 'https://ACME.example/about/'],
  )
  t.same(renderPlan('https://acme.example/', ['https://acme.example/a', 'https://acme.example/b'], 2), [
    'https://acme.example/',
    'https://acme.example/a',
  ])
  t.same(renderPlan('https://acme.example/', ['https://acme.example/a'], 0), [])
})

t.test('a scan records each URL once: the same URL again (a resumed scan) decides nothing', async (t) => {
  const first = scanRenders.decide({ type: 'RecordRender', render: render('https://acme.example/about') }, scanRenders.initialState())
  t.equal(first.length, 1)
  assertValidEvents(t, first)
  const state = fold(scanRenders, first)
  t.same(scanRenders.decide({ type: 'RecordRender', render: render('https://ACME.example/about/') }, state), [], 'compared as pages are')
  const other = scanRenders.decide({ type: 'RecordRender', render: render('https://acme.example/contact') }, state)
  t.equal(other.length, 1, 'another URL is recorded')
  t.match(state.rendered.get('https://acme.example/about'), { pageId: 12, snapshotId: 40, status: 200, error: null })
})

t.test('a failed render is a valid event without files or page', async (t) => {
  const failed = render('http://10.0.0.1/', {
    page_id: null,
    final_url: null,
    status: null,
    html: null,
    screenshot: null,
    content_hash: null,
    snapshot_id: null,
    error: { code: 'address_refused', message: 'refused by the URL policy: 10.0.0.1 is in a private range' },
  })
  assertValidEvents(t, scanRenders.decide({ type: 'RecordRender', render: failed }, scanRenders.initialState()))
})

t.test('pngSize reads the IHDR; anything else is not a PNG', async (t) => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000005000000038408060000', 'hex')
  t.same(pngSize(png), { width: 1280, height: 900 })
  t.equal(pngSize(Buffer.from('GIF89a0000000000000000000000')), null)
  t.equal(pngSize(new Uint8Array(4)), null)
})
