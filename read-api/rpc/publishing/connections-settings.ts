import type { WriteDeps } from '../../../commands/command-handler.js'
import { clientSites, type ClientSites } from '../../../commands/publishing/client-sites.js'
import type { WordPressSettings } from '../../../commands/publishing/wordpress/settings.js'
import type { ServiceKey } from '../../../commands/secrets/service-key.js'
import type { WebhookPolicy } from '../../../commands/webhooks.js'
import { siteConnectionRow } from '../../../projections/publishing/connections/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { ApiError } from '../../errors.js'
import type { ServiceSettings } from '../../settings.js'

/** What the site connection methods take from the process's settings, each absent one a 503. */

/** The service key that seals passwords and private keys; a process without one cannot take them. */
export function serviceKeyOf(settings: ServiceSettings): ServiceKey {
  if (!settings.serviceKey) throw new ApiError('service_unavailable', 'no service key is configured to seal site credentials')
  return settings.serviceKey
}

/** How this process reaches WordPress sites (WORDPRESS_* and SITE_ALLOWED_HOSTS); absent: the methods that reach one answer 503. */
export function wordPressSettingsOf(settings: ServiceSettings): WordPressSettings {
  if (!settings.publishing) throw new ApiError('service_unavailable', 'WordPress connections are not configured in this process')
  return settings.publishing
}

/** The clients' connected WordPress sites, as this process reaches them. */
export function clientSitesOfSettings(write: Pick<WriteDeps, 'store'>, settings: ServiceSettings): ClientSites {
  return clientSites(write, wordPressSettingsOf(settings), serviceKeyOf(settings))
}

export function webhookPolicyOf(settings: ServiceSettings): WebhookPolicy {
  if (!settings.webhooks) throw new ApiError('service_unavailable', 'the webhook URL policy is not configured in this process')
  return settings.webhooks
}

/** Read after a write: the row the projector just wrote (the write settled first). */
export async function connectionRowAfterWrite(ctx: { read: ReadDb }, clientId: number) {
  return siteConnectionRow(ctx.read, clientId)
}
