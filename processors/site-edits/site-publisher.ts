import type { WriteDeps } from '../../commands/command-handler.js'
import { clientSites, type ClientSites, type ConnectedSite } from '../../commands/publishing/client-sites.js'
import { recordPushFailure, resolvePushFailures } from '../../commands/publishing/push-failures.js'
import { WordPressError } from '../../commands/publishing/wordpress/client.js'
import type { WordPressSettings } from '../../commands/publishing/wordpress/settings.js'
import type { ServiceKey } from '../../commands/secrets/service-key.js'
import { SitePublishError, type EditToPublish, type SitePublisher } from '../../commands/site-edits-publisher.js'
import type { CommandContext } from '../../commands/command-handler.js'
import { REDIRECT_OPERATION } from '../../domain/publishing/redirects/redirect-payload.js'
import { WORDPRESS_PUBLISHER } from '../../domain/publishing/site-publisher/receipt.js'
import type { ReadDb } from '../../projections/tables.js'
import { wordPressPublisher } from '../publishing/wordpress-publisher.js'
import { builtInSitePublisher } from './built-in-publisher.js'

export const SITE_PUBLISHER = 'site'

export interface SitePublisherDeps {
  readonly read: ReadDb
  /** How to reach clients' WordPress sites; null: this process pushes nowhere (every client gets the built-in publisher). */
  readonly sites: ClientSites | null
}

/** The clients' sites as the settings reach them, or null without WordPress settings. */
export function clientSitesOf(deps: Pick<WriteDeps, 'store'>, publishing: WordPressSettings | undefined, serviceKey: ServiceKey) {
  return publishing ? clientSites(deps, publishing, serviceKey) : null
}

/**
 * The publisher apply_site_edit, rollback_site_edit and the jobs use: per client, its WordPress site when it
 * has a WordPress connection (processors/publishing/wordpress-publisher.ts), else the built-in publisher. A
 * push to the site is followed by the same snapshot the built-in publisher records, so the service's own view
 * of the page (snapshots, site changes, attribution) is the same either way; a rollback goes back through the
 * publisher that applied the edit (an edit applied before the client was connected is undone in the service
 * only).
 *
 * Every failed push to the site is a push failure (operation apply_site_edit, rollback_site_edit or redirect,
 * its category and error), and the next success of the same operation for the client resolves them.
 */
export function sitePublisher(deps: SitePublisherDeps): SitePublisher {
  const builtIn = builtInSitePublisher(deps)
  const wordpress = wordPressPublisher(deps)

  /** Runs a push, recording a failure of the site as a push failure and answering it as the edit's error. */
  const pushing = async <T>(
    edit: EditToPublish,
    context: CommandContext,
    write: WriteDeps,
    operation: string,
    push: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await push()
    } catch (error) {
      if (!(error instanceof WordPressError)) throw error
      await recordPushFailure(write, context, {
        orgId: edit.orgId,
        clientId: edit.clientId,
        operation,
        category: error.category,
        error: error.message,
        editId: edit.editId,
        target: edit.pageUrl || null,
        httpStatus: error.status,
      })
      const code = error.category === 'conflict' ? 'site_edit_conflict' : 'site_publish_failed'
      throw new SitePublishError(code, `${error.category}: ${error.message}`, WORDPRESS_PUBLISHER)
    }
  }

  const succeeded = (edit: EditToPublish, context: CommandContext, write: WriteDeps, operation: string) =>
    resolvePushFailures(write, context, { clientId: edit.clientId, operation, auto: true })

  const connected = async (clientId: number): Promise<ConnectedSite | null> => (deps.sites ? deps.sites.connected(clientId) : null)

  return {
    name: SITE_PUBLISHER,
    async publish(edit, context, write) {
      const operation = edit.operation === REDIRECT_OPERATION ? REDIRECT_OPERATION : 'apply_site_edit'
      const site = await pushing(edit, context, write, operation, () => connected(edit.clientId))
      if (!site) return { ...(await builtIn.publish(edit, context, write)), publisher: builtIn.name }
      const remote = await pushing(edit, context, write, operation, () => wordpress.publish(edit, site))
      let local
      try {
        local = await builtIn.publish(edit, context, write)
      } catch (error) {
        // The site took it but the service cannot record it (its page is gone here): undo on the site, then say why.
        await wordpress.restore(remote, site).catch(() => {})
        throw error instanceof SitePublishError ? new SitePublishError(error.code, error.message, WORDPRESS_PUBLISHER) : error
      }
      await succeeded(edit, context, write, operation)
      return { ...local, remote, publisher: WORDPRESS_PUBLISHER }
    },
    async restore(edit, applied, context, write) {
      const remote = applied.remote ?? null
      if (remote === null) return { ...(await builtIn.restore(edit, applied, context, write)), publisher: builtIn.name }
      const operation = 'rollback_site_edit'
      const site = await pushing(edit, context, write, operation, () => connected(edit.clientId))
      if (!site) {
        throw new SitePublishError(
          'site_publish_failed',
          `the edit was applied to the client's WordPress site, and the client has no WordPress connection now: reconnect it (set_client_wordpress) to roll back`,
          WORDPRESS_PUBLISHER,
        )
      }
      await pushing(edit, context, write, operation, () => wordpress.restore(remote, site))
      const local = await builtIn.restore(edit, applied, context, write)
      await succeeded(edit, context, write, operation)
      return { ...local, publisher: WORDPRESS_PUBLISHER }
    },
  }
}
