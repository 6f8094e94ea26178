/** Blog topic candidates from the gaps: order by source, titles, and no repeats of existing topics or each other. */
import t from 'tap'
import { candidateTitle, proposeTopicCandidates } from '../../domain/content/blog/candidates.js'

t.test('titles: questions stay questions, other phrases become guides', async (t) => {
  t.equal(candidateTitle('how often should drains be cleaned'), 'How often should drains be cleaned?')
  t.equal(candidateTitle('  Who is the best plumber in Austin?? '), 'Who is the best plumber in Austin?')
  t.equal(candidateTitle('tankless water heater austin'), 'A Guide to Tankless Water Heater Austin')
  t.ok(candidateTitle('x'.repeat(500)).length <= 300)
})

t.test('candidates come in source order, skip what exists and never repeat', async (t) => {
  const candidates = proposeTopicCandidates(
    {
      keywordGaps: [
        { keywordId: 3, keyword: 'sewer line repair' },
        { keywordId: 4, keyword: 'drain cleaning austin' },
        { keywordId: 5, keyword: 'Sewer Line  Repair' },
      ],
      gscQueries: [
        { query: 'unclog bathroom sink', impressions: 40 },
        { query: 'how to unclog a drain', impressions: 900 },
      ],
      aeoQuestions: [{ queryId: 12, prompt: 'Who is the best emergency plumber in Round Rock?' }],
    },
    { titles: ['How to Unclog a Drain'], targetKeywords: ['drain cleaning austin'] },
    10,
  )
  t.same(candidates, [
    {
      title: 'Who is the best emergency plumber in Round Rock?',
      targetKeyword: 'Who is the best emergency plumber in Round Rock?',
      source: 'aeo_question',
      sourceRef: '12',
    },
    {
      title: 'A Guide to Unclog Bathroom Sink',
      targetKeyword: 'unclog bathroom sink',
      source: 'gsc_query',
      sourceRef: 'unclog bathroom sink',
    },
    { title: 'A Guide to Sewer Line Repair', targetKeyword: 'sewer line repair', source: 'keyword_gap', sourceRef: '3' },
  ])
  const one = proposeTopicCandidates(
    {
      keywordGaps: [
        { keywordId: 1, keyword: 'a b' },
        { keywordId: 2, keyword: 'c d' },
      ],
      gscQueries: [],
      aeoQuestions: [],
    },
    { titles: [], targetKeywords: [] },
    1,
  )
  t.equal(one.length, 1, 'at most max')
  t.same(
    proposeTopicCandidates(
      { keywordGaps: [{ keywordId: 1, keyword: '!!!' }], gscQueries: [], aeoQuestions: [] },
      { titles: [], targetKeywords: [] },
      5,
    ),
    [],
    'nothing to write about',
  )
})
