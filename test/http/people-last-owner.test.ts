/**
 * The last-owner rule (read-api/rpc/people.ts keepingAnOwner): an organization's last active owner cannot be
 * demoted or removed (409 last_owner), whoever asks; with two owners one may go, and two owners demoting each
 * other at the same moment cannot both succeed (the changes take turns under an advisory lock). Permission
 * comes first: a non-owner still gets 403, not a hint about who the owners are.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { createUserWithCredentials, type PeopleDeps } from '../../commands/people.js'
import { ephemeralServiceKey } from '../../commands/secrets/service-key.js'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'

const ts = await startTestSystem(t)
const acme = await orgWithKey(ts, 'Acme')
const deps: PeopleDeps = { ...ts.system.write, serviceKey: ephemeralServiceKey() }
const member = async (email: string, role: 'owner' | 'viewer') =>
  (await createUserWithCredentials(deps, systemContext('test'), { orgId: acme.orgId, email, role, password: 'a long enough password' }))
    .userId
/** Waits until the read model shows these members as owners (the rule counts owners there). */
async function untilOwners(ids: number[]) {
  for (;;) {
    const owners = (await ts.call<any[]>('list_org_members', {}, acme.key)).filter((m) => m.role === 'owner').map((m) => m.user_id)
    if (ids.every((id) => owners.includes(id))) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const ann = await member('ann@acme.test', 'owner')
const bob = await member('bob@acme.test', 'owner')
await untilOwners([ann, bob])

t.test('with two owners one may step down; the last one may not', async (t) => {
  t.match(await ts.call('update_org_member_role', { user_id: bob, role: 'viewer' }, acme.key), { role: 'viewer' })
  const demote = expectError(t, await ts.rpc('update_org_member_role', { user_id: ann, role: 'seo_editor' }, acme.key), 409, 'last_owner')
  t.match(demote.hint, /Make another member an owner first/)
  expectError(t, await ts.rpc('remove_org_member', { user_id: ann }, acme.key), 409, 'last_owner')
  t.match(await ts.call('update_org_member_role', { user_id: ann, role: 'owner' }, acme.key), { role: 'owner' }, 'staying owner is fine')
  t.match(await ts.call('update_org_member_role', { user_id: bob, role: 'owner' }, acme.key), { role: 'owner' }, 'promote first…')
  t.same(await ts.call('remove_org_member', { user_id: bob }, acme.key), { user_id: bob, removed: true }, '…then the other may go')
  const owners = (await ts.call<any[]>('list_org_members', {}, acme.key)).filter((m) => m.role === 'owner')
  t.same(
    owners.map((m) => m.user_id),
    [ann],
  )
})

t.test('two owners demoting each other at once: exactly one succeeds', async (t) => {
  const cat = await member('cat@acme.test', 'owner')
  // Both owners visible in the read model first (the count reads it), so the race is the only question.
  await untilOwners([ann, cat])
  const [a, c] = await Promise.all([
    ts.rpc('update_org_member_role', { user_id: ann, role: 'viewer' }, acme.key),
    ts.rpc('update_org_member_role', { user_id: cat, role: 'viewer' }, acme.key),
  ])
  t.same([a.statusCode, c.statusCode].sort(), [200, 409], 'one demotion, one refusal')
  const owners = (await ts.call<any[]>('list_org_members', {}, acme.key)).filter((m) => m.role === 'owner' && m.status === 'active')
  t.equal(owners.length, 1, 'one owner remains')
})

t.test('a member of another organization still answers 404, not last_owner', async (t) => {
  const other = await orgWithKey(ts, 'Other')
  expectError(t, await ts.rpc('remove_org_member', { user_id: ann }, other.key), 404, 'not_found')
})
