/**
 * Two of the consolidation's rules that no compiler checks: the database is typed everywhere outside the
 * migrations (`Kysely<any>` would let any query through unreviewed), and the README stays a newcomer's read
 * (the area reference lives in domain/<area>/README.md, which the served guide includes).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'

const SOURCE_FOLDERS = ['domain', 'commands', 'projections', 'read-api', 'processors', 'ops']

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true })
  return entries.filter((f) => f.endsWith('.ts')).map((f) => path.join(folder, f))
}

t.test('no Kysely<any> outside migrations and tests', async (t) => {
  const offenders: string[] = []
  for (const folder of SOURCE_FOLDERS) {
    for (const file of await sourceFiles(folder)) {
      const text = await fs.readFile(file, 'utf8')
      text.split('\n').forEach((line, i) => {
        if (line.includes('Kysely<any>')) offenders.push(`${file}:${i + 1}`)
      })
    }
  }
  t.same(offenders, [], 'type the tables instead (migrations/work-tables.ts, projections/tables.ts)')
})

t.test('the README is at most about 400 lines', async (t) => {
  const lines = (await fs.readFile('README.md', 'utf8')).split('\n').length
  t.ok(lines <= 420, `README.md has ${lines} lines; move area reference into domain/<area>/README.md`)
})
