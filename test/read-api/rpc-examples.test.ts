/**
 * Every RPC's declared example is a call the method accepts and, where it shows one, an answer the method
 * could give: the params parse with the method's own schema and with the registry's full input (org_id and
 * paging added), the result with its result schema. A wrong example is named with zod's reason.
 */
import t from 'tap'
import { describeIssues } from '../../read-api/platform/invoke-rpc.js'
import { createRegistry } from '../../read-api/rpc/index.js'

const registry = createRegistry()

t.test('every RPC declares an example whose params its schemas accept', async (t) => {
  const wrong: string[] = []
  for (const { definition, input } of registry.all()) {
    const example = definition.example
    if (example === undefined) {
      wrong.push(`${definition.name}: no example`)
      continue
    }
    for (const [what, schema] of [
      ['params', definition.params],
      ['input', input],
    ] as const) {
      const parsed = schema.safeParse(example.params)
      if (!parsed.success) wrong.push(`${definition.name} ${what}: ${describeIssues(parsed.error)}`)
    }
  }
  t.same(wrong, [], 'examples the methods would refuse')
  t.ok(registry.all().length >= 100, 'the whole catalogue was checked')
})

t.test('every example result is an answer the result schema allows', async (t) => {
  const wrong: string[] = []
  let shown = 0
  for (const { definition } of registry.all()) {
    if (definition.example?.result === undefined) continue
    shown++
    const parsed = definition.result.safeParse(definition.example.result)
    if (!parsed.success) wrong.push(`${definition.name}: ${describeIssues(parsed.error)}`)
  }
  t.same(wrong, [], 'example results the methods could not answer')
  t.ok(shown > 0, 'some examples show a result')
})
