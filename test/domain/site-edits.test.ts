/**
 * The site edit and page set aggregates as given/when/then specifications, and the built-in writer's
 * documented instructions.
 */
import t from 'tap'
import { pageSet } from '../../domain/pages/page-set.js'
import { pageUrlKey, slugFromUrl } from '../../domain/pages/url.js'
import { builtInRewrite } from '../../domain/site-edits/built-in-writer.js'
import type { SiteEditEvent } from '../../domain/site-edits/events.js'
import { siteEdit } from '../../domain/site-edits/site-edit.js'
import { spec } from './given-when-then.js'

const staged: SiteEditEvent = {
  type: 'SiteEditStaged',
  data: { edit_id: 5, client_id: 2, operation: 'elementor_rewrite', page_url: '/about', page_id: 9, payload: '{}', job_id: null },
}
const applied: SiteEditEvent = {
  type: 'SiteEditApplied',
  data: { edit_id: 5, approved_by: 'Dana', publisher: 'built-in', before_snapshot_id: 1, after_snapshot_id: 2 },
}
const receipt = { before_snapshot_id: 1, after_snapshot_id: 2 }

t.test('site edit: proposed → applied → rolled_back', async (t) => {
  spec(siteEdit)()
    .when({
      type: 'StageSiteEdit',
      edit_id: 5,
      client_id: 2,
      operation: 'elementor_rewrite',
      page_url: '/about',
      page_id: 9,
      payload: '{}',
      job_id: null,
    })
    .then(t, [staged])
  spec(siteEdit)(staged).when({ type: 'RecordApplied', approved_by: 'Dana', publisher: 'built-in', receipt }).then(t, [applied])
  spec(siteEdit)(staged, applied)
    .when({ type: 'RecordRolledBack', publisher: 'built-in', restored_snapshot_id: 3 })
    .then(t, [{ type: 'SiteEditRolledBack', data: { edit_id: 5, publisher: 'built-in', restored_snapshot_id: 3 } }])
})

t.test('site edit: the refusals', async (t) => {
  spec(siteEdit)(staged)
    .when({ type: 'RecordRolledBack', publisher: 'built-in', restored_snapshot_id: 3 })
    .thenThrows(t, 'site_edit_not_applied')
  spec(siteEdit)(staged, applied)
    .when({ type: 'RecordApplied', approved_by: 'x', publisher: 'built-in', receipt })
    .thenThrows(t, 'site_edit_already_applied')
  const rolledBack: SiteEditEvent = { type: 'SiteEditRolledBack', data: { edit_id: 5, publisher: 'built-in', restored_snapshot_id: 3 } }
  spec(siteEdit)(staged, applied, rolledBack)
    .when({ type: 'RecordApplied', approved_by: 'x', publisher: 'built-in', receipt })
    .thenThrows(t, 'site_edit_rolled_back')
  spec(siteEdit)(staged, applied, rolledBack)
    .when({ type: 'RecordRolledBack', publisher: 'built-in', restored_snapshot_id: 4 })
    .thenThrows(t, 'site_edit_rolled_back')
  spec(siteEdit)().when({ type: 'RecordApplied', approved_by: 'x', publisher: 'built-in', receipt }).thenThrows(t, 'not_found')
  spec(siteEdit)(staged)
    .when({ type: 'StageSiteEdit', edit_id: 5, client_id: 2, operation: 'x', page_url: '', page_id: null, payload: '', job_id: null })
    .thenThrows(t, 'already_exists')
})

t.test('site edit: a failed apply is recorded and leaves the edit applicable', async (t) => {
  const failed: SiteEditEvent = {
    type: 'SiteEditApplyFailed',
    data: { edit_id: 5, approved_by: 'Dana', publisher: 'built-in', error: 'site down' },
  }
  spec(siteEdit)(staged)
    .when({ type: 'RecordApplyFailed', approved_by: 'Dana', publisher: 'built-in', error: 'site down' })
    .then(t, [failed])
  spec(siteEdit)(staged, failed).when({ type: 'RecordApplied', approved_by: 'Dana', publisher: 'built-in', receipt }).then(t, [applied])
})

