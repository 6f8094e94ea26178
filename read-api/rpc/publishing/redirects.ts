import { z } from 'zod'
import { REDIRECT_STATUS_CODES } from '../../../domain/publishing/redirects/redirect-payload.js'
import { Id } from '../../../domain/shared/values.js'
import { SITE_EDIT_STATUSES, type SiteEditStatus } from '../../../domain/site-edits/site-edit.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { redirectsForClient } from '../../../projections/publishing/redirects/queries.js'
import type { AnyRpc } from '../../registry.js'
import { rpc } from '../../registry.js'
import { ClientId, EditId } from '../ids.js'

const domain = 'publishing'

const RedirectSchema = z
  .object({
    id: Id.describe('The redirect (the id of the site edit that carries it)'),
    client_id: ClientId,
    edit_id: EditId,
    from_url: z.string().describe("Where requests are redirected from: a path or an absolute URL of the client's site"),
    to_url: z.string().describe('Where they are sent: a path of the site or an absolute URL'),
    status_code: z
      .number()
      .int()
      .describe(`The HTTP status the site answers with: ${REDIRECT_STATUS_CODES.join(', ')}`),
    action_item_id: Id.nullable().describe('The action item the redirect carries out, when one staged it'),
    to_page_id: Id.nullable().describe("The client's page it points to, when known"),
    status: z
      .enum(SITE_EDIT_STATUSES as [SiteEditStatus, ...SiteEditStatus[]])
      .describe('The edit: proposed (staged), applied (live), rolled_back (removed)'),
    publisher: z.string().nullable().describe('Who published it (built-in, or the site publisher); null until applied'),
    remote_id: z
      .string()
      .nullable()
      .describe("The site's own id for the redirect (the Redirection plugin's), once a site publisher records it"),
    applied_at: z.string().nullable().describe('When it was applied (ISO 8601)'),
    rolled_back_at: z.string().nullable().describe('When it was rolled back (ISO 8601)'),
    created_at: z.string().describe('When the edit was staged (ISO 8601)'),
  })
  .describe("A redirect on the client's site, as a site edit of operation redirect")

export const redirectsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'list_redirects',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's redirects, newest first: every site edit of operation redirect (staged by execute_tier_a or create_site_edit, applied and rolled back with apply_site_edit and rollback_site_edit). applied_only: only those live now.",
    example: {
      params: { client_id: 34, applied_only: true },
      result: [
        {
          id: 88,
          client_id: 34,
          edit_id: 88,
          from_url: 'https://acmeplumbing.com/services/drains-old',
          to_url: 'https://acmeplumbing.com/services/drain-cleaning',
          status_code: 301,
          action_item_id: 412,
          to_page_id: 210,
          status: 'applied' as const,
          publisher: 'built-in',
          remote_id: null,
          applied_at: '2026-11-27T10:05:00.000Z',
          rolled_back_at: null,
          created_at: '2026-11-27T09:40:12.000Z',
        },
      ],
    },
    params: z.strictObject({
      client_id: ClientId,
      applied_only: z.boolean().default(false).describe('Only applied redirects, live on the site (default false: every status)'),
    }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(RedirectSchema).describe("The client's redirects, newest first"),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return redirectsForClient(ctx.read, client.id, ctx.params.applied_only, ctx.page ?? { limit: 100, offset: 0 })
    },
  }),
]
