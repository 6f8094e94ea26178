import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import ts from 'typescript'

/**
 * Coverage of a test run, measured by V8 and reported by c8 (.c8rc.json holds what is measured, how it is
 * shown and the thresholds). Every process a test starts inherits NODE_V8_COVERAGE and writes its own file
 * there when it exits; tsx hands V8 inline source maps, so c8 reports TypeScript lines. A process killed
 * with SIGKILL writes nothing, and a file cut short is skipped by c8: neither breaks the report.
 */
export const COVERAGE_DIRECTORY = path.resolve('coverage/tmp')

/** An empty directory for the processes' coverage files. */
export async function prepareCoverage(): Promise<string> {
  await fs.rm(COVERAGE_DIRECTORY, { recursive: true, force: true })
  await fs.mkdir(COVERAGE_DIRECTORY, { recursive: true })
  return COVERAGE_DIRECTORY
}

/**
 * Prints c8's summary of the files in COVERAGE_DIRECTORY and, when `checkThresholds`, fails (a non-zero
 * code) below the thresholds of .c8rc.json. Modules that hold only types are left out: no import of them
 * survives compilation, so `--all` would count every line of them as never run.
 */
export async function reportCoverage(options: { checkThresholds: boolean }): Promise<number> {
  const config = JSON.parse(await fs.readFile('.c8rc.json', 'utf8')) as { include: string[]; exclude: string[] }
  const folders = config.include.map((glob) => glob.replace(/\/\*\*$/, ''))
  const typeOnly = await typeOnlyModules(folders)
  const args = ['report', `--temp-directory=${COVERAGE_DIRECTORY}`, `--check-coverage=${options.checkThresholds}`]
  for (const exclude of [...config.exclude, ...typeOnly]) args.push(`--exclude=${exclude}`)
  return new Promise<number>((resolve) => {
    const c8 = spawn(path.resolve('node_modules/.bin/c8'), args, { stdio: 'inherit' })
    c8.on('error', () => resolve(1))
    c8.on('exit', (status) => resolve(status ?? 1))
  })
}

/** The .ts modules under `folders` with nothing but types: interfaces, type aliases, type-only imports and exports. */
export async function typeOnlyModules(folders: readonly string[]): Promise<string[]> {
  const found: string[] = []
  for (const folder of folders) {
    const entries = await fs.readdir(folder, { recursive: true }).catch(() => [] as string[])
    for (const entry of entries) {
      const file = path.posix.join(folder, entry.split(path.sep).join('/'))
      if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue
      const source = ts.createSourceFile(file, await fs.readFile(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
      if (source.statements.every(isErased)) found.push(file)
    }
  }
  return found.sort()
}

function isErased(statement: ts.Statement): boolean {
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) return true
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly
  if (!ts.isImportDeclaration(statement)) return false
  const clause = statement.importClause
  if (!clause) return false
  if (clause.isTypeOnly) return true
  const bindings = clause.namedBindings
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  )
}
