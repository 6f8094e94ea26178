import { systemContext } from '../../../commands/command-handler.js'
import {
  acceptInvite,
  confirmTotp,
  createUserWithCredentials,
  requestPasswordReset,
  signIn,
  signOut,
  usePasswordReset,
  type PeopleDeps,
} from '../../../commands/people.js'
import { ephemeralServiceKey } from '../../../commands/secrets/service-key.js'
import { secretOfOtpauthUri, totp } from '../../../commands/secrets/totp.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The people part of the realistic log: invites (RPC), an invite accepted and confirmed, an operator-created
 * owner, sign-ins (TOTP and recovery code), a sign-out, a lock-out, a role change, a password reset requested
 * and used, and a removal that ends sessions.
 */
export async function writePeopleLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [orgA] = log.orgIds as [number]
  const deps: PeopleDeps = { ...ts.system.write, serviceKey: ephemeralServiceKey() }
  const context = systemContext('realistic-log')
  const password = 'a realistic password'

  const invited = await call<{ user_id: number; invite_token: string }>(
    'invite_org_member',
    { email: 'dana@acme.example', role: 'seo_editor' },
    keys.orgA,
  )
  const issued = await acceptInvite(deps, context, { userId: invited.user_id, token: invited.invite_token, password })
  const secret = secretOfOtpauthUri(issued.otpauthUri)
  await confirmTotp(deps, context, { userId: invited.user_id, token: invited.invite_token, code: totp(secret, Date.now()) })
  await call('invite_org_member', { email: 'pending@bravo.example', role: 'viewer' }, keys.orgB)

  const owner = await createUserWithCredentials(deps, context, { orgId: orgA, email: 'owner@acme.example', role: 'owner', password })
  const session = await signIn(deps, { email: 'owner@acme.example', password, code: owner.recoveryCodes[0]!, requestId: null })
  if (!session.ok) throw new Error('realistic log: the owner could not sign in')
  await signOut(deps, context, { userId: owner.userId, sessionToken: session.sessionToken })

  const dana = await signIn(deps, { email: 'dana@acme.example', password, code: issued.recoveryCodes[1]!, requestId: null })
  if (!dana.ok) throw new Error('realistic log: dana could not sign in')
  for (let i = 0; i < 5; i++) await signIn(deps, { email: 'owner@acme.example', password: `wrong ${i}`, code: '000000', requestId: null })

  await call('update_org_member_role', { user_id: invited.user_id, role: 'web_builder' }, keys.orgA)
  const reset = await requestPasswordReset(deps, context, { email: 'dana@acme.example' })
  if (!reset) throw new Error('realistic log: no reset issued')
  await usePasswordReset(deps, context, { userId: invited.user_id, token: reset.token, password: 'another realistic password' })
  const again = await signIn(deps, {
    email: 'dana@acme.example',
    password: 'another realistic password',
    code: issued.recoveryCodes[2]!,
    requestId: null,
  })
  if (!again.ok) throw new Error('realistic log: dana could not sign in after the reset')
  await requestPasswordReset(deps, { ...context, correlationId: 'later' }, { email: 'owner@acme.example' })
  await call('remove_org_member', { user_id: invited.user_id }, keys.orgA)
}
