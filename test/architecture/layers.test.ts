import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { findCycles, importsOf, readImportGraph, type ImportEdge } from '../support/import-graph.js'

/**
 * The folder rules of DESIGN.md, checked from the imports of every non-test module: no import cycle (type-only
 * imports included: a cycle of types still ties the modules into one unit a reader cannot take apart), and no
 * import up the layers. A failure names the cycle, or the file, line and target of the offending import.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * What each top-level folder may import besides itself. migrations/ (the durable schema and the types of its
 * work tables) sits under commands: the write side allocates ids from its sequences. read-api and processors
 * are siblings: neither imports the other. ops/ is the composition root and may import everything.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  domain: [],
  migrations: [],
  commands: ['domain', 'migrations'],
  projections: ['domain', 'migrations', 'commands'],
  'read-api': ['domain', 'migrations', 'commands', 'projections'],
  processors: ['domain', 'migrations', 'commands', 'projections'],
  ops: ['domain', 'migrations', 'commands', 'projections', 'read-api', 'processors'],
}
const FOLDERS = Object.keys(MAY_IMPORT)

const folderOf = (file: string) => file.split('/')[0]!

/** The imports that break the folder rules, one line each. */
function upwardImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => {
      const from = folderOf(e.from)
      const to = folderOf(e.to)
      return from !== to && MAY_IMPORT[from] !== undefined && !MAY_IMPORT[from].includes(to)
    })
    .map(
      (e) =>
        `${e.from}:${e.line} imports ${e.to}${e.typeOnly ? ' (type only)' : ''}: ${folderOf(e.from)}/ may import ${[folderOf(e.from), ...MAY_IMPORT[folderOf(e.from)]!].join(', ')}`,
    )
}

t.test('the checker itself', async (t) => {
  t.test('reads static, re-exported, type-only and dynamic imports, not paths in strings or comments', async (t) => {
    const source = [
      "import { a } from './a.js'",
      "import type { B } from '../b/b.js'",
      "import { type C, type D } from './c.js'",
      "import './effects.js'",
      "export { e } from './e.js'",
      "export type { F } from './f.js'",
      "import fs from 'node:fs'",
      "const g = await import('./g.js')",
      "type H = import('./h.js').H",
      "// import { z } from './commented.js'",
      'const text = "from \'./string.js\'"',
    ].join('\n')
    const edges = importsOf('x/m.ts', source).map((e) => `${e.to}${e.typeOnly ? ' type' : ''}${e.dynamic ? ' dynamic' : ''}`)
    t.same(edges, ['x/a.ts', 'b/b.ts type', 'x/c.ts type', 'x/effects.ts', 'x/e.ts', 'x/f.ts type', 'x/g.ts dynamic', 'x/h.ts type'])
  })

  t.test('finds a cycle and names it; a diamond is no cycle', async (t) => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false, dynamic: false, line: 1 })
    t.same(findCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd'), edge('d', 'd')]), [
      ['d', 'd'],
      ['a', 'b', 'c', 'a'],
    ])
    t.same(findCycles([edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')]), [])
  })

  t.test('an import up the layers is named with its line', async (t) => {
    const up = upwardImports([{ from: 'commands/x.ts', to: 'projections/y.ts', typeOnly: true, dynamic: false, line: 3 }])
    t.same(up, ['commands/x.ts:3 imports projections/y.ts (type only): commands/ may import commands, domain, migrations'])
    t.same(upwardImports([{ from: 'ops/x.ts', to: 'read-api/y.ts', typeOnly: false, dynamic: false, line: 1 }]), [])
  })
})

t.test('the tree', async (t) => {
  const { modules, edges } = readImportGraph(ROOT, FOLDERS)
  t.ok(modules.length > 300 && edges.length > 1000, `read ${modules.length} modules and ${edges.length} imports`)

  t.test('every relative import names a module that exists', async (t) => {
    const known = new Set(modules)
    t.same(
      edges.filter((e) => !known.has(e.to) && FOLDERS.includes(folderOf(e.to))).map((e) => `${e.from}:${e.line} imports ${e.to}`),
      [],
    )
  })

  t.test('no import cycles', async (t) => {
    const cycles = findCycles(edges).map((cycle) => cycle.join(' -> '))
    t.same(cycles, [], cycles.length ? `${cycles.length} import cycle(s):\n${cycles.join('\n')}` : 'no cycles')
  })

  t.test('no import up the layers', async (t) => {
    const up = upwardImports(edges)
    t.same(up, [], up.length ? `${up.length} import(s) up the layers:\n${up.join('\n')}` : 'none')
  })
})
