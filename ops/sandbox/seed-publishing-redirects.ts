import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { stageSiteEdit } from '../../commands/site-edits.js'
import { REDIRECT_OPERATION, type RedirectPayload } from '../../domain/publishing/redirects/redirect-payload.js'

/**
 * The sandbox's fictional redirects, staged through the site edit command: the old coupons page to the current
 * offers (proposed, so a sandbox caller can apply it with the built-in publisher and see list_redirects change).
 */
export async function seedSandboxRedirects(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const payload: RedirectPayload = { from_url: '/coupons-2025', to_url: '/specials', status_code: 301 }
  await stageSiteEdit(write, ctx, {
    orgId,
    clientId,
    operation: REDIRECT_OPERATION,
    pageUrl: payload.from_url,
    pageId: null,
    payload: JSON.stringify(payload),
    jobId: null,
  })
}
