/**
 * SummaryAnswers hands out the answer it built before only while the row it was built from is the same
 * text, rebuilds on any change, and forgets the oldest past its bound.
 */
import t from 'tap'
import { SummaryAnswers } from '../../projections/aeo/reports/summary-answers.js'

t.test('the same row text gives the same answer object; a changed one is built again', async (t) => {
  const answers = new SummaryAnswers<{ built: string }>()
  const builds: string[] = []
  const build = (text: string) => {
    builds.push(text)
    return { built: text }
  }
  const first = answers.of('7/', '{"a":1}', build)
  t.equal(answers.of('7/', '{"a":1}', build), first, 'same key, same text: the answer built before')
  const changed = answers.of('7/', '{"a":2}', build)
  t.not(changed, first, 'same key, other text: a new answer')
  t.same(changed, { built: '{"a":2}' })
  t.not(answers.of('7/2026-01', '{"a":2}', build), changed, 'another ask is its own entry, even with the same text')
  t.equal(answers.of('7/', '{"a":2}', build), changed, 'the changed answer is remembered in turn')
  t.same(builds, ['{"a":1}', '{"a":2}', '{"a":2}'])
})

t.test('bounded: past 2,000 answers the oldest is forgotten, the newest kept', async (t) => {
  const answers = new SummaryAnswers<{ n: number }>()
  let builds = 0
  const build = (text: string) => {
    builds++
    return { n: Number(text) }
  }
  const oldest = answers.of('0/', '0', build)
  const kept = [oldest]
  for (let i = 1; i <= 2_000; i++) kept.push(answers.of(`${i}/`, String(i), build))
  t.equal(builds, 2_001)
  t.equal(answers.of('2000/', '2000', build), kept[2_000], 'the newest is still remembered')
  t.equal(builds, 2_001)
  t.not(answers.of('0/', '0', build), oldest, 'the oldest was forgotten and is built again')
  t.equal(builds, 2_002)
})
