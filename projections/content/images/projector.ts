import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * client_images, as the image events say: a stored image is upserted with the values its event carries (a
 * new version replaces the row's file fields, the sync columns stay); a type update sets the type and the
 * attachment, and the push time when that event recorded the attachment.
 */
const clientImagesProjector: Projector = eachEvent({
  name: 'content_client_images',
  handlers: {
    async ClientImageStored(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const values = {
        filename: d.filename,
        image_type: d.image_type,
        alt_text: d.alt_text,
        title: d.title,
        page_id: d.page_id,
        source_url: d.source_url,
        version: d.version,
        format: d.format,
        content_type: d.content_type,
        width: d.width,
        height: d.height,
        bytes: d.bytes,
        sha256: d.sha256,
        path: d.path,
        webp_path: d.webp_path,
        webp_width: d.webp_width,
        webp_height: d.webp_height,
        webp_bytes: d.webp_bytes,
        updated_at: at,
      }
      await db
        .insertInto('client_images')
        .values({ id: d.image_id, org_id: orgIdOf(event), client_id: d.client_id, ...values, created_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute()
    },
    async ClientImageTypeUpdated(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('client_images')
        .set({
          image_type: d.image_type,
          wp_attachment_id: d.wp_attachment_id,
          pushed_sha256: d.pushed_sha256,
          ...(d.attachment_recorded ? { pushed_at: at } : {}),
          updated_at: at,
        })
        .where('id', '=', d.image_id)
        .execute()
    },
  },
})

/** The images sub-area's projectors. */
export const imagesProjectors: readonly Projector[] = [clientImagesProjector]
