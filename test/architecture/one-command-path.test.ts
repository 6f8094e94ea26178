import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

/**
 * One command path (DESIGN.md, commands/command-handler.ts): load → decide → append, with its one retry
 * policy, lives in handleCommand only. A second copy of that loop drifts (its own attempt count, no state
 * cache, no visibility rule), so this reads every non-test module and fails naming the file that holds:
 * - a loop whose body both appends and handles WrongExpectedRevisionError (a retry loop of its own);
 * - a MAX_ATTEMPTS of its own outside domain/ (domain/ does no I/O: its constants are business rules, such
 *   as the webhook delivery schedule);
 * - a direct `store.append(` outside the handler, its append helpers, the event-store adapters and the
 *   store benches (which measure the store itself).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SOURCE_FOLDERS = ['domain', 'commands', 'projections', 'read-api', 'processors', 'ops']
const HANDLER = 'commands/command-handler.ts'
const MAY_APPEND = [HANDLER, 'commands/append.ts', 'commands/event-store/', 'ops/bench/']

const APPENDS = /\b(?:append|appendEach|appendDecided|appendDecidedEach|appendAudit)\(/
const LOOP = /\b(?:for|while)\s*\(/g
const STORE_APPEND = /\b[\w.#]*store\.append\(/i
const OWN_MAX_ATTEMPTS = /\b(?:const|let|var)\s+MAX_ATTEMPTS\b/

/** Comments and string contents blanked (same length), so neither a doc comment nor a message trips a rule. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, (m) => m.replace(/[^\n]/g, ' '))
}

/** The text of each loop's body (from the loop keyword to its closing brace). */
function loopBodies(code: string): string[] {
  const bodies: string[] = []
  for (const match of code.matchAll(LOOP)) {
    const open = code.indexOf('{', match.index)
    if (open < 0) continue
    let depth = 0
    for (let i = open; i < code.length; i++) {
      if (code[i] === '{') depth++
      else if (code[i] === '}' && --depth === 0) {
        bodies.push(code.slice(match.index, i + 1))
        break
      }
    }
  }
  return bodies
}

/** What is wrong with one module, one line per rule it breaks (empty: nothing). */
export function secondCommandPaths(file: string, text: string): string[] {
  const code = codeOf(text)
  const problems: string[] = []
  if (file !== HANDLER && loopBodies(code).some((body) => APPENDS.test(body) && body.includes('WrongExpectedRevisionError'))) {
    problems.push(`${file}: a retry loop around an append (load → decide → append belongs to handleCommand)`)
  }
  if (file !== HANDLER && !file.startsWith('domain/') && OWN_MAX_ATTEMPTS.test(code)) {
    problems.push(`${file}: declares its own MAX_ATTEMPTS (the one retry policy is handleCommand's)`)
  }
  if (!MAY_APPEND.some((allowed) => file === allowed || (allowed.endsWith('/') && file.startsWith(allowed))) && STORE_APPEND.test(code)) {
    problems.push(`${file}: calls store.append directly (use handleCommand, or a helper of commands/append.ts)`)
  }
  return problems
}

async function sourceFiles(): Promise<string[]> {
  const files: string[] = []
  for (const folder of SOURCE_FOLDERS) {
    const entries = await fs.readdir(path.join(ROOT, folder), { recursive: true })
    for (const entry of entries) if (entry.endsWith('.ts')) files.push(`${folder}/${entry.split(path.sep).join('/')}`)
  }
  return files.sort()
}

t.test('the detector finds each shape of a second command path', async (t) => {
  const loop = `
    for (let attempt = 1; ; attempt++) {
      const loaded = await loadStream(deps, stream)
      try {
        await appendDecided(deps, context, stream, events, loaded.revision ?? 'no_stream', orgId)
        return
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error
      }
    }`
  t.match(secondCommandPaths('commands/jobs/job.ts', loop), [/a retry loop around an append/])
  t.match(secondCommandPaths('processors/x.ts', 'const MAX_ATTEMPTS = 8'), [/declares its own MAX_ATTEMPTS/])
  t.match(secondCommandPaths('read-api/x.ts', 'await deps.store.append(stream, events, "any")'), [/calls store.append directly/])
  t.same(secondCommandPaths(HANDLER, loop), [], 'the handler is the one place for it')
  t.same(
    secondCommandPaths('domain/webhooks/schedule.ts', 'export const MAX_ATTEMPTS = 8'),
    [],
    'a business rule of domain/ is not a retry policy',
  )
  t.same(
    secondCommandPaths(
      'commands/x.ts',
      '// for (;;) { store.append(a, b) } WrongExpectedRevisionError\nconst MAX_ATTEMPTS_NOTE = "const MAX_ATTEMPTS = 1"',
    ),
    [],
    'comments and strings do not count',
  )
  t.same(
    secondCommandPaths('processors/x.ts', 'for (const r of outcomes) { if (r instanceof WrongExpectedRevisionError) lost++ }'),
    [],
    'reading the outcomes of a batch append is not a retry loop',
  )
})

t.test('no module but the command handler loads, decides and appends in a loop of its own', async (t) => {
  const files = await sourceFiles()
  t.ok(files.includes(HANDLER), 'the walk sees the handler')
  const problems: string[] = []
  for (const file of files) problems.push(...secondCommandPaths(file, await fs.readFile(path.join(ROOT, file), 'utf8')))
  t.same(problems, [], problems.join('\n'))
})
