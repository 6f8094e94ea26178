import { PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { ERRORS, type ErrorCode } from '../errors.js'
import { defaultLimitOf, type RegisteredRpc } from '../registry.js'
import { API_VERSION } from '../version.js'
import { areaReferenceSection } from './area-guides.js'
import type { DocsContext } from './context.js'
import { deprecationOf } from './deprecation.js'
import { publishedLimits } from './limits.js'
import { mcpSection } from './mcp-md.js'
import { jsonSchemaOf, paramDocs, resultSchema, typeLabel } from './schema.js'
import { WORKFLOWS } from './workflows.js'

/** Markdown table cells: no pipes or line breaks from descriptions. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

function methodSection(rpc: RegisteredRpc): string[] {
  const d = rpc.definition
  const facts = [
    `access **${d.access}**`,
    d.orgScoped ? 'organization-scoped' : null,
    d.platformOnly ? 'platform keys only' : null,
    d.paginated ? `paginated (limit ≤ ${d.paginated.maxLimit}, default ${defaultLimitOf(d.paginated)})` : null,
  ].filter((f) => f !== null)
  const lines = [`### ${d.name}`, '', d.summary, '', `\`POST /api/v1/rpc/${d.name}\` · ${facts.join(' · ')}`, '']
  const deprecation = deprecationOf(rpc)
  if (deprecation) {
    lines.push(
      `> **Deprecated** since ${deprecation.since}; sunset ${deprecation.sunset}.${deprecation.replacement ? ` Use [\`${deprecation.replacement}\`](#${deprecation.replacement}).` : ''}`,
      '',
    )
  }
  const params = paramDocs(rpc)
  if (params.length === 0) lines.push('Parameters: none.', '')
  else {
    lines.push('| parameter | type | required | default | description |', '|---|---|---|---|---|')
    for (const p of params) {
      lines.push(
        `| \`${p.name}\` | ${cell(p.type)} | ${p.required ? 'yes' : 'no'} | ${p.default === undefined ? '' : cell(`\`${JSON.stringify(p.default)}\``)} | ${cell(p.description ?? '')} |`,
      )
    }
    lines.push('')
  }
  lines.push(`Result: \`${cell(typeLabel(resultSchema(rpc)))}\``, '')
  return lines
}

const PYTHON_VERIFY = `import hashlib, hmac, time

def verify(secret: str, header: str, raw_body: bytes, tolerance: int = 300) -> bool:
    """header is X-Service-Signature: t=<unix>,v1=<hex>"""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    t, v1 = parts.get("t", ""), parts.get("v1", "")
    if not t.isdigit() or abs(time.time() - int(t)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, v1)`

const NODE_VERIFY = `import { createHmac, timingSafeEqual } from 'node:crypto'

export function verify(secret, header, rawBody, tolerance = 300) {
  // header is X-Service-Signature: t=<unix>,v1=<hex>; rawBody is the Buffer as received, before parsing
  const parts = Object.fromEntries(header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]))
  const t = Number(parts.t)
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > tolerance) return false
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest()
  const given = Buffer.from(parts.v1 ?? '', 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}`

/** GET /developers.md and /llms-full.txt: the full guide, generated from the registries. */
export function developersMd(ctx: DocsContext): string {
  const rpcs = ctx.registry.all().sort((a, b) => a.definition.name.localeCompare(b.definition.name))
  const domains = [...new Set(rpcs.map((r) => r.definition.domain))].sort()
  const limits = publishedLimits(ctx)
  const base = ctx.baseUrl
  const out: string[] = [
    '# RankRelay API guide',
    '',
    `API version ${API_VERSION}, served at \`${base}/api/v1\`. This guide is generated from the service's registry, so it lists exactly the methods this server answers. Machine-readable: [OpenAPI 3.1](${base}/api/v1/openapi.json), [capabilities](${base}/api/v1/capabilities) (with auth).`,
    '',
    '## Contents',
    '',
    '- [Authentication](#authentication)',
    '- [Calling methods](#calling-methods)',
    '- [Workflows](#workflows)',
    '- [Methods](#methods)',
    '- [MCP](#mcp)',
    '- [Jobs](#jobs)',
    '- [Webhooks](#webhooks)',
    '- [Errors](#errors)',
    '- [Limits](#limits)',
    '- [Versioning](#versioning)',
    '- [Security](#security)',
    '- [Area reference](#area-reference)',
    '',
    '## Authentication',
    '',
    ...(ctx.sandboxKey
      ? [
          `**Sandbox.** Try every read method without an account with the published read-only key \`${ctx.sandboxKey}\`: it reads the fictional *Sandbox Agency* and its client (months of AI Visibility history); writes answer 403 \`sandbox_read_only\`.`,
          '',
        ]
      : []),
    'Every request except the public documents carries `Authorization: Bearer <token>`:',
    '',
    '- an **API key** (`rrk_…`), issued by the platform administrator or minted by an organization owner (`create_api_key`); shown once, never recoverable, only revocable;',
    `- an **OAuth access token** (\`rro_…\`, 60 minutes) for third-party apps and MCP clients: authorization code with PKCE (S256) at \`${base}/oauth/authorize\` and \`${base}/oauth/token\`, dynamic registration at \`${base}/oauth/register\`; refresh tokens (\`rrr_…\`) rotate.`,
    '',
    "Scopes: `read` (read methods), `write` (write methods; a key without it is read-only), `jobs` (background jobs). An **organization key** is confined to its organization: `org_id` is injected and another organization's records answer exactly like missing ones (404). A **platform key** (partner/service account) passes `org_id` explicitly.",
    '',
    `A refused credential answers 401 with \`WWW-Authenticate: Bearer realm="RankRelay", resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1/mcp"\` (plus \`error="invalid_token"\` when a token was sent); a call the credential lacks the scope for answers 403 \`insufficient_scope\` with \`error="insufficient_scope", scope="<scope>"\` in the same header.`,
    '',
    '## Calling methods',
    '',
    '```sh',
    `curl -s -X POST ${base}/api/v1/rpc/get_all_clients \\`,
    "  -H \"Authorization: Bearer $KEY\" -H 'Content-Type: application/json' -d '{}'",
    '# {"result":[...]}',
    '```',
    '',
    '- Body: a JSON object of the keyword arguments (unknown keys are refused); answer `200 {"result": <value>}`.',
    '- Errors: `{error, code, detail?, hint?, request_id}` with the HTTP status of the code ([table](#errors)), also for requests refused before any route (malformed HTTP, oversized headers). Act on `code`; `hint` says what to try next; quote `request_id` (the `X-Request-Id` header) when reporting a problem.',
    '- Writes answer once the read models show them (read-your-writes); `X-Read-Your-Writes: timeout` says the wait was cut short.',
    '- A write that lost the race for its record to other writers on every retry answers 409 `concurrency_conflict` with `Retry-After` (seconds): send it again then. While the database is unreachable, calls answer 503 `store_unavailable` with `Retry-After`.',
    '- `Idempotency-Key` (at most 200 characters) on `POST /api/v1/rpc/*` and `POST /api/v1/jobs`: a retry with the same key and body replays the first answer (`Idempotency-Replayed: true`) for 24 hours; the same key with another body is 409 `idempotency_key_reused`.',
    `- **Pagination**: methods marked *paginated* accept \`limit\` (1 to the method's maximum, at most ${limits.pagination.max_limit}) and \`offset\` (rows to skip, in the method's order). A \`limit\` over the maximum is refused with 400 \`validation_failed\` naming it, never silently clamped. Other methods return the full set.`,
    '- Every `/api/v1` response carries `X-Service-API-Version`, `X-Request-Id` and the rate-limit headers `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (seconds until the per-minute window resets); over the limit, 429 `rate_limited` with `Retry-After`.',
    '',
    `- **Python SDK**: \`pip install ${base}/sdk/rankrelay-latest.tar.gz\` (index at \`${base}/sdk/\`): one typed method per RPC, job polling and webhook verification, standard library only.`,
    `- **Table reads**: \`GET ${base}/api/v1/db/<table>?where_<column>=<value>&limit=&offset=\` reads an allowed read-model table with equality filters, scoped to your organization; \`GET ${base}/api/v1/db\` lists the tables.`,
    '',
    '## Workflows',
    '',
  ]
  for (const workflow of WORKFLOWS) {
    out.push(`### ${workflow.summary}`, '', workflow.description, '')
    workflow.steps.forEach((step, i) => {
      out.push(`${i + 1}. \`${step.operationId}\`: ${step.description}`)
    })
    out.push('')
  }
  out.push('## Methods', '', `${rpcs.length} methods in ${domains.length} domains. Each is \`POST /api/v1/rpc/<name>\`.`, '')
  for (const domain of domains) {
    out.push(`## Domain: ${domain}`, '')
    for (const rpc of rpcs.filter((r) => r.definition.domain === domain)) out.push(...methodSection(rpc))
  }
  out.push(...mcpSection(ctx))
  out.push(
    '## Jobs',
    '',
    '`POST /api/v1/jobs` `{kind, client_id?, group_id?, org_id?, meter?, payload?}` (scopes `write` and `jobs`; accepts `Idempotency-Key`) answers 202 `{job_id, status_url}`; poll `GET /api/v1/jobs/{job_id}` until `status` is `done`, `failed` or `cancelled` (or take the `job.completed` webhook). The record shows `progress` while running, `result` when done, `error` and `failure_reason` (`error`: the job itself failed; `watchdog`: its worker stopped) when failed.',
    '',
    '`POST /api/v1/jobs/{job_id}/cancel` cancels: a queued job answers 200 with status `cancelled`; a running one answers 202 with `cancel_requested: true` and ends `cancelled` at its next check. A finished job answers 409 `job_already_terminal`.',
    '',
    "One active job per client (per organization for `export_org`): another request answers 409 `job_already_running`, whose detail names the active job's `status_url`; poll it, then retry. Unknown kinds, a missing `client_id` and payload fields that fail the kind's schema answer 400 naming the field (`kind`, `client_id`, `payload.<field>`).",
    '',
    `Kinds run here: ${ctx.jobKinds.length > 0 ? ctx.jobKinds.map((k) => `\`${k}\``).join(', ') : 'none yet (every kind answers 400 `job_kind_unavailable`)'}. Export flow: create an \`export_org\` job, poll it, download \`result.download_url\` (kept ${limits.export_retention_days} days).`,
    '',
    '## Webhooks',
    '',
    'Register with `register_webhook(url, events?, description?)`; the secret is shown once. Each delivery is a signed `POST` with `Content-Type: application/json` and the body:',
    '',
    '```json',
    '{"id": 123, "event": "aeo.capture.ingested", "created_at": "2026-01-31T12:00:00Z", "org_id": 1, "client_id": 7, "data": {}}',
    '```',
    '',
    'Headers: `X-Service-Event` (the event), `X-Service-Delivery` (the delivery id), `X-Service-Timestamp` (unix seconds), `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.',
    'The body `id` is the event number: the same in every delivery and redelivery of an event, to every webhook, and in the feed below; deduplicate on it (delivery is at least once). A webhook receives its events in order: a later event waits while an earlier one is still being retried. `test_webhook` (a `ping`) and `redeliver_webhook` send at once, outside that order. URLs must be https on a host that resolves to public addresses (http only for localhost); they are checked again on every connection. `list_webhook_deliveries` shows every attempt.',
    '',
    "Catching up after downtime: `GET /api/v1/events?after=<cursor>&limit=<n>` (read scope) returns `{events, next_cursor, has_more}`: the organization's events in order, each with exactly the body a delivery carries. Start without `after`, then pass back `next_cursor`.",
    `Answer 2xx within ${limits.webhooks.response_timeout_seconds} seconds; anything else is retried (${limits.webhooks.attempts} attempts, backoff 1 to 64 minutes); a webhook is disabled after ${limits.webhooks.disabled_after_consecutive_failures} consecutive failures. Reject a delivery whose \`t\` is more than ${limits.webhooks.timestamp_tolerance_seconds} seconds from now.`,
    '',
    '| event | emitted when | data |',
    '|---|---|---|',
  )
  for (const event of PUBLIC_EVENTS)
    out.push(`| \`${event.name}\` | ${cell(event.emittedWhen)} | ${cell(`\`${typeLabel(jsonSchemaOf(event.data, 'output'))}\``)} |`)
  out.push(
    '',
    'Verify the signature over the **raw** body, before parsing it. Python:',
    '',
    '```python',
    PYTHON_VERIFY,
    '```',
    '',
    'Node.js:',
    '',
    '```js',
    NODE_VERIFY,
    '```',
    '',
    '## Errors',
    '',
    '| code | status | meaning | hint |',
    '|---|---|---|---|',
  )
  for (const code of Object.keys(ERRORS) as ErrorCode[]) {
    const e = ERRORS[code]
    out.push(`| \`${code}\` | ${e.status} | ${cell(e.message)} | ${cell(e.hint ?? '')} |`)
  }
  out.push(
    '',
    '## Limits',
    '',
    '| limit | value |',
    '|---|---|',
    `| request body | ${limits.body_limit_bytes} bytes (413 \`body_too_large\`) |`,
    `| page size | per method, at most ${limits.pagination.max_limit}; offset at most ${limits.pagination.max_offset} |`,
    `| Idempotency-Key | at most ${limits.idempotency_key_max_length} characters; replayed for ${limits.idempotent_replay_hours} hours |`,
    `| rate limit | ${limits.rate_limit.default_per_minute} requests per minute per key by default (a key may have its own); 429 \`rate_limited\` with Retry-After |`,
    `| webhook response time | ${limits.webhooks.response_timeout_seconds} seconds |`,
    `| webhook timestamp tolerance | ${limits.webhooks.timestamp_tolerance_seconds} seconds |`,
    `| OAuth | access token ${limits.oauth.access_token_minutes} minutes, refresh token ${limits.oauth.refresh_token_days} days (sliding), code ${limits.oauth.authorization_code_minutes} minutes |`,
    '',
    '## Versioning',
    '',
    `The API is path-versioned (\`/api/v1\`); every \`/api\` response carries \`X-Service-API-Version\`. Additive changes may appear at any time ([changelog](${base}/changelog.md)); ignore fields you do not know. A method is retired only after ${limits.deprecation_notice_days} days of notice: the \`api.deprecation\` webhook event, \`deprecated\` in capabilities and OpenAPI, and on every call the headers \`Deprecation: @<unix seconds>\` (RFC 9745), \`Sunset: <HTTP-date>\` (RFC 8594) and \`Link: <…/changelog.md#deprecations>; rel="deprecation"\` plus \`rel="successor-version"\` to the replacement.`,
    '',
    '## Security',
    '',
    `Report vulnerabilities to ${ctx.securityContact.replace(/^mailto:/, '')} ([security.txt](${base}/.well-known/security.txt)). Keys are stored as sha256 only; a lost key cannot be recovered, only revoked.`,
    '',
  )
  // Last, so the guide's own sections (and the first code block of each language) come first.
  out.push(...areaReferenceSection(base))
  return out.join('\n')
}
