/**
 * Reference documents through the RPCs: add (organization-wide and for a client), the reads, the title rule
 * per scope, the body limit, updates as versions with their history, delete, a platform key naming the
 * organization, and another organization's document or client answering like a missing one.
 */
import t from 'tap'
import { REFERENCE_DOC_BODY_MAX_BYTES } from '../../domain/content/reference-docs/rules.js'
import { voiceGuideForClient } from '../../projections/content/reference-docs/queries.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const second = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, client, second, foreignClient }
}

t.test('add, read, list, update and delete reference documents', async (t) => {
  const { ts, org, client, second } = await setup(t)
  const voice = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'brand_voice', title: '  House   voice ', body: '\n\nFriendly and plain.  \n' },
    org.key,
  )
  t.match(voice, {
    org_id: org.orgId,
    client_id: null,
    kind: 'brand_voice',
    title: 'House voice',
    body: 'Friendly and plain.',
    body_bytes: 19,
    version: 1,
  })
  t.equal(voice.created_at, voice.updated_at)
  t.same(await ts.call('get_org_reference_doc', { doc_id: voice.id }, org.key), voice)

  const facts = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'service_facts', title: 'Facts', body: 'Open 24/7 in Austin.', client_id: client },
    org.key,
  )
  const style = await ts.call<any>('add_org_reference_doc', { kind: 'style_guide', title: 'Style', body: 'Sentence case.' }, org.key)
  const roofing = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'brand_voice', title: 'Roofing voice', body: 'Solid.', client_id: second },
    org.key,
  )
  const ids = (docs: any[]) => docs.map((d) => d.id)
  t.same(ids(await ts.call<any[]>('get_org_reference_docs', {}, org.key)), [voice.id, facts.id, style.id, roofing.id], 'oldest first')
  t.same(
    ids(await ts.call<any[]>('get_org_reference_docs', { client_id: client }, org.key)),
    [facts.id, voice.id, style.id],
    "the client's own first, then the organization's by kind; never another client's",
  )
  t.same(ids(await ts.call<any[]>('get_org_reference_docs', { kind: 'brand_voice' }, org.key)), [voice.id, roofing.id])
  t.same(ids(await ts.call<any[]>('get_org_reference_docs', { limit: 2, offset: 1 }, org.key)), [facts.id, style.id], 'paged')

  // Titles: unique per scope, ignoring case and whitespace runs; the same title in another scope is fine.
  const taken = expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'HOUSE voice', body: 'x' }, org.key),
    409,
    'reference_doc_title_taken',
  )
  t.match(taken.detail, `reference document ${voice.id}`)
  const clientVoice = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'brand_voice', title: 'House voice', body: 'For plumbing: even plainer.', client_id: client },
    org.key,
  )
  t.equal(clientVoice.client_id, client, 'a client may have a document titled like an organization one')
  expectError(
    t,
    await ts.rpc('update_org_reference_doc', { doc_id: style.id, title: 'house voice' }, org.key),
    409,
    'reference_doc_title_taken',
    'an update to a taken title',
  )

  // Updates: a version each; left out stays; the same values again record nothing.
  const stream = `reference_docs-${org.orgId}`
  const updated = await ts.call<any>('update_org_reference_doc', { doc_id: voice.id, body: 'Friendly, plain and short.' }, org.key)
  t.match(updated, { id: voice.id, title: 'House voice', kind: 'brand_voice', body: 'Friendly, plain and short.', version: 2 })
  const before = (await streamEvents(ts, stream)).length
  t.same(await ts.call('update_org_reference_doc', { doc_id: voice.id, body: 'Friendly, plain and short.' }, org.key), updated)
  t.equal((await streamEvents(ts, stream)).length, before, 'the same values: no event')
  const moved = await ts.call<any>('update_org_reference_doc', { doc_id: facts.id, client_id: null, kind: 'other' }, org.key)
  t.match(moved, { client_id: null, kind: 'other', version: 2 })
  const back = await ts.call<any>('update_org_reference_doc', { doc_id: facts.id, client_id: second, title: 'Roof facts' }, org.key)
  t.match(back, { client_id: second, title: 'Roof facts', version: 3 })

  // History: every version, newest first, with its values and actor.
  const history = await ts.call<any[]>('get_org_reference_doc_history', { doc_id: facts.id }, org.key)
  t.same(
    history.map((h) => [h.change, h.version, h.client_id, h.kind, h.title]),
    [
      ['updated', 3, second, 'other', 'Roof facts'],
      ['updated', 2, null, 'other', 'Facts'],
      ['added', 1, client, 'service_facts', 'Facts'],
    ],
  )
  t.equal(history[2].body, 'Open 24/7 in Austin.')
  t.match(history[0].actor, { kind: 'api_key' })

  // Delete: gone from every read, its title free again, its history kept.
  t.same(await ts.call('delete_org_reference_doc', { doc_id: voice.id }, org.key), { id: voice.id, deleted: true })
  expectError(t, await ts.rpc('get_org_reference_doc', { doc_id: voice.id }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('delete_org_reference_doc', { doc_id: voice.id }, org.key), 404, 'not_found', 'deleting again')
  expectError(t, await ts.rpc('update_org_reference_doc', { doc_id: voice.id, title: 'x' }, org.key), 404, 'not_found')
  t.notOk(ids(await ts.call<any[]>('get_org_reference_docs', {}, org.key)).includes(voice.id))
  const history2 = await ts.call<any[]>('get_org_reference_doc_history', { doc_id: voice.id }, org.key)
  t.same(
    history2.map((h) => [h.change, h.version, h.body === null]),
    [
      ['deleted', 2, true],
      ['updated', 2, false],
      ['added', 1, false],
    ],
  )
  const reused = await ts.call<any>('add_org_reference_doc', { kind: 'brand_voice', title: 'House voice', body: 'New voice.' }, org.key)
  t.not(reused.id, voice.id, 'a new document, never the old id')
})

