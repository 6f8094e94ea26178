/**
 * The ad_copy and keyword_generation handlers, run as the job engine runs them (a real JobContext on a
 * test system), their results checked through the RPCs: sets visible and approvable within the Google Ads
 * limits, sign-off rules, unknown services, re-runs, and a language model through the port (a fake that
 * implements it: its over-long lines are dropped, a group it cannot fill is written by the built-in
 * writer, a failure falls back entirely). Keywords: counts, de-duplication on re-run, question forms, a
 * deleted keyword left deleted, max_keywords, and a model's keywords validated.
 */
import t from 'tap'
import { DomainError } from '../../../domain/shared/errors.js'
import { adCopyHandler } from '../../../processors/jobs/kinds/ad-copy.js'
import { keywordGenerationHandler } from '../../../processors/jobs/kinds/keyword-generation.js'
import { LanguageModelError, type LanguageModel, type LanguageModelRequest } from '../../../processors/language-model/port.js'
import { startTestSystem } from '../../support/system.js'
import { clientPayload, expectError, orgWithKey, withoutIds } from '../../http/helpers.js'
import { jobContext } from './context.js'

interface AdGroup {
  ad_group_id: number
  name: string
  service: string
  area: string
  headlines: string[]
  descriptions: string[]
  keywords: string[]
  final_url: string
  writer: string
}
interface AdCopySet {
  set_id: number
  client_id: number
  status: string
  job_id: number | null
  approved_by: string | null
  ad_group_count: number
  ad_groups: AdGroup[]
}

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const client = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', {
    services: [{ name: 'Drain cleaning', description: 'hydro-jetting and camera inspection' }, 'Emergency Plumber'],
    locations: ['Austin, TX', 'Round Rock, TX'],
  }),
  org.key,
)
const bare = await ts.call<number>('add_client', clientPayload('No Services Yet'), org.key)
let nextJob = 100
const job = () => ++nextJob

/** A language model that answers with `answer(request)` and records what it was asked. */
function fakeModel(answer: (request: LanguageModelRequest) => string): LanguageModel & { requests: LanguageModelRequest[] } {
  const requests: LanguageModelRequest[] = []
  return {
    name: 'fake:copywriter-1',
    requests,
    async complete(request) {
      requests.push(request)
      return answer(request)
    },
  }
}

function checkLimits(t: { ok(value: unknown, message: string): unknown; equal?: unknown }, group: AdGroup) {
  t.ok(group.headlines.length >= 3 && group.headlines.length <= 15, `${group.name}: ${group.headlines.length} headlines`)
  t.ok(group.descriptions.length >= 2 && group.descriptions.length <= 4, `${group.name}: ${group.descriptions.length} descriptions`)
  for (const h of group.headlines) t.ok([...h].length <= 30, `headline ≤ 30: "${h}"`)
  for (const d of group.descriptions) t.ok([...d].length <= 90, `description ≤ 90: "${d}"`)
}

