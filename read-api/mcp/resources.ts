import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import type { DocsContext } from '../docs/context.js'
import { developersMd } from '../docs/developers-md.js'
import { llmsTxt } from '../docs/llms-txt.js'
import { openApiDocument } from '../docs/openapi.js'

/** MCP's "resource not found" error code (specification, Resources: error handling). */
const RESOURCE_NOT_FOUND = -32002

interface Document {
  readonly path: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: string
  readonly render: (ctx: DocsContext) => string
}

/**
 * The public documents as MCP resources. Their URIs are the documents' own public URLs, so a host can show or
 * fetch them either way; the text is generated from the registry at read time, as over HTTP.
 */
const DOCUMENTS: readonly Document[] = [
  {
    path: '/developers.md',
    name: 'developers.md',
    title: 'RankRelay API guide',
    description: 'The full guide: authentication, every method with its parameters and result, workflows, errors, limits, webhooks.',
    mimeType: 'text/markdown',
    render: developersMd,
  },
  {
    path: '/llms.txt',
    name: 'llms.txt',
    title: 'Orientation for agents',
    description: 'A short orientation (llmstxt.org): what the service is, how calls and errors work, where the documents are.',
    mimeType: 'text/plain',
    render: llmsTxt,
  },
  {
    path: '/api/v1/openapi.json',
    name: 'openapi.json',
    title: 'OpenAPI 3.1 document',
    description: 'The machine-readable API, with x-workflows.',
    mimeType: 'application/json',
    render: (ctx) => JSON.stringify(openApiDocument(ctx)),
  },
]

export function listResources(ctx: DocsContext): Resource[] {
  return DOCUMENTS.map((d) => ({
    uri: `${ctx.baseUrl}${d.path}`,
    name: d.name,
    title: d.title,
    description: d.description,
    mimeType: d.mimeType,
  }))
}

export function readResource(ctx: DocsContext, uri: string): ReadResourceResult {
  const document = DOCUMENTS.find((d) => `${ctx.baseUrl}${d.path}` === uri)
  if (!document) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}. resources/list lists the documents`, { uri })
  return { contents: [{ uri, mimeType: document.mimeType, text: document.render(ctx) }] }
}
