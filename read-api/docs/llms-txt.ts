import { API_VERSION } from '../version.js'
import type { DocsContext } from './context.js'
import { WORKFLOWS } from './workflows.js'

/** GET /llms.txt (llmstxt.org format): a short orientation for agents, pointing at the full documents. */
export function llmsTxt(ctx: DocsContext): string {
  const rpcs = ctx.registry.all()
  const domains = [...new Set(rpcs.map((r) => r.definition.domain))].sort()
  const lines = [
    '# RankRelay',
    '',
    `> Search tracking and AI Visibility (answer-engine optimization) for agencies and their AI agents. API v1 (${API_VERSION}) at ${ctx.baseUrl}/api/v1.`,
    '',
    'Every operation is an RPC: `POST /api/v1/rpc/<method>` with a JSON object of keyword arguments, answering `200 {"result": ...}`.',
    'Errors are `{error, code, detail?, hint?, request_id}`: act on `code`, and follow `hint`.',
    'Authenticate with `Authorization: Bearer <key>`: an `rrk_` API key or an `rro_` OAuth access token (authorization code + PKCE S256).',
    'Scopes: read (read methods), write (write methods), jobs. Organization keys are confined to their organization; `org_id` is injected for them.',
    `Methods: ${rpcs.length} in ${domains.length} domains (${domains.join(', ')}). Deny by default: a method not listed answers 403.`,
    'Paginated methods take `limit` and `offset`. Send `Idempotency-Key` on writes you may retry.',
    `MCP: \`${ctx.baseUrl}/api/v1/mcp\` (Streamable HTTP, stateless, same bearer credential): every organization-scoped method is a tool, plus list_rpcs, describe_rpc and call_rpc; the workflows are prompts.`,
    ...(ctx.sandboxKey
      ? [
          `Try it without an account: the read-only sandbox key \`${ctx.sandboxKey}\` reads a fictional agency (start with get_all_clients).`,
        ]
      : []),
    '',
    '## Documents',
    '',
    `- [Developer guide](${ctx.baseUrl}/developers.md): auth, every method with its parameters and result, errors, limits, webhooks (same text at ${ctx.baseUrl}/llms-full.txt)`,
    `- [OpenAPI 3.1](${ctx.baseUrl}/api/v1/openapi.json): machine-readable, with x-workflows`,
    `- [Capabilities](${ctx.baseUrl}/api/v1/capabilities): what your key may call (needs auth)`,
    `- [Changelog](${ctx.baseUrl}/changelog.md): additions and deprecations with sunset dates`,
    `- [Python SDK](${ctx.baseUrl}/sdk/): \`pip install ${ctx.baseUrl}/sdk/rankrelay-latest.tar.gz\` (standard library only)`,
    '',
    '## Workflows',
    '',
  ]
  for (const workflow of WORKFLOWS) {
    lines.push(`- ${workflow.summary}: ${workflow.steps.map((s) => s.operationId).join(' → ')}`)
  }
  lines.push('', '## Optional', '', `- [Security contact](${ctx.baseUrl}/.well-known/security.txt)`, '')
  return lines.join('\n')
}
