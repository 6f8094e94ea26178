import type { FastifyInstance } from 'fastify'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { capabilitiesDocument } from './capabilities.js'
import { changelogMd } from './changelog.js'
import { docsContext, type DocsDeps } from './context.js'
import { addOnSendStep } from '../platform/on-send-steps.js'
import { deprecationHook, scheduleDeprecationAnnouncements } from './deprecation.js'
import { developersMd } from './developers-md.js'
import { llmsTxt } from './llms-txt.js'
import { openApiDocument } from './openapi.js'
import { securityTxt } from './security-txt.js'

export interface PublicDocsDeps extends DocsDeps {
  readonly read: ReadDb
}

const TEXT = 'text/plain; charset=utf-8'
const MARKDOWN = 'text/markdown; charset=utf-8'

/**
 * The public documents (spec "Meta and public endpoints"), all generated from the registries per request,
 * plus the deprecation machinery: headers on every call of a deprecated method (a root-level hook, so error
 * answers carry them too) and the once-only api.deprecation announcement. Called once by buildApp.
 */
export async function registerPublicDocs(app: FastifyInstance, deps: PublicDocsDeps): Promise<void> {
  addOnSendStep(app, deprecationHook(deps.registry, (request) => docsContext(request, deps).baseUrl))
  scheduleDeprecationAnnouncements(app, deps)

  await app.register(async (scope) => {
    // The documents change only with the code, but the base URL and security.txt's Expires do not: a short
    // public cache is safe.
    const cache = 'public, max-age=300'
    scope.get('/api/v1/openapi.json', async (request, reply) => {
      reply.header('Cache-Control', cache).type('application/json; charset=utf-8')
      return openApiDocument(docsContext(request, deps))
    })
    scope.get('/api/v1/capabilities', async (request, reply) => {
      const caller = await callerOf(request, deps.read)
      reply.header('Cache-Control', 'private, no-store').type('application/json; charset=utf-8')
      return capabilitiesDocument(docsContext(request, deps), caller)
    })
    scope.get('/llms.txt', async (request, reply) => reply.header('Cache-Control', cache).type(TEXT).send(llmsTxt(docsContext(request, deps))))
    scope.get('/developers.md', async (request, reply) => reply.header('Cache-Control', cache).type(MARKDOWN).send(developersMd(docsContext(request, deps))))
    scope.get('/llms-full.txt', async (request, reply) => reply.header('Cache-Control', cache).type(TEXT).send(developersMd(docsContext(request, deps))))
    scope.get('/changelog.md', async (request, reply) => reply.header('Cache-Control', cache).type(MARKDOWN).send(changelogMd(docsContext(request, deps))))
    scope.get('/.well-known/security.txt', async (request, reply) =>
      reply.header('Cache-Control', 'public, max-age=3600').type(TEXT).send(securityTxt(docsContext(request, deps))),
    )
  })
}
