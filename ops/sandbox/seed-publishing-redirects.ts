import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { applySiteEdit, stageSiteEdit } from '../../commands/site-edits.js'
import type { SitePublisher } from '../../commands/site-edits-publisher.js'
import { REDIRECT_OPERATION, type RedirectPayload } from '../../domain/publishing/redirects/redirect-payload.js'
import { WORDPRESS_PUBLISHER } from '../../domain/publishing/site-publisher/receipt.js'

/**
 * The sandbox's fictional redirects, staged through the site edit command: the old coupons page to the current
 * offers (proposed), and the retired drain page to the drain cleaning page, applied on the sandbox client's
 * WordPress site (fictional: the seed records what the site publisher records, the Redirection plugin's id 14,
 * without a site to call), so list_redirects shows both states and a remote_id.
 */
export async function seedSandboxRedirects(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const stage = async (payload: RedirectPayload) =>
    (
      await stageSiteEdit(write, ctx, {
        orgId,
        clientId,
        operation: REDIRECT_OPERATION,
        pageUrl: payload.from_url,
        pageId: null,
        payload: JSON.stringify(payload),
        jobId: null,
      })
    ).editId
  await stage({ from_url: '/coupons-2025', to_url: '/specials', status_code: 301 })
  const applied = await stage({ from_url: '/drains-old', to_url: '/services/drain-cleaning', status_code: 301 })
  const fictionalSite: SitePublisher = {
    name: WORDPRESS_PUBLISHER,
    publish: async () => ({
      before_snapshot_id: null,
      after_snapshot_id: null,
      remote: { kind: 'wordpress_redirect', redirect_id: 14 },
      publisher: WORDPRESS_PUBLISHER,
    }),
    restore: async () => ({ restored_snapshot_id: null }),
  }
  await applySiteEdit(write, ctx, fictionalSite, { editId: applied, visibleTo: orgId, approvedBy: 'Sandbox Strategist' })
}
