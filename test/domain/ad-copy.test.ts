/**
 * Ad copy, pure: the set's lifecycle (proposed → approved | rejected, only from proposed, a named signer,
 * the pair set_id × client_id), the limits (a group outside them is never proposed; a model's lines are
 * dropped or the group rejected, never cut), the plan (defaults, unknown services, the cap) and the
 * built-in writer (always within the limits, whatever the client's names).
 */
import fc from 'fast-check'
import t from 'tap'
import { adCopySet, MAX_AD_GROUPS } from '../../domain/ad-copy/ad-copy-set.js'
import type { AdCopyEvent, AdGroup } from '../../domain/ad-copy/events.js'
import { fitLines, limitProblem } from '../../domain/ad-copy/limits.js'
import { readAdCopyAnswer } from '../../domain/ad-copy/model-answer.js'
import { planAdGroups } from '../../domain/ad-copy/plan.js'
import { writeAdGroup } from '../../domain/ad-copy/writer.js'
import { DomainError } from '../../domain/shared/errors.js'
import { spec } from './given-when-then.js'

const group = (overrides: Partial<AdGroup> = {}): AdGroup => ({
  ad_group_id: 11,
  name: 'Drain cleaning – Austin, TX',
  service: 'Drain cleaning',
  area: 'Austin, TX',
  headlines: ['Drain Cleaning in Austin', 'Austin Drain Cleaning', 'Call Today'],
  descriptions: ['Acme provides drain cleaning in Austin, TX.', 'Call us today.'],
  keywords: ['drain cleaning austin'],
  final_url: 'https://acme.example.com',
  writer: 'built-in',
  ...overrides,
})
const proposed: AdCopyEvent = { type: 'AdCopySetProposed', data: { set_id: 5, client_id: 3, job_id: 9, ad_groups: [group()] } }
const given = spec(adCopySet)

t.test('the set lifecycle', async (t) => {
  given()
    .when({ type: 'ProposeSet', set_id: 5, client_id: 3, job_id: 9, ad_groups: [group()] })
    .then(t, [proposed])
  given(proposed)
    .when({ type: 'ProposeSet', set_id: 5, client_id: 3, job_id: 9, ad_groups: [group()] })
    .thenThrows(t, 'already_exists')
  given(proposed)
    .when({ type: 'ApproveSet', client_id: 3, approved_by: ' Dana ' })
    .then(t, [{ type: 'AdCopySetApproved', data: { set_id: 5, client_id: 3, approved_by: 'Dana' } }])
  given(proposed).when({ type: 'ApproveSet', client_id: 3, approved_by: '  ' }).thenThrows(t, 'validation_failed')
  given(proposed).when({ type: 'ApproveSet', client_id: 4, approved_by: 'Dana' }).thenThrows(t, 'not_found')
  given().when({ type: 'ApproveSet', client_id: 3, approved_by: 'Dana' }).thenThrows(t, 'not_found')
  const approved: AdCopyEvent = { type: 'AdCopySetApproved', data: { set_id: 5, client_id: 3, approved_by: 'Dana' } }
  given(proposed, approved).when({ type: 'ApproveSet', client_id: 3, approved_by: 'Dana' }).thenThrows(t, 'ad_copy_set_not_proposed')
  given(proposed, approved)
    .when({ type: 'RejectSet', client_id: 3, rejected_by: 'Sam', reason: '' })
    .thenThrows(t, 'ad_copy_set_not_proposed')
  const rejected: AdCopyEvent = { type: 'AdCopySetRejected', data: { set_id: 5, client_id: 3, rejected_by: 'Sam', reason: 'too generic' } }
  given(proposed).when({ type: 'RejectSet', client_id: 3, rejected_by: 'Sam', reason: ' too generic ' }).then(t, [rejected])
  given(proposed, rejected).when({ type: 'ApproveSet', client_id: 3, approved_by: 'Dana' }).thenThrows(t, 'ad_copy_set_not_proposed')
})

t.test('a group outside the limits is never proposed', async (t) => {
  const propose = (g: AdGroup) => ({ type: 'ProposeSet' as const, set_id: 5, client_id: 3, job_id: null, ad_groups: [g] })
  given()
    .when(propose(group({ headlines: ['One', 'Two'] })))
    .thenThrows(t, 'ad_copy_limits')
  given()
    .when(propose(group({ headlines: ['One', 'Two', 'x'.repeat(31)] })))
    .thenThrows(t, 'ad_copy_limits')
  given()
    .when(propose(group({ descriptions: ['Only one.'] })))
    .thenThrows(t, 'ad_copy_limits')
  given()
    .when(propose(group({ descriptions: ['Fine.', 'y'.repeat(91)] })))
    .thenThrows(t, 'ad_copy_limits')
  given()
    .when(propose(group({ headlines: Array.from({ length: 16 }, (_, i) => `Headline ${i}`) })))
    .thenThrows(t, 'ad_copy_limits')
  given().when({ type: 'ProposeSet', set_id: 5, client_id: 3, job_id: null, ad_groups: [] }).thenThrows(t, 'ad_copy_limits')
  given()
    .when({
      type: 'ProposeSet',
      set_id: 5,
      client_id: 3,
      job_id: null,
      ad_groups: Array.from({ length: MAX_AD_GROUPS + 1 }, (_, i) => group({ ad_group_id: i + 1 })),
    })
    .thenThrows(t, 'ad_copy_limits')
  t.equal(
    limitProblem({ headlines: ['ab', 'cd', 'é'.repeat(30)], descriptions: ['a', 'b'] }),
    null,
    'characters, not UTF-16 units or bytes',
  )
})

