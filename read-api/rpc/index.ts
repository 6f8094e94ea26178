import { RpcRegistry, type AnyRpc } from '../registry.js'
import { aeoRpcs } from './aeo/index.js'
import { apiKeyRpcs } from './api-keys.js'
import { clientRpcs } from './clients.js'
import { exportRpcs } from './exports.js'
import { adCopyRpcs } from './ad-copy.js'
import { historyRpcs } from './history.js'
import { jobRpcs } from './jobs.js'
import { keywordRpcs } from './keywords.js'
import { oauthRpcs } from './oauth.js'
import { organizationRpcs } from './organizations.js'
import { pageRpcs } from './pages.js'
import { peopleRpcs } from './people.js'
import { siteEditRpcs } from './site-edits.js'
import { ssoRpcs } from './sso.js'
import { samlRpcs } from './saml.js'
import { usageRpcs } from './usage.js'
import { webhookRpcs } from './webhooks.js'
import { searchRpcs } from './search/index.js'
import { monitoringRpcs } from './monitoring/index.js'
import { planningRpcs } from './planning/index.js'
import { publishingRpcs } from './publishing/index.js'
import { contentRpcs } from './content/index.js'

/** Every RPC the service exposes. A method not listed here answers 403. */
export function createRegistry(): RpcRegistry {
  return new RpcRegistry([
    ...organizationRpcs,
    ...apiKeyRpcs,
    ...clientRpcs,
    ...historyRpcs,
    ...aeoRpcs,
    ...usageRpcs,
    ...jobRpcs,
    ...webhookRpcs,
    ...pageRpcs,
    ...siteEditRpcs,
    ...keywordRpcs,
    ...adCopyRpcs,
    ...peopleRpcs,
    ...exportRpcs,
    ...oauthRpcs,
    ...ssoRpcs,
    ...samlRpcs,
    ...searchRpcs,
    ...monitoringRpcs,
    ...planningRpcs,
    ...publishingRpcs,
    ...contentRpcs,
  ] as AnyRpc[])
}