t.test('ad_copy: a proposed set per service × location, within the limits, approvable once', async (t) => {
  const jobId = job()
  const ctx = jobContext(ts, { kind: 'ad_copy', jobId, orgId: org.orgId, clientId: client, payload: {} })
  const result = await adCopyHandler(ctx)
  t.match(result, { client_id: client, status: 'proposed', ad_group_count: 4, omitted_pairs: 0, writer: 'built-in' })
  t.same(ctx.progressSeen.at(-1), [4, 4], 'progress reaches the total')
  const set = await ts.call<AdCopySet>('get_ad_copy_set', { set_id: result.set_id, client_id: client }, org.key)
  t.match(set, { set_id: result.set_id, client_id: client, status: 'proposed', job_id: jobId, approved_by: null, ad_group_count: 4 })
  t.same(
    set.ad_groups.map((g) => g.name),
    [
      'Drain cleaning – Austin, TX',
      'Drain cleaning – Round Rock, TX',
      'Emergency Plumber – Austin, TX',
      'Emergency Plumber – Round Rock, TX',
    ],
  )
  for (const group of set.ad_groups) {
    checkLimits(t, group)
    t.equal(group.final_url, 'https://acme-plumbing.example.com')
    t.ok(group.keywords.length > 0, 'suggested keywords')
    t.equal(group.writer, 'built-in')
  }
  t.ok(set.ad_groups[0]!.headlines.includes('Drain Cleaning in Austin'), 'copy from the service and area')
  // The result carries the proposed text itself, beside the counts it always had.
  const resultGroups = (
    result as {
      ad_groups: { ad_group_id: number; headlines: number; descriptions: number; copy: { headlines: string[]; descriptions: string[] } }[]
    }
  ).ad_groups
  t.same(
    resultGroups.map((g) => ({ id: g.ad_group_id, headlines: g.headlines, descriptions: g.descriptions, copy: g.copy })),
    set.ad_groups.map((g) => ({
      id: g.ad_group_id,
      headlines: g.headlines.length,
      descriptions: g.descriptions.length,
      copy: { headlines: g.headlines, descriptions: g.descriptions },
    })),
    "the result: each group's headlines and descriptions, and their counts",
  )
  t.same(
    await adCopyHandler(jobContext(ts, { kind: 'ad_copy', jobId, orgId: org.orgId, clientId: client, payload: {} })),
    result,
    'a re-run answers the same result, copy included',
  )
  t.ok(
    set.ad_groups[0]!.descriptions.some((d) => d.includes('Hydro-jetting')),
    "copy from the service's description",
  )
  t.same(
    await ts.call('list_ad_copy_ad_groups', { set_id: set.set_id, client_id: client }, org.key),
    set.ad_groups,
    'list_ad_copy_ad_groups: the same groups',
  )
  t.same(
    (await ts.call<AdGroup[]>('list_ad_copy_ad_groups', { set_id: set.set_id, client_id: client, limit: 1, offset: 2 }, org.key)).map(
      (g) => g.name,
    ),
    ['Emergency Plumber – Austin, TX'],
    'pages',
  )

  expectError(
    t,
    await ts.rpc('approve_ad_copy_set', { set_id: set.set_id, client_id: client, approved_by: '' }, org.key),
    400,
    'validation_failed',
    'empty approved_by',
  )
  expectError(
    t,
    await ts.rpc('approve_ad_copy_set', { set_id: set.set_id, client_id: client, approved_by: '   ' }, org.key),
    400,
    'validation_failed',
    'blank approved_by',
  )
  expectError(
    t,
    await ts.rpc('approve_ad_copy_set', { set_id: set.set_id, client_id: client }, org.key),
    400,
    'validation_failed',
    'no approved_by',
  )
  const approved = await ts.call<AdCopySet>(
    'approve_ad_copy_set',
    { set_id: set.set_id, client_id: client, approved_by: ' Dana <dana@acme.example> ' },
    org.key,
  )
  t.match(approved, { status: 'approved', approved_by: 'Dana <dana@acme.example>', approved_at: String })
  const again = expectError(
    t,
    await ts.rpc('approve_ad_copy_set', { set_id: set.set_id, client_id: client, approved_by: 'Sam' }, org.key),
    409,
    'ad_copy_set_not_proposed',
    'approve twice',
  )
  t.match(again.detail, /is approved/)
  t.equal(
    (await ts.call<AdCopySet>('get_ad_copy_set', { set_id: set.set_id, client_id: client }, org.key)).approved_by,
    'Dana <dana@acme.example>',
    'the first approver stays recorded',
  )
  expectError(
    t,
    await ts.rpc('reject_ad_copy_set', { set_id: set.set_id, client_id: client, rejected_by: 'Sam' }, org.key),
    409,
    'ad_copy_set_not_proposed',
    'reject an approved set',
  )

  t.same(
    (await ts.call<AdCopySet[]>('list_ad_copy_sets_for_client', { client_id: client, status: 'approved' }, org.key)).map((s) => s.set_id),
    [set.set_id],
  )
  t.same(await ts.call('list_ad_copy_sets_for_client', { client_id: client, status: 'rejected' }, org.key), [])

  const rerun = await adCopyHandler(jobContext(ts, { kind: 'ad_copy', jobId, orgId: org.orgId, clientId: client, payload: {}, attempt: 2 }))
  t.equal(rerun.set_id, set.set_id, 'a resumed job returns the set it proposed, no second set')
})

