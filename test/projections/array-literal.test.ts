/**
 * The array literal the batch projectors send (projections/array-literal.ts) reads back in PostgreSQL as
 * exactly the JavaScript array it was built from: any text (quotes, backslashes, commas, braces, blanks,
 * "NULL"), nulls, integers and instants.
 */
import fc from 'fast-check'
import { sql } from 'kysely'
import t from 'tap'
import { arrayLiteral } from '../../projections/array-literal.js'
import { createTestDatabase } from '../support/database.js'

t.test('array literals round-trip through PostgreSQL', async (t) => {
  const { db } = await createTestDatabase(t)
  const text = fc.oneof(fc.string(), fc.constantFrom('NULL', 'null', '', ' ', '"', '\\', '\\"', '{a,b}', ',', 'x y'), fc.constant(null))
  await fc.assert(
    fc.asyncProperty(fc.array(text, { maxLength: 20 }), async (values) => {
      // PostgreSQL text cannot hold NUL; nothing the projectors write has one.
      const clean = values.map((v) => (v === null ? null : v.replaceAll('\u0000', '')))
      const { rows } = await sql<{ a: (string | null)[] }>`select ${arrayLiteral(clean)}::text[] as a`.execute(db)
      t.same(rows[0]!.a, clean)
    }),
    { numRuns: 200 },
  )
  const ids = [1, -2, null, Number.MAX_SAFE_INTEGER]
  const { rows } = await sql<{ a: (string | null)[] }>`select ${arrayLiteral(ids)}::bigint[] as a`.execute(db)
  t.same(rows[0]!.a, ['1', '-2', null, String(Number.MAX_SAFE_INTEGER)])
  const at = new Date('2024-03-01T12:34:56.789Z')
  const times = await sql<{ a: (Date | null)[] }>`select ${arrayLiteral([at, at.toISOString(), null])}::timestamptz[] as a`.execute(db)
  t.same(
    times.rows[0]!.a.map((d) => d?.getTime() ?? null),
    [at.getTime(), at.getTime(), null],
  )
  t.equal(arrayLiteral([]), '{}')
})
