import { pageUrlKey } from '../../../domain/pages/url.js'
import type { ReadDb } from '../../tables.js'

export interface RenderView {
  render_id: string
  scan_id: number
  client_id: number
  page_url: string
  page_id: number | null
  final_url: string | null
  status: number | null
  rendered_at: string
  html: { path: string; url: string; bytes: number; truncated: boolean } | null
  screenshot: { path: string; url: string; bytes: number; width: number; height: number } | null
  content_hash: string | null
  snapshot_id: number | null
  requests_blocked: number
  blocked_urls: string[]
  error: { code: string; message: string } | null
}

const fileUrl = (path: string) => `/api/v1/files/${path}`

/** The newest render of a client's URL (compared as pages are: domain/pages/url.ts), or null when none. */
export async function latestRender(read: ReadDb, clientId: number, url: string): Promise<RenderView | null> {
  const row = await read
    .selectFrom('page_renders')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('url_key', '=', pageUrlKey(url))
    .orderBy('rendered_at', 'desc')
    .orderBy('render_id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return null
  return {
    render_id: row.render_id,
    scan_id: Number(row.scan_id),
    client_id: Number(row.client_id),
    page_url: row.page_url,
    page_id: row.page_id === null ? null : Number(row.page_id),
    final_url: row.final_url,
    status: row.status,
    rendered_at: new Date(row.rendered_at).toISOString(),
    html:
      row.html_path === null
        ? null
        : { path: row.html_path, url: fileUrl(row.html_path), bytes: Number(row.html_bytes), truncated: row.html_truncated },
    screenshot:
      row.screenshot_path === null
        ? null
        : {
            path: row.screenshot_path,
            url: fileUrl(row.screenshot_path),
            bytes: Number(row.screenshot_bytes),
            width: row.screenshot_width ?? 0,
            height: row.screenshot_height ?? 0,
          },
    content_hash: row.content_hash,
    snapshot_id: row.snapshot_id === null ? null : Number(row.snapshot_id),
    requests_blocked: row.requests_blocked,
    blocked_urls: row.blocked_urls,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
  }
}
