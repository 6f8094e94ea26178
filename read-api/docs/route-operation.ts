import type { z } from 'zod'
import type { AnyRoute, RouteExample } from '../platform/route.js'
import { jsonSchemaOf, type JsonSchema } from './schema.js'

type Operation = Record<string, any>

/** `/api/v1/jobs/:job_id` → `/api/v1/jobs/{job_id}`; a trailing `*` becomes the declaration's wildcard name. */
export function openApiPath(declared: AnyRoute): string {
  return declared.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, `{${declared.wildcard ?? 'path'}}`)
}

/**
 * A string parameter documented as a number (`.meta({ type: 'integer' })`, since paths and query strings are
 * text) keeps no string keywords: they would describe the text, not the value.
 */
function valueSchema(schema: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = schema
  if (rest.type !== 'string') {
    delete rest.pattern
    delete rest.minLength
    delete rest.maxLength
  }
  return rest
}

function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query' | 'header',
  example: RouteExample[keyof RouteExample] | undefined,
  wildcard: string | undefined,
): Operation[] {
  if (!schema) return []
  const json = jsonSchemaOf(schema, 'input')
  const required = new Set<string>(json.required ?? [])
  const examples = (example ?? {}) as Record<string, unknown>
  return Object.entries<JsonSchema>(json.properties ?? {}).map(([key, property]) => {
    const name = key === '*' ? (wildcard ?? 'path') : key
    return {
      name,
      in: where,
      required: where === 'path' || (required.has(key) && property.default === undefined),
      ...(property.description ? { description: property.description } : {}),
      schema: valueSchema(property),
      ...(examples[name] !== undefined ? { example: examples[name] } : {}),
    }
  })
}

/** The OpenAPI operation of a REST declaration: the same schemas that parse its input, and its example. */
export function routeOperation(declared: AnyRoute): { path: string; method: string; operation: Operation } {
  const { example } = declared
  const parameters = [
    ...parametersOf(declared.params, 'path', example.params, declared.wildcard),
    ...parametersOf(declared.query, 'query', example.query, undefined),
    ...parametersOf(declared.headers, 'header', example.headers, undefined),
    ...(declared.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ]
  const responses = Object.fromEntries(
    Object.entries(declared.responses).map(([status, response]) => {
      const shown = example.response?.status === Number(status) && example.response.body !== undefined
      const content = response.schema
        ? {
            [response.type ?? 'application/json']: {
              schema: jsonSchemaOf(response.schema, 'output'),
              ...(shown ? { example: example.response!.body } : {}),
            },
          }
        : undefined
      const headers = response.headers
        ? Object.fromEntries(
            Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
          )
        : undefined
      return [status, { description: response.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) }]
    }),
  )
  const operation: Operation = {
    operationId: declared.operationId,
    summary: declared.summary,
    ...(declared.description ? { description: declared.description } : {}),
    tags: [declared.tag],
    security: declared.auth === 'public' ? [] : [{ bearerAuth: [] }, { oauth2: [...(declared.scopes ?? [])] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(declared.body
      ? {
          requestBody: {
            required: declared.body.required,
            ...(declared.body.description ? { description: declared.body.description } : {}),
            content: {
              [declared.body.type]: {
                schema: jsonSchemaOf(declared.body.schema, 'input'),
                ...(example.body !== undefined ? { example: example.body } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  }
  // Examples a parameter cannot carry (no parameters at all) still show the exchange as a whole.
  if (parameters.length === 0 && !declared.body && example.response?.body === undefined) operation['x-example'] = example
  return { path: openApiPath(declared), method: declared.method.toLowerCase(), operation }
}
