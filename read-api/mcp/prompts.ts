import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { DocsContext } from '../docs/context.js'
import { openApiDocument } from '../docs/openapi.js'
import { WORKFLOWS, type Workflow } from '../docs/workflows.js'
import { isToolRpc } from './registry-tools.js'

/**
 * The documented workflows (read-api/docs/workflows.ts: AI Visibility, export, site edits, whatever it lists)
 * as MCP prompts: a host offers them to its user, and the text walks the model through the steps, naming the
 * tool for each step, or the HTTP operation when a step is not an RPC (jobs, downloads).
 */
export function listPrompts(): Prompt[] {
  return WORKFLOWS.map((w) => ({
    name: w.workflowId,
    title: w.summary,
    description: w.description,
    arguments: [
      {
        name: 'client_id',
        description: 'The client to work on (optional; without it, the model finds one with get_all_clients)',
        required: false,
      },
    ],
  }))
}

/** How a step's operation is reached from MCP: a tool, call_rpc, or an HTTP operation of the OpenAPI document. */
function reachOf(ctx: DocsContext, operationId: string, httpOperations: () => Map<string, string>): string {
  const rpc = ctx.registry.get(operationId)
  if (rpc) return isToolRpc(rpc) ? `tool \`${operationId}\`` : `\`call_rpc\` with method \`${operationId}\``
  const http = httpOperations().get(operationId)
  return http ? `HTTP \`${http}\` (not an MCP tool; operationId \`${operationId}\` in the OpenAPI resource)` : `\`${operationId}\``
}

function promptText(ctx: DocsContext, workflow: Workflow, clientId: number | undefined): string {
  let operations: Map<string, string> | undefined
  const httpOperations = () => {
    if (!operations) {
      operations = new Map()
      const paths = (openApiDocument(ctx).paths ?? {}) as Record<string, Record<string, { operationId?: string }>>
      for (const [path, methods] of Object.entries(paths)) {
        for (const [method, operation] of Object.entries(methods))
          if (operation.operationId) operations.set(operation.operationId, `${method.toUpperCase()} ${path}`)
      }
    }
    return operations
  }
  const lines = [
    `Goal: ${workflow.summary}`,
    '',
    workflow.description,
    '',
    clientId === undefined
      ? 'Start by finding the client with the get_all_clients tool.'
      : `Work on client ${clientId} (pass client_id: ${clientId}).`,
    '',
    'Steps:',
    ...workflow.steps.map((step, i) => `${i + 1}. ${reachOf(ctx, step.operationId, httpOperations)}: ${step.description}`),
    '',
    'A failed tool call answers {error, code, detail, hint}: act on the code and follow the hint. describe_rpc shows any method in full.',
  ]
  return lines.join('\n')
}

export function getPrompt(ctx: DocsContext, name: string, args: Record<string, string> | undefined): GetPromptResult {
  const workflow = WORKFLOWS.find((w) => w.workflowId === name)
  if (!workflow) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}. prompts/list lists the workflows`)
  const given = args?.client_id
  let clientId: number | undefined
  if (given !== undefined && given !== '') {
    clientId = Number(given)
    if (!Number.isSafeInteger(clientId) || clientId < 1)
      throw new McpError(ErrorCode.InvalidParams, `client_id must be a positive integer, not ${JSON.stringify(given)}`)
  }
  return {
    description: workflow.summary,
    messages: [{ role: 'user', content: { type: 'text', text: promptText(ctx, workflow, clientId) } }],
  }
}
