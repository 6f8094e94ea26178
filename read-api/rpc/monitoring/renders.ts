import { z } from 'zod'
import { visibleClient } from '../../../projections/clients/queries.js'
import { latestRender } from '../../../projections/monitoring/renders/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'monitoring'

const FilePath = z.string().describe('The blob path of the file')
const FileUrl = z.string().describe('Where to download it: GET with the organization’s key (read scope)')

const RenderViewSchema = z.object({
  render_id: z.string().describe('The render: "<scan_id>-<16 hex of the URL>", one per URL per render scan'),
  scan_id: z.number().int().describe('The render scan that made it (get_scan_session)'),
  client_id: ClientId,
  page_url: z.string().describe('The URL rendered'),
  page_id: z.number().int().nullable().describe('The page its snapshot belongs to; null when the render failed'),
  final_url: z.string().nullable().describe('Where the page ended after redirects; null when the render failed'),
  status: z.number().int().nullable().describe('The HTTP status of the page’s document; null when the render failed before one came'),
  rendered_at: z.string().describe('When Chromium rendered it (ISO 8601, UTC)'),
  html: z
    .object({
      path: FilePath,
      url: FileUrl,
      bytes: z.number().int().describe('Its size in bytes'),
      truncated: z.boolean().describe('The page’s document was larger than the page-size cap and was cut there before rendering'),
    })
    .nullable()
    .describe(
      'The rendered HTML (the DOM after the scripts ran), served sandboxed; null when the render failed (and in the public sandbox, whose renders are fiction)',
    ),
  screenshot: z
    .object({
      path: FilePath,
      url: FileUrl,
      bytes: z.number().int().describe('Its size in bytes'),
      width: z.number().int().describe('PNG width in pixels (1280)'),
      height: z.number().int().describe('PNG height in pixels: the whole page, cut at 12,000'),
    })
    .nullable()
    .describe('A full-page PNG screenshot; null when the render failed (and in the public sandbox)'),
  content_hash: z.string().nullable().describe('The rendered page state’s content hash (equal hashes: same content)'),
  snapshot_id: z
    .number()
    .int()
    .nullable()
    .describe('The snapshot this render recorded (source render); null when the content was unchanged since the last render, or failed'),
  requests_blocked: z.number().int().describe('Requests of the page refused (a private address, or past the render’s budgets): never sent'),
  blocked_urls: z.array(z.string()).describe('Up to 20 of those refused request URLs'),
  error: z
    .object({
      code: z.string().describe('address_refused | timeout | connection_failed | render_failed'),
      message: z.string().describe('What happened'),
    })
    .nullable()
    .describe('Why the render failed; null when it rendered (whatever the HTTP status)'),
})

export const rendersRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_latest_render',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The newest render of a URL of the client (a render scan: start_site_scan with scan_type render): when it was rendered, the ' +
      'HTTP status, the rendered HTML and a full-page PNG screenshot as file URLs (/api/v1/files/…), their sizes, the page and ' +
      'snapshot it recorded, and the error when it failed. URLs compare as pages do (scheme and host case, trailing slash and ' +
      'fragment ignored). null when the URL was never rendered.',
    example: {
      params: { client_id: 34, url: 'https://acme-plumbing.example/services' },
      result: {
        render_id: '88-3f2a9c0d1e4b5a67',
        scan_id: 88,
        client_id: 34,
        page_url: 'https://acme-plumbing.example/services',
        page_id: 120,
        final_url: 'https://acme-plumbing.example/services',
        status: 200,
        rendered_at: '2026-03-02T06:14:09.120Z',
        html: {
          path: 'renders/12/34/88/3f2a9c0d1e4b5a67.html',
          url: '/api/v1/files/renders/12/34/88/3f2a9c0d1e4b5a67.html',
          bytes: 48213,
          truncated: false,
        },
        screenshot: {
          path: 'renders/12/34/88/3f2a9c0d1e4b5a67.png',
          url: '/api/v1/files/renders/12/34/88/3f2a9c0d1e4b5a67.png',
          bytes: 391822,
          width: 1280,
          height: 3412,
        },
        content_hash: '9b1f0c3e6a7d4b2f8e5c1a0d9f3b7e2c4a6d8f0b1c3e5a7d9f2b4c6e8a0d1f3b',
        snapshot_id: 5531,
        requests_blocked: 1,
        blocked_urls: ['http://169.254.169.254/latest/meta-data/'],
        error: null,
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      url: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('The page URL (as get_pages_for_client lists it, or the website URL for the home page)'),
    }),
    result: RenderViewSchema.nullable(),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return latestRender(ctx.read, client.id, ctx.params.url)
    },
  }),
]
