import { systemContext } from '../../../commands/command-handler.js'
import { addSsoProvider, completeSsoSignIn, deleteSsoProvider, loadSsoProvider, rulesOf, updateSsoProvider } from '../../../commands/sso.js'
import { addSamlProvider, deleteSamlProvider, loadSamlProvider, samlRulesOf, updateSamlProvider } from '../../../commands/saml.js'
import type { ProviderSettings } from '../../../domain/sso/provider.js'
import type { SamlProviderSettings } from '../../../domain/sso/saml-events.js'
import { samlFixtures } from '../../http/saml-idp-support.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The single sign-on part of the realistic log: a provider added, updated, a second one added and deleted,
 * an SSO provisioning and SSO sign-ins (the id_token checks are the routes'; here the verified claims go
 * straight to the command), and a refusal; then the same for a SAML provider.
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
  await updateSsoProvider(deps, context, {
    providerId: added.providerId,
    callerOrgId: orgA,
    manager,
    settings: { ...settings, default_role: 'seo_editor' },
    active: true,
  })
  const spare = await addSsoProvider(deps, context, { orgId: orgA, manager, settings: { ...settings, label: 'Spare' } })
  await deleteSsoProvider(deps, context, { providerId: spare.providerId, callerOrgId: orgA, manager })

  const loaded = await loadSsoProvider(deps, added.providerId)
  const provider = { protocol: 'oidc' as const, providerId: loaded.providerId, rules: rulesOf(loaded, false) }
  const identity = { email: 'sam@staff.acme.example', emailVerified: true, hostedDomain: undefined }
  const first = await completeSsoSignIn(deps, { provider, subject: 'sam', identity, requestId: null })
  if (!first.ok) throw new Error(`realistic log: SSO provisioning refused (${first.reason})`)
  const second = await completeSsoSignIn(deps, { provider, subject: 'sam', identity, requestId: null })
  if (!second.ok) throw new Error('realistic log: the second SSO sign-in was refused')
  await completeSsoSignIn(deps, {
    provider,
    subject: 'eve',
    identity: { email: 'eve@elsewhere.example', emailVerified: true, hostedDomain: undefined },
    requestId: null,
  })

  // SAML: a provider added, updated, a spare deleted, and a sign-in that provisions (the protocol checks are
  // the routes'; the verified email goes straight to the command).
  const samlSettings: SamlProviderSettings = {
    label: 'Acme Okta',
    idp_entity_id: 'https://okta.acme.example/metadata',
    sso_url: 'https://okta.acme.example/sso',
    certificates: [samlFixtures.idpCert],
    metadata_xml: '',
    email_attribute: 'mail',
    allow_unsolicited: false,
    allowed_domains: ['saml.acme.example'],
    default_role: 'web_builder',
    allow_signup: false,
  }
  const saml = await addSamlProvider(deps, context, { orgId: orgA, manager, settings: samlSettings })
  await updateSamlProvider(deps, context, {
    providerId: saml.providerId,
    callerOrgId: orgA,
    manager,
    settings: { ...samlSettings, allow_unsolicited: true },
    active: true,
  })
  const spareSaml = await addSamlProvider(deps, context, { orgId: orgA, manager, settings: { ...samlSettings, label: 'Spare' } })
  await deleteSamlProvider(deps, context, { providerId: spareSaml.providerId, callerOrgId: orgA, manager })
  const loadedSaml = await loadSamlProvider(deps, saml.providerId)
  const samlSignIn = await completeSsoSignIn(deps, {
    provider: { protocol: 'saml', providerId: saml.providerId, rules: samlRulesOf(loadedSaml, false) },
    subject: 'okta-123',
    identity: { email: 'sid@saml.acme.example', emailVerified: true, hostedDomain: undefined },
    requestId: null,
  })
  if (!samlSignIn.ok) throw new Error(`realistic log: SAML provisioning refused (${samlSignIn.reason})`)
}
