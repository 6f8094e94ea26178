/**
 * add_client's get-or-create reservation (domain/clients/identity.ts): the first claim of
 * an identity holds it, a concurrent claim answers the holder, a holder found stale is taken over, and a
 * failed creation releases it. identityHolds judges a holder by its own current state.
 */
import t from 'tap'
import { client } from '../../domain/clients/client.js'
import { clientIdentity, clientIdentityKey, identityHolds } from '../../domain/clients/identity.js'
import { fold } from '../../domain/shared/aggregate.js'
import { clientAdded, clientUpdated, ORG, OTHER_ORG, statusChanged } from './client-fixtures.js'
import { spec } from './given-when-then.js'

const given = spec(clientIdentity)
const claimed = (client_id: number, replaced: number | null = null) => ({
  type: 'ClientIdentityClaimed' as const,
  data: { org_id: ORG, client_id, replaced },
})
const released = (client_id: number) => ({ type: 'ClientIdentityReleased' as const, data: { org_id: ORG, client_id } })
const claim = (client_id: number, stale_owner: number | null = null) => ({
  type: 'ClaimIdentity' as const,
  org_id: ORG,
  client_id,
  stale_owner,
})
const release = (client_id: number) => ({ type: 'ReleaseIdentity' as const, org_id: ORG, client_id })

t.test('ClaimIdentity', async (t) => {
  t.test('the first claim holds it', async (t) => {
    given()
      .when(claim(1))
      .then(t, [claimed(1)])
  })
  t.test('claiming again for the same client changes nothing', async (t) => {
    given(claimed(1)).when(claim(1)).then(t, [])
  })
  t.test('another holder wins: nothing appended (the caller answers the holder)', async (t) => {
    given(claimed(1)).when(claim(2)).then(t, [])
    // A stale owner other than the holder does not count.
    given(claimed(1)).when(claim(2, 3)).then(t, [])
  })
  t.test('a holder the caller found stale is taken over, naming it', async (t) => {
    given(claimed(1))
      .when(claim(2, 1))
      .then(t, [claimed(2, 1)])
  })
  t.test('after a release anyone may claim', async (t) => {
    given(claimed(1), released(1))
      .when(claim(2))
      .then(t, [claimed(2)])
  })
})

t.test('ReleaseIdentity', async (t) => {
  t.test('the holder releases it', async (t) => {
    given(claimed(1))
      .when(release(1))
      .then(t, [released(1)])
  })
  t.test('anyone else releases nothing (a later holder keeps it)', async (t) => {
    given(claimed(1), claimed(2, 1)).when(release(1)).then(t, [])
    given().when(release(1)).then(t, [])
  })
})

t.test('clientIdentityKey: the name as service names compare, the website exactly', async (t) => {
  t.equal(clientIdentityKey('Acme  Plumbing', 'https://acme.example.com'), clientIdentityKey(' acme plumbing ', 'https://acme.example.com'))
  t.not(clientIdentityKey('Acme Plumbing', 'https://acme.example.com'), clientIdentityKey('Acme Plumbing', 'https://acme.example.org'))
  t.not(clientIdentityKey('Acme', 'https://a.example.com'), clientIdentityKey('Acme Heating', 'https://a.example.com'))
})

t.test('identityHolds: a live client of the organization with that name and website', async (t) => {
  const key = clientIdentityKey('Acme Plumbing', 'https://acme.example.com')
  const live = fold(client, [clientAdded()])
  t.ok(identityHolds(live, ORG, key), 'the client it was claimed for')
  t.notOk(identityHolds(live, OTHER_ORG, key), 'not for another organization')
  t.notOk(identityHolds(fold(client, [clientAdded(), clientUpdated({ name: 'Acme Heating' })]), ORG, key), 'renamed')
  t.notOk(identityHolds(fold(client, [clientAdded(), clientUpdated({ website_url: 'https://acme.example.org' })]), ORG, key), 'moved')
  t.notOk(identityHolds(fold(client, [clientAdded(), statusChanged('active', 'deleted')]), ORG, key), 'deleted')
  t.ok(identityHolds(fold(client, [clientAdded(), statusChanged('active', 'paused')]), ORG, key), 'paused still holds')
  t.notOk(identityHolds(client.initialState(), ORG, key), 'never created')
})
