import { systemContext } from '../../../commands/command-handler.js'
import { addSsoProvider, completeSsoSignIn, deleteSsoProvider, loadSsoProvider, rulesOf, updateSsoProvider } from '../../../commands/sso.js'
import type { ProviderSettings } from '../../../domain/sso/provider.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The single sign-on part of the realistic log: a provider added, updated, a second one added and deleted,
 * an SSO provisioning and SSO sign-ins (the id_token checks are the routes'; here the verified claims go
 * straight to the command), and a refusal.
 */
export async function writeSsoLog(ts: TestSystem, log: RealisticLog): Promise<void> {
  const [orgA] = log.orgIds as [number]
  const deps = ts.system.write
  const context = systemContext('realistic-log')
  const manager = { kind: 'key' } as const
  const settings: ProviderSettings = {
    label: 'Acme IdP',
    issuer: 'https://idp.acme.example',
    client_id: 'rankrelay',
    client_secret_sealed: 'v1.00000000.aXY.dGFn.Y3Q',
    allowed_domains: ['staff.acme.example'],
    default_role: 'viewer',
    hosted_domain: '',
    allow_signup: false,
  }
  const added = await addSsoProvider(deps, context, { orgId: orgA, manager, settings })
  await updateSsoProvider(deps, context, { providerId: added.providerId, callerOrgId: orgA, manager, settings: { ...settings, default_role: 'seo_editor' }, active: true })
  const spare = await addSsoProvider(deps, context, { orgId: orgA, manager, settings: { ...settings, label: 'Spare' } })
  await deleteSsoProvider(deps, context, { providerId: spare.providerId, callerOrgId: orgA, manager })

  const loaded = await loadSsoProvider(deps, added.providerId)
  const provider = { protocol: 'oidc' as const, providerId: loaded.providerId, rules: rulesOf(loaded) }
  const identity = { email: 'sam@staff.acme.example', emailVerified: true, hostedDomain: undefined }
  const first = await completeSsoSignIn(deps, { provider, subject: 'sam', identity, requestId: null })
  if (!first.ok) throw new Error(`realistic log: SSO provisioning refused (${first.reason})`)
  const second = await completeSsoSignIn(deps, { provider, subject: 'sam', identity, requestId: null })
  if (!second.ok) throw new Error('realistic log: the second SSO sign-in was refused')
  await completeSsoSignIn(deps, { provider, subject: 'eve', identity: { email: 'eve@elsewhere.example', emailVerified: true, hostedDomain: undefined }, requestId: null })
}
