import { z } from 'zod'

/** A JSON Schema node as zod emits it (the subset the type mapping reads). */
type JsonSchema = boolean | { readonly [key: string]: any }

/** Python's reserved words: a parameter so named gets a trailing underscore in the signature. */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from global if ' +
    'import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
)

/** A Python string literal for any text (JSON's escapes are all valid in Python source). */
export function pyString(text: string): string {
  return JSON.stringify(text)
}

/** A valid Python identifier for a JSON name, not a keyword and not one of `reserved`. */
export function pyIdentifier(name: string, reserved: ReadonlySet<string> = new Set()): string {
  let id = name.replace(/[^A-Za-z0-9_]/g, '_')
  if (!/^[A-Za-z_]/.test(id)) id = `_${id}`
  while (PYTHON_KEYWORDS.has(id) || reserved.has(id)) id = `${id}_`
  return id
}

function literal(value: unknown): string | undefined {
  if (value === null) return 'None'
  if (typeof value === 'string') return pyString(value)
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  return undefined
}

/** Union of Python types, flattened and de-duplicated; None last, as Optional[...] when it is there. */
function union(types: string[]): string {
  const unique = [...new Set(types)]
  if (unique.includes('Any')) return 'Any'
  const nullable = unique.includes('None')
  const rest = unique.filter((t) => t !== 'None')
  if (rest.length === 0) return 'None'
  const inner = rest.length === 1 ? rest[0]! : `Union[${rest.join(', ')}]`
  return nullable ? `Optional[${inner}]` : inner
}

/**
 * The Python type hint for a JSON Schema: str, int, float, bool, None, List[...], Dict[str, ...],
 * Literal[...] for enums and constants, Union/Optional for alternatives, Any for anything else. Objects
 * stay Dict[str, Any]: the docstring names their fields, and the server validates them.
 */
export function pythonType(schema: JsonSchema): string {
  if (typeof schema === 'boolean') return 'Any'
  if (schema.$ref !== undefined) return 'Any'
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return union((schema.anyOf ?? schema.oneOf).map((member: JsonSchema) => pythonType(member)))
  }
  if ('const' in schema) return literal(schema.const) === 'None' ? 'None' : `Literal[${literal(schema.const) ?? 'Any'}]`
  if (Array.isArray(schema.enum)) {
    const mapped: (string | undefined)[] = schema.enum.map(literal)
    if (mapped.some((v) => v === undefined)) return 'Any'
    const values = mapped as string[]
    const nonNull = values.filter((v) => v !== 'None')
    return union([...(nonNull.length > 0 ? [`Literal[${nonNull.join(', ')}]`] : []), ...(values.includes('None') ? ['None'] : [])])
  }
  if (Array.isArray(schema.type)) return union(schema.type.map((type: string) => pythonType({ ...schema, type })))
  switch (schema.type) {
    case 'string':
      return 'str'
    case 'integer':
      return 'int'
    case 'number':
      return 'float'
    case 'boolean':
      return 'bool'
    case 'null':
      return 'None'
    case 'array':
      return `List[${schema.items === undefined ? 'Any' : pythonType(schema.items)}]`
    case 'object':
      if (schema.properties === undefined && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
        return `Dict[str, ${pythonType(schema.additionalProperties)}]`
      }
      return 'Dict[str, Any]'
    default:
      return 'Any'
  }
}

/**
 * The JSON Schema of a zod schema as a caller sends it (io input) or receives it (io output), or `true`
 * (anything) when zod cannot represent it: a type hint may widen to Any, the generator must never fail.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  } catch {
    return true
  }
}
