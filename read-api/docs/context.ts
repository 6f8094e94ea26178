import type { FastifyRequest } from 'fastify'
import type { WriteDeps } from '../../commands/command-handler.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import type { AnyRoute } from '../platform/route.js'
import type { RpcRegistry } from '../registry.js'
import type { ServiceSettings } from '../settings.js'

/** Operator settings of the public documents (ops/config.ts). */
export interface PublicDocsSettings {
  /** BASE_URL, the public address; when unset, the listen address (never the request's Host header). */
  readonly baseUrl?: string | undefined
  /** security.txt Contact: a mailto: or https: URI. Default mailto:security@<host>. */
  readonly securityContact?: string | undefined
  /** This deployment hosts the public sandbox (SANDBOX_ENABLED): the documents publish its read-only key. */
  readonly sandbox?: boolean | undefined
}

export interface DocsDeps {
  readonly registry: RpcRegistry
  readonly write: WriteDeps
  /** Largest accepted request body, in bytes (a published limit). */
  readonly bodyLimit: number
  readonly settings: ServiceSettings
  readonly publicDocs?: PublicDocsSettings | undefined
  /** The job kinds this service runs (none when absent). */
  readonly jobKinds?: ReadonlySet<string> | undefined
}

/** What every generator gets: the registry and where the service is reached, per request. */
export interface DocsContext {
  readonly registry: RpcRegistry
  readonly baseUrl: string
  readonly bodyLimit: number
  readonly now: Date
  /** Is this route served by this build? (Specified endpoints not served yet are marked planned.) */
  readonly isServed: (method: 'GET' | 'POST', url: string) => boolean
  readonly securityContact: string
  /** Requests per minute for a key without a limit of its own. */
  readonly rateLimitPerMinute: number
  /** The published read-only sandbox key, when this deployment hosts the sandbox. */
  readonly sandboxKey: string | null
  /** The job kinds POST /api/v1/jobs accepts here, sorted. */
  readonly jobKinds: readonly string[]
  /** The REST declarations of this app (read-api/platform/route.ts), documented beside the RPCs. */
  readonly routes: readonly AnyRoute[]
}

export function docsContext(request: FastifyRequest, deps: DocsDeps): DocsContext {
  const baseUrl = baseUrlOf(request, deps.publicDocs?.baseUrl)
  return {
    registry: deps.registry,
    baseUrl,
    bodyLimit: deps.bodyLimit,
    now: deps.write.clock(),
    isServed: (method, url) => request.server.hasRoute({ method, url }),
    securityContact: deps.publicDocs?.securityContact ?? `mailto:security@${new URL(baseUrl).hostname}`,
    rateLimitPerMinute: deps.settings.rateLimits.defaultPerMinute,
    sandboxKey: deps.publicDocs?.sandbox ? SANDBOX_KEY : null,
    jobKinds: [...(deps.jobKinds ?? [])].sort(),
    routes: request.server.routeCatalogue ?? [],
  }
}
