import { pageUrlKey } from '../../../domain/pages/url.js'
import { eachEvent } from '../../each-event.js'
import { orgIdOf, type Projector } from '../../projector.js'

/**
 * page_renders: one row per PageRendered (a render id is one URL of one scan, recorded once). rendered_at is
 * the event's own field (when Chromium rendered the page), so a rebuild reproduces it.
 */
const pageRendersProjector: Projector = eachEvent({
  name: 'page_renders',
  handlers: {
    async PageRendered(db, event) {
      const d = event.data
      await db
        .insertInto('page_renders')
        .values({
          render_id: d.render_id,
          scan_id: d.scan_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          page_url: d.page_url,
          url_key: pageUrlKey(d.page_url),
          page_id: d.page_id,
          final_url: d.final_url,
          status: d.status,
          html_path: d.html?.path ?? null,
          html_bytes: d.html?.bytes ?? null,
          html_truncated: d.html_truncated,
          screenshot_path: d.screenshot?.path ?? null,
          screenshot_bytes: d.screenshot?.bytes ?? null,
          screenshot_width: d.screenshot?.width ?? null,
          screenshot_height: d.screenshot?.height ?? null,
          content_hash: d.content_hash,
          snapshot_id: d.snapshot_id,
          requests_blocked: d.requests_blocked,
          blocked_urls: JSON.stringify(d.blocked_urls),
          error_code: d.error?.code ?? null,
          error_message: d.error?.message ?? null,
          rendered_at: d.rendered_at,
        })
        .onConflict((oc) => oc.column('render_id').doNothing()) // applied twice: the same row
        .execute()
    },
  },
})

/** The renders sub-area's projectors. */
export const rendersProjectors: readonly Projector[] = [pageRendersProjector]
