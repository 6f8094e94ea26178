import { z } from 'zod'
import type { RegisteredRpc } from '../registry.js'

export type JsonSchema = Record<string, any>

/**
 * A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). `io` picks the side: parameters are
 * documented as a caller sends them (defaults optional), results as the service answers. Anything zod cannot
 * express (a transform's output, a date) becomes `{}` rather than failing the whole document.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

export const paramsSchema = (rpc: RegisteredRpc): JsonSchema => jsonSchemaOf(rpc.input, 'input')
export const resultSchema = (rpc: RegisteredRpc): JsonSchema => jsonSchemaOf(rpc.definition.result, 'output')

/** A short human-readable type: `integer`, `string (YYYY-MM)`, `array of {id, name}`, `integer | null`. */
export function typeLabel(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).length === 0) return 'any'
  if (schema.anyOf || schema.oneOf) return (schema.anyOf ?? schema.oneOf).map((s: JsonSchema) => typeLabel(s, depth)).join(' | ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  switch (schema.type) {
    case 'array':
      return `array of ${typeLabel(schema.items, depth)}`
    case 'object': {
      const keys = Object.keys(schema.properties ?? {})
      if (keys.length === 0) return 'object'
      if (depth > 0) return 'object'
      return `{${keys.map((k) => `${k}: ${typeLabel(schema.properties[k], depth + 1)}`).join(', ')}}`
    }
    case 'string':
      return schema.format ? `string (${schema.format})` : 'string'
    case undefined:
      return 'any'
    default:
      return Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type)
  }
}

/** org_id is the registry's own parameter: one description for every method. */
export const ORG_ID_DESCRIPTION = 'Injected for organization keys; platform keys pass it'

export interface ParamDoc {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly default: unknown
  readonly description: string | undefined
}

/** The top-level parameters of an RPC, in declaration order. */
export function paramDocs(rpc: RegisteredRpc): ParamDoc[] {
  const schema = paramsSchema(rpc)
  const required = new Set<string>(schema.required ?? [])
  return Object.entries<JsonSchema>(schema.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeLabel(property),
    // A default makes a parameter optional for the caller, whatever the output side says.
    required: required.has(name) && property.default === undefined,
    default: property.default,
    description: property.description ?? (name === 'org_id' ? ORG_ID_DESCRIPTION : undefined),
  }))
}