t.test('ad_copy: services and areas from the payload; unknown services fail naming them', async (t) => {
  const result = await adCopyHandler(
    jobContext(ts, {
      kind: 'ad_copy',
      jobId: job(),
      orgId: org.orgId,
      clientId: client,
      payload: { services: ['emergency plumber'], areas: ['Georgetown, TX', 'Pflugerville'] },
    }),
  )
  const set = await ts.call<AdCopySet>('get_ad_copy_set', { set_id: result.set_id, client_id: client }, org.key)
  t.same(
    set.ad_groups.map((g) => [g.service, g.area]),
    [
      ['Emergency Plumber', 'Georgetown, TX'],
      ['Emergency Plumber', 'Pflugerville'],
    ],
    "the client's spelling of the service; free-text areas",
  )
  const rejected = await ts.call<AdCopySet>(
    'reject_ad_copy_set',
    { set_id: set.set_id, client_id: client, rejected_by: 'Sam', reason: 'wrong areas' },
    org.key,
  )
  t.match(rejected, { status: 'rejected', rejected_by: 'Sam', rejection_reason: 'wrong areas', approved_by: null })
  expectError(
    t,
    await ts.rpc('approve_ad_copy_set', { set_id: set.set_id, client_id: client, approved_by: 'Dana' }, org.key),
    409,
    'ad_copy_set_not_proposed',
    'approve a rejected set',
  )

  const unknown = await adCopyHandler(
    jobContext(ts, {
      kind: 'ad_copy',
      jobId: job(),
      orgId: org.orgId,
      clientId: client,
      payload: { services: ['Roofing', 'Drain cleaning'] },
    }),
  ).catch((e: unknown) => e)
  t.ok(unknown instanceof DomainError && unknown.code === 'ad_copy_unknown_service', 'unknown service fails the job')
  t.match((unknown as DomainError).detail, /"Roofing"/)
  const none = await adCopyHandler(jobContext(ts, { kind: 'ad_copy', jobId: job(), orgId: org.orgId, clientId: bare, payload: {} })).catch(
    (e: unknown) => e,
  )
  t.ok(none instanceof DomainError && none.code === 'ad_copy_no_services', 'a client without services')
})

t.test('ad copy sets answer like missing ones for another client or organization', async (t) => {
  const set_id = (
    await adCopyHandler(
      jobContext(ts, { kind: 'ad_copy', jobId: job(), orgId: org.orgId, clientId: client, payload: { areas: ['Austin'] } }),
    )
  ).set_id as number
  const missing = 987654
  for (const [method, extra] of [
    ['get_ad_copy_set', {}],
    ['list_ad_copy_ad_groups', {}],
    ['approve_ad_copy_set', { approved_by: 'x' }],
  ] as const) {
    const foreign = expectError(
      t,
      await ts.rpc(method, { set_id, client_id: client, ...extra }, other.key),
      404,
      'not_found',
      `${method}: other org`,
    )
    const wrongClient = expectError(
      t,
      await ts.rpc(method, { set_id, client_id: bare, ...extra }, org.key),
      404,
      'not_found',
      `${method}: other client`,
    )
    const absent = expectError(
      t,
      await ts.rpc(method, { set_id: missing, client_id: client, ...extra }, org.key),
      404,
      'not_found',
      `${method}: missing`,
    )
    t.same(withoutIds(foreign, [set_id]), withoutIds(absent, [missing]), `${method}: same body`)
    t.same(withoutIds(wrongClient, [set_id]), withoutIds(absent, [missing]), `${method}: same body`)
  }
  expectError(t, await ts.rpc('list_ad_copy_sets_for_client', { client_id: client }, other.key), 404, 'not_found')
  t.equal((await ts.call<AdCopySet>('get_ad_copy_set', { set_id, client_id: client }, org.key)).status, 'proposed', 'unchanged')
})

