import type { Caller } from '../caller.js'
import { PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { defaultLimitOf } from '../registry.js'
import { API_VERSION } from '../version.js'
import type { DocsContext } from './context.js'
import { deprecationOf } from './deprecation.js'
import { publishedLimits } from './limits.js'
import { META_TOOLS } from '../mcp/meta-tools.js'
import { isToolRpc } from '../mcp/registry-tools.js'

/**
 * GET /api/v1/capabilities (auth): the machine-readable inventory, from the registry. `callable` says whether
 * this caller's key may call the method (scope, platform-only), so an agent can plan without trial and error.
 */
export function capabilitiesDocument(ctx: DocsContext, caller: Caller) {
  const rpcs = ctx.registry.all().sort((a, b) => a.definition.name.localeCompare(b.definition.name))
  const domains = new Map<string, number>()
  for (const rpc of rpcs) domains.set(rpc.definition.domain, (domains.get(rpc.definition.domain) ?? 0) + 1)
  return {
    api_version: API_VERSION,
    base_url: ctx.baseUrl,
    caller: { org_id: caller.orgId, scopes: caller.scopes, kind: caller.orgId === null ? 'platform' : 'organization' },
    domains: [...domains].map(([name, methods]) => ({ name, methods })),
    methods: rpcs.map((rpc) => {
      const d = rpc.definition
      const deprecation = deprecationOf(rpc)
      return {
        name: d.name,
        domain: d.domain,
        summary: d.summary,
        access: d.access,
        scopes: [d.access],
        org_scoped: d.orgScoped,
        platform_only: d.platformOnly === true,
        pagination: d.paginated ? { max_limit: d.paginated.maxLimit, default_limit: defaultLimitOf(d.paginated) } : null,
        deprecated: deprecation !== null,
        deprecation: deprecation ? { since: deprecation.since, sunset: deprecation.sunset, replacement: deprecation.replacement } : null,
        callable: caller.scopes.includes(d.access) && (!d.platformOnly || caller.orgId === null),
        endpoint: `POST /api/v1/rpc/${d.name}`,
      }
    }),
    job_kinds: [] as string[],
    job_kinds_note: 'The jobs API (POST /api/v1/jobs) is specified but not served by this version yet; no job kind can be started.',
    webhook_events: PUBLIC_EVENTS.map((e) => ({ name: e.name, emitted_when: e.emittedWhen })),
    limits: publishedLimits(ctx),
    sandbox: ctx.sandboxKey ? { key: ctx.sandboxKey, access: 'read-only; the fictional Sandbox Agency only' } : null,
    mcp: {
      endpoint: `${ctx.baseUrl}/api/v1/mcp`,
      transport: 'streamable-http, stateless, JSON responses',
      tools: rpcs.filter(isToolRpc).map((rpc) => rpc.definition.name),
      meta_tools: Object.keys(META_TOOLS),
      protected_resource_metadata: `${ctx.baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp`,
    },
    documents: {
      openapi: `${ctx.baseUrl}/api/v1/openapi.json`,
      guide: `${ctx.baseUrl}/developers.md`,
      llms_txt: `${ctx.baseUrl}/llms.txt`,
      changelog: `${ctx.baseUrl}/changelog.md`,
    },
  }
}
