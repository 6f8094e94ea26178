import { isToolRpc } from '../mcp/registry-tools.js'
import type { DocsContext } from './context.js'

/**
 * The "MCP" section of developers.md: how an MCP host connects, what the tools, resources and prompts are,
 * and how refusals arrive. Counts come from the registry, so the text never goes stale.
 */
export function mcpSection(ctx: DocsContext): string[] {
  const base = ctx.baseUrl
  const rpcs = ctx.registry.all()
  const tools = rpcs.filter(isToolRpc).length
  const served = ctx.isServed('POST', '/api/v1/mcp')
  const oauthServed = ctx.isServed('POST', '/oauth/token')
  return [
    '## MCP',
    '',
    ...(served ? [] : ['**Not yet served by this version.**', '']),
    `\`POST ${base}/api/v1/mcp\` is a [Model Context Protocol](https://modelcontextprotocol.io) server over **stateless Streamable HTTP**: each POST carries one JSON-RPC 2.0 message (or a batch) and gets a JSON answer; a notification answers 202 without a body. There is no session and no event stream: \`GET\` and \`DELETE\` answer 405 (\`Allow: POST\`). An \`Accept\` header that allows JSON is enough.`,
    '',
    'Connect a host with the same bearer credential as REST (an `rrk_` key, or an `rro_` OAuth access token), for example:',
    '',
    '```json',
    `{"mcpServers": {"rankrelay": {"type": "http", "url": "${base}/api/v1/mcp", "headers": {"Authorization": "Bearer rrk_..."}}}}`,
    '```',
    '',
    `**Which tool list to use.** An agent should connect to \`${base}/api/v1/mcp?tools=compact\` (or send \`X-MCP-Tools: compact\`): the same tools, each with a short description tagged \`[domain]\` that ends with its parameters (\`name?\` is optional), grouped by domain, with an open input schema, in under a quarter of the full list's size (the full list is about 28,000 tokens). Call \`describe_rpc\` for a tool's full schema before its first call; calls behave the same in both modes. The full list (the default, or \`?tools=full\`) suits hosts that show tool forms to people. Any other value answers 400 \`validation_failed\`.`,
    '',
    `- **Tools**: the ${tools} organization-scoped RPC methods, each a tool of its own (name, summary and parameters as in [Methods](#methods); input schema = the method's parameters; \`readOnlyHint\` on reads, \`destructiveHint\` on deletes), plus \`list_rpcs\` (every method, and which tool calls it), \`describe_rpc\` (one method's parameter and result schemas) and \`call_rpc(method, params)\` for the other ${rpcs.length - tools} methods (platform and agent plumbing) or any method by name.`,
    '- **Results**: the RPC result as JSON text, and as `structuredContent: {"result": …}` (the REST body). A write answers once the read models show it (`_meta["rankrelay/read_your_writes"]`).',
    '- **Errors**: a refused or failed call is a tool result with `isError: true` carrying the error envelope `{error, code, detail, hint, request_id}` (plus `status`, the REST status): act on `code`, follow `hint`. An unknown tool, resource or prompt is a JSON-RPC error.',
    `- **Credentials**: a tool call runs exactly the REST path (same scopes, organization isolation, writes switch, audit: events record your key or token as actor). Refusals about the credential itself are HTTP statuses, as the MCP authorization specification expects: 401 with \`WWW-Authenticate: Bearer …, resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1/mcp"\`; 403 \`insufficient_scope\` with \`error="insufficient_scope", scope="write"\` when a read-only credential calls a write tool (or \`call_rpc\` with a write method); 403 \`sandbox_read_only\` for the sandbox key. A batch containing such a call is refused whole.`,
    "- **Limits**: every JSON-RPC message counts against the key's per-minute rate limit like one REST call (a batch of n messages counts n), and every answer carries the `X-RateLimit-*` headers; a batch that does not fit in what is left of the window is refused whole with 429 `rate_limited` and `Retry-After`, before any of its calls runs. Usage is metered per message, a tool call under its RPC's name.",
    `- **Resources**: [${base}/developers.md](${base}/developers.md) (this guide), [${base}/llms.txt](${base}/llms.txt) and [${base}/api/v1/openapi.json](${base}/api/v1/openapi.json), generated at read time like their HTTP twins.`,
    '- **Prompts**: one per [workflow](#workflows) (optional argument `client_id`), naming the tool (or HTTP operation) of each step.',
    `- **OAuth discovery**: [${base}/.well-known/oauth-protected-resource/api/v1/mcp](${base}/.well-known/oauth-protected-resource/api/v1/mcp) (RFC 9728) names this service as the authorization server.${oauthServed ? '' : ' Its OAuth endpoints are specified but not served by this version yet: use an API key until they are.'}`,
    '',
  ]
}