t.test('ad_copy with a language model: lines that fit are used, the rest written by the built-in writer', async (t) => {
  const model = fakeModel(
    () =>
      '```json\n' +
      JSON.stringify({
        ad_groups: [
          {
            service: 'Drain cleaning',
            area: 'Austin, TX',
            headlines: [
              'Clear Drains Fast in Austin',
              'This headline is far too long for Google Ads',
              'Austin Drain Pros',
              'Austin Drain Pros',
              'Book a Drain Clean',
            ],
            descriptions: [
              'Clogged drain? We clear it the same visit with camera inspection.',
              'x'.repeat(91),
              'Hydro-jetting for stubborn clogs in Austin.',
            ],
          },
          // Too few headlines once the over-long one is dropped: the group is rejected, the built-in writer writes it.
          {
            service: 'Drain cleaning',
            area: 'Round Rock, TX',
            headlines: ['Round Rock Drains', 'y'.repeat(31)],
            descriptions: ['Fine.', 'Also fine.'],
          },
        ],
      }) +
      '\n```',
  )
  const result = await adCopyHandler(
    jobContext(ts, {
      kind: 'ad_copy',
      jobId: job(),
      orgId: org.orgId,
      clientId: client,
      payload: { services: ['Drain cleaning'] },
      languageModel: model,
    }),
  )
  t.equal(model.requests.length, 1, 'one request for two groups')
  t.match(model.requests[0]!.system, /at most 30 characters/)
  t.match(JSON.parse(model.requests[0]!.prompt), {
    business: 'Acme Plumbing',
    ad_groups: [{ service: 'Drain cleaning', area: 'Austin, TX' }, { area: 'Round Rock, TX' }],
  })
  t.equal(result.writer, 'mixed')
  const set = await ts.call<AdCopySet>('get_ad_copy_set', { set_id: result.set_id, client_id: client }, org.key)
  const [austin, roundRock] = set.ad_groups as [AdGroup, AdGroup]
  t.equal(austin.writer, 'fake:copywriter-1')
  t.same(
    austin.headlines,
    ['Clear Drains Fast in Austin', 'Austin Drain Pros', 'Book a Drain Clean'],
    'over-long and repeated headlines dropped',
  )
  t.same(austin.descriptions, [
    'Clogged drain? We clear it the same visit with camera inspection.',
    'Hydro-jetting for stubborn clogs in Austin.',
  ])
  t.equal(roundRock.writer, 'built-in', 'a group the model could not fill')
  for (const group of set.ad_groups) checkLimits(t, group)

  const failing: LanguageModel = {
    name: 'fake:down',
    complete: async () => {
      throw new LanguageModelError('provider answered 529', true)
    },
  }
  const fallback = await adCopyHandler(
    jobContext(ts, { kind: 'ad_copy', jobId: job(), orgId: org.orgId, clientId: client, payload: {}, languageModel: failing }),
  )
  t.match(
    fallback,
    { writer: 'built-in', model_error: 'provider answered 529', ad_group_count: 4 },
    'a failing model: the built-in writer writes everything',
  )
  const garbage = await adCopyHandler(
    jobContext(ts, {
      kind: 'ad_copy',
      jobId: job(),
      orgId: org.orgId,
      clientId: client,
      payload: {},
      languageModel: fakeModel(() => 'Sorry, I cannot help.'),
    }),
  )
  t.equal(garbage.writer, 'built-in', 'an answer without JSON: built-in')
})