t.test('bad input is refused with clear errors and records nothing', async (t) => {
  const { ts, org, client } = await setup(t)
  const stream = `reference_docs-${org.orgId}`
  const tooBig = 'é'.repeat(REFERENCE_DOC_BODY_MAX_BYTES / 2 + 1) // within the characters, over the bytes
  const big = expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'style_guide', title: 'Big', body: tooBig }, org.key),
    400,
    'validation_failed',
  )
  t.match(big.detail, String(REFERENCE_DOC_BODY_MAX_BYTES), 'names the limit')
  const fits = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'style_guide', title: 'Just fits', body: 'a'.repeat(REFERENCE_DOC_BODY_MAX_BYTES) },
    org.key,
  )
  t.equal(fits.body_bytes, REFERENCE_DOC_BODY_MAX_BYTES, 'exactly the limit is accepted')
  expectError(t, await ts.rpc('add_org_reference_doc', { kind: 'voice', title: 'x', body: 'y' }, org.key), 400, 'validation_failed', 'kind')
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: '  ', body: 'y' }, org.key),
    400,
    'validation_failed',
    'blank title',
  )
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'x', body: ' \n ' }, org.key),
    400,
    'validation_failed',
    'blank body',
  )
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 't'.repeat(201), body: 'y' }, org.key),
    400,
    'validation_failed',
    'long title',
  )
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'x', body: 'y', extra: 1 }, org.key),
    400,
    'validation_failed',
    'unknown key',
  )
  expectError(
    t,
    await ts.rpc('update_org_reference_doc', { doc_id: fits.id, body: tooBig }, org.key),
    400,
    'validation_failed',
    'update over the limit',
  )
  t.equal((await streamEvents(ts, stream)).length, 1, 'only the document that fits was recorded')

  // A deleted client takes no new documents.
  await ts.call('set_client_status', { client_id: client, status: 'deleted' }, org.key)
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'x', body: 'y', client_id: client }, org.key),
    409,
    'client_deleted',
  )
  t.equal((await streamEvents(ts, stream)).length, 1)
})

