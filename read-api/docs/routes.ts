import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { capabilitiesDocument } from './capabilities.js'
import { changelogMd } from './changelog.js'
import { docsContext, type DocsContext, type DocsDeps } from './context.js'
import { addOnSendStep } from '../platform/on-send-steps.js'
import { route, serveGroup, type RouteGroup } from '../platform/route.js'
import { API_VERSION } from '../version.js'
import { deprecationHook, scheduleDeprecationAnnouncements } from './deprecation.js'
import { developersMd } from './developers-md.js'
import { llmsTxt } from './llms-txt.js'
import { openApiDocument } from './openapi.js'
import { securityTxt } from './security-txt.js'

export interface PublicDocsDeps extends DocsDeps {
  readonly read: ReadDb
}

const TEXT = 'text/plain; charset=utf-8' as const
const MARKDOWN = 'text/markdown; charset=utf-8' as const

// The documents change only with the code, but the base URL and security.txt's Expires do not: a short
// public cache is safe.
const CACHE = 'public, max-age=300'

/** A public text document: the same headers for each, its body generated per request. */
function textDocument(
  operationId: string,
  path: string,
  summary: string,
  type: typeof TEXT | typeof MARKDOWN,
  render: (ctx: DocsContext) => string,
  example: string,
) {
  return route<PublicDocsDeps>({
    method: 'GET',
    path,
    operationId,
    summary,
    tag: 'meta',
    auth: 'public',
    responses: { 200: { description: summary, type: type.split(';')[0]!, schema: z.string().describe(summary) } },
    example: { response: { status: 200, body: example } },
    handler: async ({ request, reply, deps }) =>
      reply
        .header('Cache-Control', CACHE)
        .type(type)
        .send(render(docsContext(request, deps))),
  })
}

const AnyDocument = (what: string) => z.record(z.string(), z.unknown()).describe(what)

export const openApiRoute = route<PublicDocsDeps>({
  method: 'GET',
  path: '/api/v1/openapi.json',
  operationId: 'openapi',
  summary: 'This document',
  tag: 'meta',
  auth: 'public',
  responses: { 200: { description: 'OpenAPI 3.1.', schema: AnyDocument('The OpenAPI 3.1 document') } },
  example: { response: { status: 200, body: { openapi: '3.1.0', info: { title: 'RankRelay API', version: API_VERSION }, paths: {} } } },
  handler: async ({ request, reply, deps }) => {
    reply.header('Cache-Control', CACHE).type('application/json; charset=utf-8')
    return openApiDocument(docsContext(request, deps))
  },
})

export const capabilitiesRoute = route<PublicDocsDeps>({
  method: 'GET',
  path: '/api/v1/capabilities',
  operationId: 'capabilities',
  summary: 'Machine-readable API inventory',
  description: "Any valid key: the domains, methods, job kinds, webhook events and limits, with what this key's scopes allow.",
  tag: 'meta',
  auth: 'bearer',
  responses: { 200: { description: 'Domains, methods, job kinds, webhook events and limits.', schema: AnyDocument('The inventory') } },
  example: { response: { status: 200, body: { api_version: API_VERSION, job_kinds: ['export_org'], limits: { body_bytes: 1048576 } } } },
  handler: async ({ request, reply, deps }) => {
    const caller = await callerOf(request, deps.read)
    reply.header('Cache-Control', 'private, no-store').type('application/json; charset=utf-8')
    return capabilitiesDocument(docsContext(request, deps), caller)
  },
})

export const securityTxtRoute = route<PublicDocsDeps>({
  method: 'GET',
  path: '/.well-known/security.txt',
  operationId: 'security_txt',
  summary: 'Vulnerability-disclosure contact (RFC 9116)',
  tag: 'meta',
  auth: 'public',
  responses: {
    200: { description: 'Vulnerability-disclosure contact (RFC 9116)', type: 'text/plain', schema: z.string().describe('RFC 9116 fields') },
  },
  example: { response: { status: 200, body: 'Contact: mailto:security@api.example.com\nExpires: 2027-03-02T00:00:00.000Z\n' } },
  handler: async ({ request, reply, deps }) =>
    reply
      .header('Cache-Control', 'public, max-age=3600')
      .type(TEXT)
      .send(securityTxt(docsContext(request, deps))),
})

/** The public documents (spec "Meta and public endpoints"), all generated from the registries per request. */
export const publicDocsRoutes: RouteGroup<PublicDocsDeps> = {
  routes: [
    openApiRoute,
    capabilitiesRoute,
    textDocument(
      'llms_txt',
      '/llms.txt',
      'Plain-text orientation for agents',
      TEXT,
      llmsTxt,
      '# RankRelay\n\n> Search tracking and AI Visibility for agencies and their AI agents.\n',
    ),
    textDocument(
      'developers_md',
      '/developers.md',
      'The full API guide (markdown)',
      MARKDOWN,
      developersMd,
      '# RankRelay API\n\n## Authentication\n…',
    ),
    textDocument(
      'llms_full_txt',
      '/llms-full.txt',
      'The full API guide (same text as /developers.md)',
      TEXT,
      developersMd,
      '# RankRelay API\n\n## Authentication\n…',
    ),
    textDocument(
      'changelog_md',
      '/changelog.md',
      'Changelog: additive changes and deprecations with sunset dates',
      MARKDOWN,
      changelogMd,
      '# Changelog\n\n## 1.0.0\n…',
    ),
    securityTxtRoute,
  ],
}

/**
 * The public documents plus the deprecation machinery: headers on every call of a deprecated method (a
 * root-level hook, so error answers carry them too) and the once-only api.deprecation announcement. Called
 * once by buildApp.
 */
export async function registerPublicDocs(app: FastifyInstance, deps: PublicDocsDeps): Promise<void> {
  addOnSendStep(
    app,
    deprecationHook(deps.registry, (request) => docsContext(request, deps).baseUrl),
  )
  scheduleDeprecationAnnouncements(app, deps)
  await serveGroup(app, publicDocsRoutes, deps)
}
