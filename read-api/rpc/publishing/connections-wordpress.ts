import { z } from 'zod'
import { checkClientConnection, setClientWordPress } from '../../../commands/publishing/connections.js'
import { wordPressSiteChecker } from '../../../commands/publishing/connections/site-check.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { wordPressConnectionView } from '../../../projections/publishing/connections/queries.js'
import { ApiError } from '../../errors.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'
import { connectionRowAfterWrite, serviceKeyOf, wordPressSettingsOf } from './connections-settings.js'
import { exampleCheck, exampleConnection, SiteCheckSchema, WordPressConnectionSchema } from './connections-schemas.js'

const domain = 'publishing'

/** The methods that reach the client's WordPress site: connect (checked first) and check again. */
export const wordPressConnectionRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'set_client_wordpress',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Connect the client's WordPress site: its address, a WordPress user and an application password for that user (Users → Profile → " +
      'Application Passwords). The site is checked first through its REST API with these credentials; a failed check refuses with ' +
      'site_check_failed (detail: the category, e.g. auth for a wrong password, and what the site answered) and records nothing, unless ' +
      'save_unverified is true. An address that resolves to a private address is refused (site_url_refused) either way. The password is ' +
      'sealed with the service key and never returned. Replaces any WordPress connection before. Returns the connection with its check.',
    params: z.strictObject({
      client_id: ClientId,
      base_url: z.string().min(1).max(2048).describe("The site's address, e.g. https://example.com (a /wp-json suffix is dropped)"),
      username: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .describe('The WordPress user the application password belongs to (an Editor or Administrator)'),
      application_password: z
        .string()
        .min(1)
        .max(200)
        .describe('The application password as WordPress shows it once (spaces allowed); never returned'),
      save_unverified: z
        .boolean()
        .default(false)
        .describe('true: save the connection even when the check fails (marked verified false); default false'),
    }),
    result: WordPressConnectionSchema,
    example: {
      params: {
        client_id: 34,
        base_url: 'https://rapidrooterplumbing.com',
        username: 'rankrelay',
        application_password: 'abcd EFGH 1234 ijkl MNOP 5678',
      },
      result: exampleConnection,
    },
    async handler(ctx) {
      const p = ctx.params
      // Visible and live before anything reaches the site (another organization's client: 404, nothing sent).
      await visibleClient(ctx.read, ctx.orgId, p.client_id)
      await setClientWordPress(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        baseUrl: p.base_url,
        username: p.username,
        applicationPassword: p.application_password,
        saveUnverified: p.save_unverified,
        serviceKey: serviceKeyOf(ctx.settings),
        check: wordPressSiteChecker(wordPressSettingsOf(ctx.settings)),
      })
      await ctx.settle()
      const view = wordPressConnectionView(await connectionRowAfterWrite(ctx, p.client_id))
      if (!view) throw new ApiError('internal_error', 'the connection was recorded but is not readable yet')
      return view
    },
  }),
  rpc({
    name: 'check_client_connection',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Check the client's WordPress connection now: the REST API, the application password, and what the site runs (WordPress version, " +
      'theme, plugins). Every check is recorded, ok or not (get_client_wordpress shows the last; get_plugin_states the plugins). A client ' +
      'without a WordPress connection answers site_not_connected. Returns the check.',
    params: z.strictObject({ client_id: ClientId }),
    result: SiteCheckSchema,
    example: { params: { client_id: 34 }, result: exampleCheck },
    async handler(ctx) {
      const p = ctx.params
      await visibleClient(ctx.read, ctx.orgId, p.client_id)
      await checkClientConnection(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        serviceKey: serviceKeyOf(ctx.settings),
        check: wordPressSiteChecker(wordPressSettingsOf(ctx.settings)),
      })
      await ctx.settle()
      const check = wordPressConnectionView(await connectionRowAfterWrite(ctx, p.client_id))?.last_check
      if (!check) throw new ApiError('internal_error', 'the check was recorded but is not readable yet')
      return check
    },
  }),
]
