/**
 * The OpenAPI document leaves nothing to guess: every parameter (path, query, header) and every request-body
 * property of every RPC and REST route has a description, and every operation shows an example (of its
 * request or of its answer). Each gap is named, so the failure says what to write.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { appWith, registryWith } from '../http/docs-support.js'

type Json = Record<string, any>

const ts = await startTestSystem(t)
const app = await appWith(t, ts, registryWith(), { baseUrl: 'https://api.rankrelay.test' })
const doc: Json = (await app.inject({ url: '/api/v1/openapi.json' })).json()

const resolve = (node: Json): Json => {
  if (typeof node.$ref !== 'string') return node
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json | undefined, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
  return target ?? node
}

/** Request-body properties without a description, at any depth, as dotted paths. */
function undescribed(schema: Json | undefined, at: string, found: string[]): string[] {
  if (!schema || typeof schema !== 'object') return found
  const node = resolve(schema)
  for (const [name, property] of Object.entries<Json>(node.properties ?? {})) {
    const resolved = resolve(property)
    const path = at ? `${at}.${name}` : name
    if (!resolved.description && !property.description) found.push(path)
    undescribed(resolved, path, found)
  }
  if (node.items) undescribed(node.items, `${at}[]`, found)
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) undescribed(branch, at, found)
  return found
}

const hasExample = (content: Json | undefined) =>
  Object.values<Json>(content ?? {}).some((media) => media.example !== undefined || media.examples !== undefined)

function exampleOf(operation: Json): boolean {
  if (operation['x-example'] !== undefined) return true
  if (hasExample(resolve(operation.requestBody ?? {}).content)) return true
  if ((operation.parameters ?? []).some((p: Json) => resolve(p).example !== undefined)) return true
  // Only a success counts: the shared error responses carry examples of every code.
  return Object.entries<Json>(operation.responses ?? {}).some(
    ([status, response]) => status.startsWith('2') && hasExample(resolve(response).content),
  )
}

interface Gaps {
  readonly descriptions: string[]
  readonly examples: string[]
}

function gapsOf(filter: (path: string) => boolean): Gaps {
  const gaps: Gaps = { descriptions: [], examples: [] }
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (!filter(path)) continue
    for (const [method, operation] of Object.entries<Json>(item)) {
      const name = `${method.toUpperCase()} ${path}`
      for (const parameter of (operation.parameters ?? []).map(resolve)) {
        if (!parameter.description) gaps.descriptions.push(`${name}: ${parameter.in} parameter ${parameter.name}`)
      }
      for (const [type, media] of Object.entries<Json>(resolve(operation.requestBody ?? {}).content ?? {})) {
        for (const property of undescribed(media.schema, '', [])) gaps.descriptions.push(`${name}: ${type} body property ${property}`)
      }
      if (!exampleOf(operation)) gaps.examples.push(name)
    }
  }
  return gaps
}

const isRpc = (path: string) => path.startsWith('/api/v1/rpc/')

t.test('REST routes: every parameter described, every operation with an example', async (t) => {
  const gaps = gapsOf((path) => !isRpc(path))
  t.same(gaps.descriptions, [], 'parameters and body properties without a description')
  t.same(gaps.examples, [], 'operations without an example')
  t.ok(Object.keys(doc.paths).filter((path) => !isRpc(path)).length >= 25, 'the REST routes are in the document')
})

t.test('RPCs: every parameter described, every operation with an example', async (t) => {
  const gaps = gapsOf(isRpc)
  t.same(gaps.descriptions, [], 'parameters and body properties without a description')
  t.same(gaps.examples, [], 'operations without an example')
})

t.test('the walk finds what it looks for', async (t) => {
  // A document with a gap of each kind must be reported, or the checks above prove nothing.
  const found = undescribed(
    {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'object', description: 'b', properties: { c: { type: 'integer' } } } },
    },
    '',
    [],
  )
  t.same(found, ['a', 'b.c'])
  t.notOk(exampleOf({ responses: { '200': { content: { 'application/json': { schema: {} } } } } }))
  t.ok(exampleOf({ responses: { '200': { content: { 'application/json': { schema: {}, example: {} } } } } }))
})