t.test('fitLines drops what breaks a limit and rejects a group it cannot fill', async (t) => {
  t.same(fitLines({ headlines: [' A  b ', 'a b', 'x'.repeat(31), 7, 'C', 'D'], descriptions: ['One.', 'z'.repeat(91), 'Two.'] }), {
    headlines: ['A b', 'C', 'D'],
    descriptions: ['One.', 'Two.'],
  })
  t.equal(fitLines({ headlines: ['A', 'B', 'x'.repeat(31)], descriptions: ['One.', 'Two.'] }), null, 'two headlines left')
  t.equal(fitLines({ headlines: ['A', 'B', 'C'], descriptions: ['One.'] }), null, 'one description')
  t.equal(
    fitLines({ headlines: Array.from({ length: 20 }, (_, i) => `H${i}`), descriptions: ['1', '2', '3', '4', '5'] })!.headlines.length,
    15,
    'at most 15',
  )
  const planned = [
    { service: { name: 'Drain cleaning', description: '' }, area: 'Austin' },
    { service: { name: 'Roofing', description: '' }, area: '' },
  ]
  const answer = JSON.stringify({
    ad_groups: [
      { service: 'roofing', area: '', headlines: ['A', 'B', 'C'], descriptions: ['1', '2'] },
      { service: 'Drain cleaning', area: 'Austin', headlines: ['A'], descriptions: [] },
    ],
  })
  t.same(
    readAdCopyAnswer(`Here you go: ${answer} Enjoy`, planned),
    [null, { headlines: ['A', 'B', 'C'], descriptions: ['1', '2'] }],
    'matched by service and area, JSON found in prose',
  )
  t.same(readAdCopyAnswer('no json', planned), [null, null])
})

t.test('the plan', async (t) => {
  const services = [
    { name: 'Drain cleaning', description: '' },
    { name: 'Roofing', description: '' },
  ]
  t.same(
    planAdGroups({ services, locations: ['Austin, TX', 'austin,  tx'] }).groups.map((g) => [g.service.name, g.area]),
    [
      ['Drain cleaning', 'Austin, TX'],
      ['Roofing', 'Austin, TX'],
    ],
  )
  t.same(
    planAdGroups({ services, locations: [] }).groups.map((g) => g.area),
    ['', ''],
    'no locations: groups about no area',
  )
  t.same(
    planAdGroups({ services, locations: ['Austin'], requestedServices: ['ROOFING'], requestedAreas: ['Dallas'] }).groups.map((g) => [
      g.service.name,
      g.area,
    ]),
    [['Roofing', 'Dallas']],
  )
  const unknown = (() => {
    try {
      planAdGroups({ services, locations: [], requestedServices: ['Plumbing'] })
    } catch (e) {
      return e
    }
    return undefined
  })()
  t.ok(
    unknown instanceof DomainError && unknown.code === 'ad_copy_unknown_service' && /"Plumbing"/.test(unknown.detail ?? ''),
    'names the unknown service',
  )
  t.throws(() => planAdGroups({ services: [], locations: ['Austin'] }), { code: 'ad_copy_no_services' })
  const many = planAdGroups({
    services: Array.from({ length: 20 }, (_, i) => ({ name: `Service ${i}`, description: '' })),
    locations: Array.from({ length: 10 }, (_, i) => `City ${i}`),
  })
  t.equal(many.groups.length, MAX_AD_GROUPS)
  t.equal(many.omitted, 100, 'the rest counted as omitted')
})

t.test('the built-in writer always fits the limits', async (t) => {
  const lines = writeAdGroup({
    clientName: 'Acme Plumbing',
    websiteUrl: 'https://www.acme.example.com',
    service: { name: 'Emergency Plumber', description: '' },
    area: 'Round Rock, TX',
  })
  t.ok(lines.headlines.includes('Need an Emergency Plumber?'), 'provider phrasing with the right article')
  t.ok(lines.headlines.includes('Visit acme.example.com'))
  t.ok(lines.descriptions.some((d) => d.includes('Round Rock, TX')))
  t.equal(limitProblem(lines), null)
  const name = fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s.trim().length > 0)
  fc.assert(
    fc.property(name, name, fc.string({ maxLength: 300 }), fc.string({ maxLength: 120 }), (clientName, service, description, area) => {
      const written = writeAdGroup({ clientName, websiteUrl: 'not a url', service: { name: service, description }, area })
      return limitProblem(written) === null
    }),
    { numRuns: 300 },
  )
  t.pass('300 random clients, services and areas: every group within the limits')
})