t.test("another organization's documents and clients answer like missing ones; a platform key names the organization", async (t) => {
  const { ts, org, other, client, foreignClient } = await setup(t)
  const doc = await ts.call<any>(
    'add_org_reference_doc',
    { kind: 'brand_voice', title: 'Voice', body: 'Plain.', client_id: client },
    org.key,
  )
  for (const [method, params] of [
    ['get_org_reference_doc', { doc_id: doc.id }],
    ['get_org_reference_doc_history', { doc_id: doc.id }],
    ['update_org_reference_doc', { doc_id: doc.id, title: 'Mine now' }],
    ['delete_org_reference_doc', { doc_id: doc.id }],
  ] as const) {
    const foreign = expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', method)
    const missing = expectError(t, await ts.rpc(method, { ...params, doc_id: 999_999 }, other.key), 404, 'not_found', method)
    t.equal(foreign.detail, `reference document ${doc.id} not found`)
    t.equal(missing.detail, 'reference document 999999 not found')
  }
  t.same(await ts.call('get_org_reference_docs', {}, other.key), [], "the other organization sees none of this one's")
  expectError(
    t,
    await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'x', body: 'y', client_id: foreignClient }, org.key),
    404,
    'not_found',
    "another organization's client",
  )
  expectError(t, await ts.rpc('get_org_reference_docs', { client_id: foreignClient }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('update_org_reference_doc', { doc_id: doc.id, client_id: foreignClient }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_org_reference_docs', { org_id: other.orgId }, org.key), 404, 'not_found', 'naming another org')
  t.equal((await ts.call<any>('get_org_reference_doc', { doc_id: doc.id }, org.key)).title, 'Voice', 'untouched')

  // A platform key: must name the organization to list or add; reads any document by id.
  expectError(t, await ts.rpc('get_org_reference_docs', {}), 400, 'org_id_required')
  expectError(t, await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'x', body: 'y' }), 400, 'org_id_required')
  const added = await ts.call<any>('add_org_reference_doc', {
    org_id: other.orgId,
    kind: 'style_guide',
    title: 'Their style',
    body: 'Terse.',
  })
  t.equal(added.org_id, other.orgId)
  t.same(
    (await ts.call<any[]>('get_org_reference_docs', { org_id: other.orgId })).map((d) => d.id),
    [added.id],
  )
  t.equal((await ts.call<any>('get_org_reference_doc', { doc_id: doc.id })).id, doc.id)
  expectError(t, await ts.rpc('add_org_reference_doc', { org_id: 999_999, kind: 'other', title: 'x', body: 'y' }), 404, 'not_found')
})

t.test("the writers' voice guide reads the documents that apply to the client, its own first", async (t) => {
  const { ts, org, other, client, second } = await setup(t)
  const read = ts.system.read
  t.equal(await voiceGuideForClient(read, org.orgId, client), '', 'no documents: nothing')
  await ts.call('add_org_reference_doc', { kind: 'service_facts', title: 'Facts', body: 'Open 24/7.' }, org.key)
  await ts.call('add_org_reference_doc', { kind: 'brand_voice', title: 'House voice', body: 'Plain.' }, org.key)
  await ts.call('add_org_reference_doc', { kind: 'style_guide', title: 'Plumbing style', body: 'Say "drain".', client_id: client }, org.key)
  await ts.call('add_org_reference_doc', { kind: 'brand_voice', title: 'Roofing voice', body: 'Sturdy.', client_id: second }, org.key)
  await ts.call('add_org_reference_doc', { kind: 'brand_voice', title: 'Theirs', body: 'Not ours.' }, other.key)
  const deleted = await ts.call<any>('add_org_reference_doc', { kind: 'other', title: 'Old', body: 'Gone.' }, org.key)
  await ts.call('delete_org_reference_doc', { doc_id: deleted.id }, org.key)
  t.equal(
    await voiceGuideForClient(read, org.orgId, client),
    '### Style guide: Plumbing style (this client)\nSay "drain".\n\n### Brand voice: House voice\nPlain.\n\n### Service facts: Facts\nOpen 24/7.',
  )
  t.equal(
    await voiceGuideForClient(read, org.orgId, null),
    '### Brand voice: House voice\nPlain.\n\n### Service facts: Facts\nOpen 24/7.',
    'no client: the organization-wide documents',
  )
  t.ok((await voiceGuideForClient(read, org.orgId, client, 60)).length <= 60, 'bounded as asked')
})
