import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** One import of one module by another, both as paths relative to the repository root. */
export interface ImportEdge {
  readonly from: string
  readonly to: string
  /** `import type`, `export type`, or every named binding type-only: erased at run time. */
  readonly typeOnly: boolean
  /** A dynamic `import('…')`. */
  readonly dynamic: boolean
  /** 1-based line of the import in `from`. */
  readonly line: number
}

/**
 * The relative imports of one module's source: static `import … from` and bare `import '…'`, `export … from`,
 * and `import('…')` with a literal path. Read from the syntax tree, so a path in a comment or a string is not
 * an import. Package imports are left out: layering is about this repository's folders.
 */
export function importsOf(file: string, source: string): ImportEdge[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const edges: ImportEdge[] = []
  const add = (specifier: ts.Expression, node: ts.Node, typeOnly: boolean, dynamic: boolean) => {
    if (!ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return
    const to = resolveSpecifier(file, specifier.text)
    if (to === null) return
    edges.push({ from: file, to, typeOnly, dynamic, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node, isTypeOnlyImport(node), false)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined
      add(
        node.moduleSpecifier,
        node,
        node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)),
        false,
      )
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      add(node.arguments[0], node, false, true)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      // `import('./x.js').Name` in a type position: erased, but still a dependency between the modules.
      add(node.argument.literal, node, true, false)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return edges
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause
  if (!clause) return false // `import './x.js'`: run for its effects
  if (clause.isTypeOnly) return true
  if (clause.name) return false
  const bindings = clause.namedBindings
  return (
    bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
  )
}

/** `./x.js` from `a/b.ts` → `a/x.ts` (NodeNext: a .ts module is imported by its .js name); null: not a .ts module. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
  if (target.endsWith('.js')) return `${target.slice(0, -3)}.ts`
  if (target.endsWith('.ts')) return target
  return null
}

/** Every non-test `.ts` module under `folders` (relative to `root`), with its relative imports. */
export function readImportGraph(root: string, folders: readonly string[]): { modules: string[]; edges: ImportEdge[] } {
  const modules: string[] = []
  for (const folder of folders) {
    const dir = path.join(root, folder)
    if (!fs.existsSync(dir)) continue
    for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const file = path.posix.join(folder, entry.split(path.sep).join('/'))
      if (!file.endsWith('.ts') || file.endsWith('.d.ts') || file.endsWith('.test.ts') || file.includes('/node_modules/')) continue
      modules.push(file)
    }
  }
  modules.sort()
  const edges = modules.flatMap((file) => importsOf(file, fs.readFileSync(path.join(root, file), 'utf8')))
  return { modules, edges }
}

/**
 * The import cycles: each strongly connected component of more than one module (or a module importing
 * itself), as one cycle through it written out module by module, shortest first. Tarjan's algorithm, iterative.
 */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, [])
    if (!next.has(e.to)) next.set(e.to, [])
    next.get(e.from)!.push(e.to)
  }
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const outs = next.get(frame.node)!
      if (frame.i < outs.length) {
        const to = outs[frame.i++]!
        if (!index.has(to)) {
          index.set(to, counter)
          low.set(to, counter++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, i: 0 })
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1 || next.get(frame.node)!.includes(frame.node)) components.push(component)
      }
    }
  }
  return components.map((component) => shortestCycle(component, next)).sort((a, b) => a.length - b.length || a[0]!.localeCompare(b[0]!))
}

/** A shortest cycle inside one component, from its first module (sorted) back to it. */
function shortestCycle(component: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component)
  const start = [...component].sort()[0]!
  const previous = new Map<string, string>()
  const queue = [start]
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!
    for (const to of next.get(node)!) {
      if (!members.has(to)) continue
      if (to === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!)
        return [...path, start]
      }
      if (!previous.has(to)) {
        previous.set(to, node)
        queue.push(to)
      }
    }
  }
  return [start, start]
}
