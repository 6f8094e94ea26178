/**
 * The JSON input rules (domain/shared/json-limits.ts, domain/shared/values.ts): nesting depth and refused text,
 * found by an iterative walk that a hostile nesting cannot overflow.
 */
import t from 'tap'
import { findJsonProblem, MAX_JSON_DEPTH } from '../../domain/shared/json-limits.js'
import { unacceptableTextReason } from '../../domain/shared/values.js'

/** `depth` nested arrays around 'x', built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'x'
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

t.test('unacceptableTextReason refuses U+0000 and unpaired surrogates, and nothing else', async (t) => {
  for (const fine of ['', 'plain', 'tab\tand\nnewline', 'é', '🚿 a pair', '\uD83D\uDEBF', '\uFFFD', '\u0001']) {
    t.equal(unacceptableTextReason(fine), null, JSON.stringify(fine))
  }
  t.match(unacceptableTextReason('a\u0000b'), /U\+0000.*character 1/)
  for (const bad of ['\uD800', 'a\uD800b', 'abc\uD83D', '\uDC00', 'x\uDEBF', '\uDEBF\uD83D']) {
    t.match(unacceptableTextReason(bad), /unpaired UTF-16 surrogate/, JSON.stringify(bad))
  }
})

t.test('findJsonProblem: nesting up to the limit passes, one level more is refused, at the top-level field', async (t) => {
  t.equal(findJsonProblem(nested(MAX_JSON_DEPTH)), null, `${MAX_JSON_DEPTH} levels`)
  t.same(findJsonProblem(nested(MAX_JSON_DEPTH + 1))?.kind, 'too_deep', `${MAX_JSON_DEPTH + 1} levels`)
  const problem = findJsonProblem({ a: 1, record_json: nested(MAX_JSON_DEPTH) })
  t.equal(problem?.kind, 'too_deep')
  t.equal(problem?.path[0], 'record_json', 'the path starts at the parameter')
  t.equal(findJsonProblem({ x: nested(3) }, 4), null, 'a smaller limit: exactly at it')
  t.equal(findJsonProblem({ x: nested(4) }, 4)?.kind, 'too_deep', 'a smaller limit: one over')
})

t.test('findJsonProblem walks without recursion: a million levels is a problem, not a stack overflow', async (t) => {
  t.equal(findJsonProblem(nested(1_000_000))?.kind, 'too_deep')
})

t.test('findJsonProblem finds refused text in values and keys at any depth, naming the path; the first in document order', async (t) => {
  t.same(findJsonProblem({ client: { name: 'a\u0000' } }), {
    kind: 'text',
    path: ['client', 'name'],
    reason: unacceptableTextReason('a\u0000'),
    inKey: false,
  })
  t.same(findJsonProblem({ list: ['ok', 'x\uD800'] })?.path, ['list', 1])
  const key = findJsonProblem({ settings: { 'k\u0000': 'v' } })
  t.same([key?.kind, key?.path, key?.kind === 'text' && key.inKey], ['text', ['settings', 'k\u0000'], true])
  t.same(findJsonProblem({ a: 'x\u0000', b: 'y\u0000' })?.path, ['a'], 'the first one')
  t.same(findJsonProblem(['\uDC00'])?.path, [0])
  t.same(findJsonProblem('\u0000')?.path, [], 'the value itself')
  t.equal(findJsonProblem({ a: [1, true, null, { b: 'fine 🚿' }] }), null, 'ordinary JSON')
})
