import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { ApiError } from '../errors.js'

export type RouteMethod = 'GET' | 'POST' | 'DELETE'

/** Where a request's input comes from; each part has its own zod schema. */
export type RoutePart = 'params' | 'query' | 'body'

/** One documented answer: a body of `type` described by `schema` (JSON when only a schema is given), or none. */
export interface RouteResponse {
  readonly description: string
  readonly type?: string
  readonly schema?: z.ZodType
  /** Response headers a client relies on: name → what it says. */
  readonly headers?: Readonly<Record<string, string>>
}

/** A realistic exchange, shown in the OpenAPI document (values as a client sends and receives them). */
export interface RouteExample {
  readonly params?: Readonly<Record<string, unknown>>
  readonly query?: Readonly<Record<string, unknown>>
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly response?: { readonly status: number; readonly body?: unknown }
}

export interface RouteBody<B extends z.ZodType> {
  readonly type: 'application/json' | 'application/x-www-form-urlencoded'
  readonly schema: B
  readonly required: boolean
  readonly description?: string
}

/** What a handler gets: the request, its reply, the app's deps and the declaration's parsers. */
export interface RouteContext<D, P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  readonly request: FastifyRequest
  readonly reply: FastifyReply
  readonly deps: D
  /**
   * The request's parts parsed by the declaration's schemas. A handler calls them where its checks call for
   * (after authentication and scopes), so a request that is both unauthenticated and malformed answers 401
   * as it always has; a failure is the declaration's `invalid` error (default 400 validation_failed).
   */
  readonly input: {
    params(): z.output<P>
    query(): z.output<Q>
    body(): z.output<B>
  }
}

/**
 * A REST endpoint, declared once: what the OpenAPI document says about it and what fastify serves. The
 * schemas describe the input for the document and parse it for the handler; responses are documentation.
 * A declaration without a handler is specified but not served by this build (the document marks it
 * `x-available: false`).
 */
export interface RouteDefinition<
  D = unknown,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  readonly method: RouteMethod
  /** The fastify pattern: `:name` for a path parameter, a trailing `*` for the rest of the path. */
  readonly path: string
  /** Further paths served by the same handler and not documented apart (`/sdk/` beside `/sdk`). */
  readonly aliases?: readonly string[]
  /** The name of the `*` parameter in the document (`/api/v1/files/{path}`). */
  readonly wildcard?: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tag: string
  /** public: no credentials; bearer: an API key or OAuth access token (scopes: the ones it needs). */
  readonly auth: 'public' | 'bearer'
  readonly scopes?: readonly string[]
  readonly params?: P
  readonly query?: Q
  /** Request headers that change the answer (documented as header parameters). */
  readonly headers?: z.ZodObject
  readonly body?: RouteBody<B>
  /** Accepts Idempotency-Key (read-api/platform/idempotency.ts records and replays its answers). */
  readonly idempotent?: boolean
  readonly responses: Readonly<Record<number, RouteResponse>>
  readonly example: RouteExample
  /** fastify's HEAD twin of a GET (default true, as fastify does). */
  readonly exposeHeadRoute?: boolean
  /** The error a part that fails its schema answers; default 400 validation_failed naming the fields. */
  readonly invalid?: (part: RoutePart, error: z.ZodError) => Error
  readonly handler?: (context: RouteContext<D, P, Q, B>) => Promise<unknown>
}

/** Any declaration, as the document generator and the app's catalogue see it. */
// biome-ignore lint/suspicious/noExplicitAny: a catalogue holds declarations over many deps and schemas.
export type AnyRoute = RouteDefinition<any, any, any, any>

/** Declares a route (typed by its schemas: `input.body()` is the body schema's output). */
export function route<D, P extends z.ZodType = z.ZodNever, Q extends z.ZodType = z.ZodNever, B extends z.ZodType = z.ZodNever>(
  definition: RouteDefinition<D, P, Q, B>,
): RouteDefinition<D, P, Q, B> {
  return definition
}

/** Each issue as `<field>: <message>` (the part itself when the whole of it is wrong). */
const defaultInvalid = (part: RoutePart, error: z.ZodError) =>
  new ApiError(
    'validation_failed',
    error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : `(${part})`}: ${issue.message}`).join('; '),
  )

function parserOf<S extends z.ZodType>(
  definition: AnyRoute,
  part: RoutePart,
  schema: S | undefined,
  raw: () => unknown,
): () => z.output<S> {
  return () => {
    if (!schema) throw new Error(`${definition.operationId} declares no ${part} schema`)
    const parsed = schema.safeParse(raw())
    if (!parsed.success) throw (definition.invalid ?? defaultInvalid)(part, parsed.error)
    return parsed.data
  }
}

/** Serves one declaration on `app` (a declaration without a handler is left unserved). */
export function serveRoute<D>(app: FastifyInstance, definition: RouteDefinition<D, any, any, any>, deps: D): void {
  const handler = definition.handler
  if (!handler) return
  const run = async (request: FastifyRequest, reply: FastifyReply) =>
    handler({
      request,
      reply,
      deps,
      input: {
        params: parserOf(definition, 'params', definition.params, () => request.params),
        query: parserOf(definition, 'query', definition.query, () => request.query),
        // An absent JSON body is {}, as for the RPCs.
        body: parserOf(
          definition,
          'body',
          definition.body?.schema,
          () => request.body ?? (definition.body?.type === 'application/json' ? {} : undefined),
        ),
      },
    })
  for (const url of [definition.path, ...(definition.aliases ?? [])]) {
    app.route({
      method: definition.method,
      url,
      ...(definition.exposeHeadRoute === false ? { exposeHeadRoute: false } : {}),
      ...(definition.idempotent ? { config: { idempotency: true } } : {}),
      handler: run,
    })
  }
}

/**
 * Routes that share a fastify scope: its parsers, hooks and error handler (`setup`) apply to them only, as
 * the OAuth endpoints' form bodies and RFC error shape do.
 */
export interface RouteGroup<D> {
  readonly routes: readonly RouteDefinition<D, any, any, any>[]
  readonly setup?: (scope: FastifyInstance, deps: D) => void | Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every declaration served (or specified) by this app, in registration order: what the OpenAPI document lists. */
    routeCatalogue?: AnyRoute[]
  }
}

/** Gives the app its catalogue (buildApp, before any group): serveGroup adds to it. */
export function installRouteCatalogue(app: FastifyInstance): void {
  app.decorate('routeCatalogue', [])
}

/** Serves a group in its own scope and lists its declarations in the app's catalogue, handler or not. */
export async function serveGroup<D>(app: FastifyInstance, group: RouteGroup<D>, deps: D): Promise<void> {
  app.routeCatalogue?.push(...group.routes)
  await app.register(async (scope) => {
    await group.setup?.(scope, deps)
    for (const definition of group.routes) serveRoute(scope, definition, deps)
  })
}