t.test('page set: get-or-create by URL, updates only what changed, deactivation by list', async (t) => {
  const added = {
    type: 'PageAdded' as const,
    data: { page_id: 1, client_id: 2, url: 'https://a.example/about/', slug: 'about', wp_post_id: 7, title: 'About', active: true },
  }
  spec(pageSet)()
    .when({ type: 'AddPage', client_id: 2, page_id: 1, url: 'https://a.example/about/', wp_post_id: 7, title: 'About' })
    .then(t, [added])
  spec(pageSet)(added)
    .when({ type: 'AddPage', client_id: 2, page_id: 3, url: 'https://A.example/about', title: 'About' })
    .thenNothingHappens(t)
  spec(pageSet)(added)
    .when({ type: 'AddPage', client_id: 2, page_id: 3, url: 'https://a.example/about', title: 'About us', active: false })
    .then(t, [{ type: 'PageUpdated', data: { page_id: 1, client_id: 2, title: 'About us', active: false } }])
  spec(pageSet)(added)
    .when({ type: 'AddPage', client_id: 2, page_id: 3, url: 'https://a.example/other', wp_post_id: 7 })
    .thenThrows(t, 'page_wp_post_id_taken')
  spec(pageSet)(added)
    .when({ type: 'DeactivatePagesNotInList', client_id: 2, active_urls: [] })
    .then(t, [{ type: 'PagesDeactivated', data: { client_id: 2, page_ids: [1] } }])
  spec(pageSet)(added)
    .when({ type: 'DeactivatePagesNotInList', client_id: 2, active_urls: ['https://a.example/about'] })
    .thenNothingHappens(t)
})

t.test('page URLs: the comparison key and the default slug', async (t) => {
  t.equal(pageUrlKey('HTTPS://Acme.Example/About/#team'), 'https://acme.example/About')
  t.equal(pageUrlKey('https://acme.example/'), 'https://acme.example')
  t.equal(pageUrlKey('/services/'), '/services')
  t.equal(slugFromUrl('https://acme.example/services/drains/?x=1'), 'drains')
  t.equal(slugFromUrl('https://acme.example/'), '')
})

t.test('built-in writer: replace, remove, add (end and top), several steps, and what it does not understand', async (t) => {
  const page = '<h1>Acme Plumbing</h1><p>Call us at 555-0100 for drain cleaning.</p>'
  const replaced = builtInRewrite(page, 'Replace "555-0100" with "555-0199"')
  t.equal(replaced.content, '<h1>Acme Plumbing</h1><p>Call us at 555-0199 for drain cleaning.</p>')
  t.ok(replaced.changed)
  t.match(replaced.summary, /replaced "555-0100" with "555-0199" \(1×\)/)
  t.match(replaced.beforeExcerpt, /555-0100/)

  t.equal(
    builtInRewrite(page, 'change drain cleaning to drain and sewer cleaning').content,
    '<h1>Acme Plumbing</h1><p>Call us at 555-0100 for drain and sewer cleaning.</p>',
    'case-insensitive, unquoted',
  )
  t.equal(builtInRewrite(page, 'remove " for drain cleaning"').content, '<h1>Acme Plumbing</h1><p>Call us at 555-0100.</p>')
  t.equal(builtInRewrite(page, 'Add "Open 24/7." at the end').content, `${page}\n<p>Open 24/7.</p>`, 'HTML pages get a paragraph')
  t.equal(builtInRewrite('Plain text.', 'add Licensed and insured at the top').content, 'Licensed and insured\nPlain text.')
  const both = builtInRewrite(page, 'replace Acme with Apex; add "Free estimates."')
  t.equal(both.content, `<h1>Apex Plumbing</h1><p>Call us at 555-0100 for drain cleaning.</p>\n<p>Free estimates.</p>`)
  t.equal(both.summary.split('; ').length, 2, 'one note per step')

  const vague = builtInRewrite(page, 'Make it sound friendlier')
  t.equal(vague.content, page)
  t.notOk(vague.changed)
  t.match(vague.summary, /not understood by the built-in writer/)
  const absent = builtInRewrite(page, 'replace "Dallas" with "Austin"')
  t.notOk(absent.changed)
  t.match(absent.summary, /"Dallas" does not occur on the page/)
  t.same(builtInRewrite(page, 'replace Acme with Apex'), builtInRewrite(page, 'replace Acme with Apex'), 'deterministic')
})
