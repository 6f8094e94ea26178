import { parseRedirectPayload, REDIRECT_OPERATION } from '../../../domain/publishing/redirects/redirect-payload.js'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * redirects: one row per site edit of operation `redirect`, keyed by the edit id, read from the site edit
 * events. A staged edit whose payload is not a redirect (staged before create_site_edit checked it) has no
 * row. An apply only moves a proposed row and a rollback is final, so a redelivered event writes what it
 * wrote the first time.
 */
const redirectsProjector: Projector = eachEvent({
  name: 'publishing_redirects',
  handlers: {
    async SiteEditStaged(db, event) {
      const d = event.data
      if (d.operation !== REDIRECT_OPERATION) return
      const parsed = parseRedirectPayload(d.payload)
      if ('problem' in parsed) return
      const p = parsed.payload
      const at = occurredAt(event)
      await db
        .insertInto('redirects')
        .values({
          id: d.edit_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          edit_id: d.edit_id,
          from_url: p.from_url,
          to_url: p.to_url,
          status_code: p.status_code,
          action_item_id: p.action_item_id ?? null,
          to_page_id: p.to_page_id ?? null,
          status: 'proposed',
          publisher: null,
          remote_id: null,
          applied_at: null,
          rolled_back_at: null,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SiteEditApplied(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('redirects')
        .set({
          status: 'applied',
          publisher: event.data.publisher,
          // The site's own id when a site publisher created it there (the Redirection plugin's).
          remote_id: event.data.remote?.kind === 'wordpress_redirect' ? String(event.data.remote.redirect_id) : null,
          applied_at: at,
          updated_at: at,
        })
        .where('id', '=', event.data.edit_id)
        .where('status', '=', 'proposed')
        .execute()
    },
    async SiteEditRolledBack(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('redirects')
        .set({ status: 'rolled_back', rolled_back_at: at, updated_at: at })
        .where('id', '=', event.data.edit_id)
        .execute()
    },
  },
})

/** The redirects sub-area's projectors. */
export const redirectsProjectors: readonly Projector[] = [redirectsProjector]