t.test('keyword_generation: candidates added as keywords, then counted as existing', async (t) => {
  await ts.call('generate_aeo_questions', { client_id: client }, org.key)
  const first = await keywordGenerationHandler(
    jobContext(ts, { kind: 'keyword_generation', jobId: job(), orgId: org.orgId, clientId: client, payload: {} }),
  )
  t.ok((first.added as number) > 20, `${first.added} added`)
  t.match(first, { client_id: client, existing: 0, deleted_skipped: 0, over_cap: 0, writer: 'built-in' })
  t.equal(first.added, first.candidates)
  t.ok((first.from_questions as number) > 0, 'keyword forms of the AI Visibility questions')
  const listed = await ts.call<{ id: number; keyword: string; source: string }[]>('get_keywords_for_client', { client_id: client }, org.key)
  t.same(
    listed.map((k) => k.id),
    first.keyword_ids,
    'visible through get_keywords_for_client',
  )
  t.ok(listed.some((k) => k.keyword === 'drain cleaning austin' && k.source === 'generated'))
  t.ok(listed.some((k) => k.source === 'aeo'))

  await ts.call('delete_keyword', { keyword_id: listed[0]!.id }, org.key)
  const manual = await ts.call<number>('add_keyword', { keyword: { client_id: client, keyword: 'Drain Cleaning Round Rock' } }, org.key)
  const again = await keywordGenerationHandler(
    jobContext(ts, { kind: 'keyword_generation', jobId: job(), orgId: org.orgId, clientId: client, payload: {} }),
  )
  t.match(
    again,
    { added: 0, deleted_skipped: 1, existing: (first.candidates as number) - 1 },
    'nothing new; a deleted keyword stays deleted',
  )
  t.equal((await ts.call<{ status: string }>('get_keyword', { keyword_id: listed[0]!.id }, org.key)).status, 'deleted')
  t.ok((again.keyword_ids as number[]).includes(manual), 'a manual keyword is an existing candidate')

  const capped = await keywordGenerationHandler(
    jobContext(ts, { kind: 'keyword_generation', jobId: job(), orgId: org.orgId, clientId: bare, payload: { max_keywords: 5 } }),
  ).catch((e: unknown) => e)
  t.ok(capped instanceof DomainError && capped.code === 'keyword_no_services', 'nothing to build from fails the job')
  const small = await ts.call<number>(
    'add_client',
    clientPayload('Small Co', { services: ['Tree removal'], locations: ['Austin, TX'] }),
    org.key,
  )
  const five = await keywordGenerationHandler(
    jobContext(ts, { kind: 'keyword_generation', jobId: job(), orgId: org.orgId, clientId: small, payload: { max_keywords: 5 } }),
  )
  t.match(five, { candidates: 5, added: 5 })
  t.equal((await ts.call<unknown[]>('get_keywords_for_client', { client_id: small }, org.key)).length, 5, 'max_keywords respected')
})

t.test('keyword_generation with a language model: its valid keywords join the candidates', async (t) => {
  const small = await ts.call<number>(
    'add_client',
    clientPayload('Model Co', { services: ['Tree removal'], locations: ['Austin, TX'] }),
    org.key,
  )
  const model = fakeModel(() =>
    JSON.stringify({
      keywords: [
        { keyword: 'Stump Grinding Austin', service: 'tree removal', location: 'Austin, TX' },
        'dead tree removal austin',
        { keyword: '!!!' },
        { keyword: 'a'.repeat(90) },
        { keyword: 'tree removal austin' },
        { keyword: 'oak wilt treatment', service: 'Pest control' },
      ],
    }),
  )
  const result = await keywordGenerationHandler(
    jobContext(ts, { kind: 'keyword_generation', jobId: job(), orgId: org.orgId, clientId: small, payload: {}, languageModel: model }),
  )
  t.match(result, { writer: 'fake:copywriter-1', from_model: 4 })
  const keywords = await ts.call<{ keyword: string; service: string; location: string }[]>(
    'get_keywords_for_client',
    { client_id: small },
    org.key,
  )
  t.match(
    keywords.find((k) => k.keyword === 'stump grinding austin'),
    { service: 'Tree removal', location: 'Austin, TX' },
  )
  t.ok(keywords.some((k) => k.keyword === 'dead tree removal austin'))
  t.match(
    keywords.find((k) => k.keyword === 'oak wilt treatment'),
    { service: '' },
    'a service the client does not list is not recorded',
  )
  t.notOk(
    keywords.some((k) => k.keyword.startsWith('aaaa') || k.keyword === '!!!'),
    'malformed keywords dropped',
  )
  t.equal(keywords.filter((k) => k.keyword === 'tree removal austin').length, 1, 'no duplicate of a built-in candidate')
})
