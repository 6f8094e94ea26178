/**
 * The question-set aggregate, given/when/then: get-or-create by normalized prompt, updates and prompt
 * conflicts, delete (or deactivate when captured), bulk delete, merging duplicates, and the cap.
 */
import fc from 'fast-check'
import t from 'tap'
import type { AeoQuestionEvent } from '../../domain/aeo/questions/events.js'
import { promptKey } from '../../domain/aeo/prompt.js'
import {
  MAX_QUESTIONS_PER_CLIENT,
  questionSet,
  type NewQuestion,
  type QuestionSetCommand,
} from '../../domain/aeo/questions/question-set.js'
import { fold } from '../../domain/shared/aggregate.js'
import { DomainError } from '../../domain/shared/errors.js'
import { spec } from './given-when-then.js'

const CLIENT = 34
const given = spec(questionSet)

type Added = Extract<AeoQuestionEvent, { type: 'AeoQuestionAdded' }>

const added = (query_id: number, prompt: string, extra: Partial<Added['data']> = {}): Added => ({
  type: 'AeoQuestionAdded',
  data: {
    client_id: CLIENT,
    query_id,
    prompt,
    prompt_key: promptKey(prompt),
    engine: 'chatgpt-web',
    service: '',
    location: '',
    kind: 'custom',
    priority: 50,
    active: true,
    source: 'manual',
    ...extra,
  },
})

const manual = (query_id: number, prompt: string, extra: Partial<NewQuestion> = {}): NewQuestion => ({
  query_id,
  prompt,
  engine: 'chatgpt-web',
  service: '',
  location: '',
  kind: 'custom',
  priority: 50,
  active: true,
  source: 'manual',
  ...extra,
})

const add = (...questions: NewQuestion[]) => ({ type: 'AddQuestions' as const, client_id: CLIENT, questions, overflow: 'refuse' as const })

t.test('promptKey ignores case, punctuation, apostrophes and spacing', async (t) => {
  t.equal(promptKey('Best plumber in Austin, TX?'), 'best plumber in austin tx')
  t.equal(promptKey('  best   PLUMBER in austin tx '), 'best plumber in austin tx')
  t.equal(promptKey("Who's the best plumber?"), 'whos the best plumber')
  t.equal(promptKey('Who’s the best plumber'), 'whos the best plumber')
  t.equal(promptKey('¿Quién es el mejor fontanero?'), 'quién es el mejor fontanero')
  t.equal(promptKey('???'), '')
})

t.test('AddQuestions', async (t) => {
  t.test('adds a new question with its normalized key', async (t) => {
    given()
      .when(add(manual(1, 'Best plumber in Austin, TX?')))
      .then(t, [added(1, 'Best plumber in Austin, TX?')])
  })

  t.test('an existing prompt, differently cased and punctuated, adds nothing (any engine)', async (t) => {
    given(added(1, 'Best plumber in Austin, TX?', { engine: 'claude' }))
      .when(add(manual(2, 'best PLUMBER in austin tx', { engine: 'gemini' })))
      .thenNothingHappens(t)
  })

  t.test('a question stored under an older key is still found by its prompt', async (t) => {
    given(added(1, 'Best plumber in Austin, TX', { prompt_key: 'best plumber in austin, tx' }))
      .when(add(manual(2, 'best plumber in austin tx')))
      .thenNothingHappens(t)
  })

  t.test('duplicates within one command are added once', async (t) => {
    given()
      .when(add(manual(1, 'Drain cleaning cost?'), manual(2, 'drain cleaning cost'), manual(3, 'Other')))
      .then(t, [added(1, 'Drain cleaning cost?'), added(3, 'Other')])
  })

  t.test('a deleted question does not block the same prompt again (a new id)', async (t) => {
    given(added(1, 'Best plumber'), { type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 1 } })
      .when(add(manual(2, 'best plumber')))
      .then(t, [added(2, 'best plumber')])
  })

  t.test('a prompt without letters or digits is refused', async (t) => {
    given()
      .when(add(manual(1, '?!?')))
      .thenThrows(t, 'validation_failed')
  })

  t.test('the cap: refuse, or add only what fits', async (t) => {
    const full = Array.from({ length: MAX_QUESTIONS_PER_CLIENT }, (_, i) => added(i + 1, `question number ${i + 1}`))
    given(...full)
      .when(add(manual(9999, 'one more question')))
      .thenThrows(t, 'aeo_question_limit')
    given(...full)
      .when(add(manual(9999, 'question number 7')))
      .thenNothingHappens(t)
    const almost = full.slice(0, -1)
    given(...almost)
      .when({
        type: 'AddQuestions',
        client_id: CLIENT,
        overflow: 'truncate',
        questions: [manual(9998, 'first extra'), manual(9999, 'second extra')],
      })
      .then(t, [added(9998, 'first extra')])
  })
})

t.test('UpdateQuestion', async (t) => {
  const base = [added(1, 'Best plumber in Austin'), added(2, 'Cheap plumber in Austin')]
  const update = (query_id: number, changes: Record<string, unknown>) => ({
    type: 'UpdateQuestion' as const,
    client_id: CLIENT,
    query_id,
    ...changes,
  })

  t.test('only the fields that change are recorded', async (t) => {
    given(...base)
      .when(update(1, { active: false, priority: 50, service: 'Plumbing', kind: 'best-of' }))
      .then(t, [
        { type: 'AeoQuestionUpdated', data: { client_id: CLIENT, query_id: 1, active: false, service: 'Plumbing', kind: 'best-of' } },
      ])
  })

  t.test('nothing changes: no event', async (t) => {
    given(...base)
      .when(update(1, { active: true, priority: 50 }))
      .thenNothingHappens(t)
  })

  t.test('a new prompt records its key', async (t) => {
    given(...base)
      .when(update(1, { prompt: 'Best plumber in Round Rock?' }))
      .then(t, [
        {
          type: 'AeoQuestionUpdated',
          data: { client_id: CLIENT, query_id: 1, prompt: 'Best plumber in Round Rock?', prompt_key: 'best plumber in round rock' },
        },
      ])
  })

  t.test('re-punctuating its own prompt is allowed', async (t) => {
    given(...base)
      .when(update(1, { prompt: 'best plumber in austin?' }))
      .then(t, [
        {
          type: 'AeoQuestionUpdated',
          data: { client_id: CLIENT, query_id: 1, prompt: 'best plumber in austin?', prompt_key: 'best plumber in austin' },
        },
      ])
  })

  t.test("a prompt that normalizes like another question's is a conflict naming it", async (t) => {
    given(...base)
      .when(update(1, { prompt: 'CHEAP plumber, in Austin!' }))
      .thenThrows(t, 'aeo_question_conflict', { detail: 'question 2 has the same normalized prompt' })
  })

  t.test('a missing or deleted question is not found', async (t) => {
    given(...base)
      .when(update(3, { active: false }))
      .thenThrows(t, 'not_found')
    given(...base, { type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 1 } })
      .when(update(1, { active: false }))
      .thenThrows(t, 'not_found')
  })
})

t.test('DeleteQuestion', async (t) => {
  const del = (query_id: number, captured: boolean) => ({ type: 'DeleteQuestion' as const, client_id: CLIENT, query_id, captured })
  t.test('uncaptured: deleted', async (t) => {
    given(added(1, 'a question'))
      .when(del(1, false))
      .then(t, [{ type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 1 } }])
  })
  t.test('captured: deactivated instead', async (t) => {
    given(added(1, 'a question'))
      .when(del(1, true))
      .then(t, [{ type: 'AeoQuestionUpdated', data: { client_id: CLIENT, query_id: 1, active: false } }])
  })
  t.test('captured and already inactive: nothing', async (t) => {
    given(added(1, 'a question', { active: false }))
      .when(del(1, true))
      .thenNothingHappens(t)
  })
  t.test('missing: not found', async (t) => {
    given().when(del(1, false)).thenThrows(t, 'not_found')
  })
})

t.test('DeleteQuestions deletes every live question but the kept ones', async (t) => {
  given(added(1, 'one'), added(2, 'two'), added(3, 'three'), { type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 3 } })
    .when({ type: 'DeleteQuestions', client_id: CLIENT, keep: [2] })
    .then(t, [{ type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 1 } }])
  given().when({ type: 'DeleteQuestions', client_id: CLIENT, keep: [] }).thenNothingHappens(t)
})

t.test('MergeDuplicates', async (t) => {
  const merge = { type: 'MergeDuplicates' as const, client_id: CLIENT }

  t.test('merges into the oldest; canonical takes any active and the highest priority, and today’s key', async (t) => {
    const events = given(
      added(5, 'Best plumber in Austin, TX', {
        prompt_key: 'best plumber in austin, tx',
        active: false,
        priority: 40,
        engine: 'chatgpt-web',
      }),
      added(3, 'Unrelated question'),
      added(7, 'best plumber in austin tx', { engine: 'claude', priority: 80 }),
      added(9, 'BEST PLUMBER IN AUSTIN TX?', { engine: 'gemini', active: false, priority: 10 }),
    )
      .when(merge)
      .then(t, [
        { type: 'AeoQuestionsMerged', data: { client_id: CLIENT, canonical_id: 5, merged_ids: [7, 9] } },
        {
          type: 'AeoQuestionUpdated',
          data: {
            client_id: CLIENT,
            query_id: 5,
            active: true,
            priority: 80,
            prompt: 'Best plumber in Austin, TX',
            prompt_key: 'best plumber in austin tx',
          },
        },
      ])
    const state = fold(questionSet, [
      added(5, 'Best plumber in Austin, TX', { prompt_key: 'best plumber in austin, tx', active: false, priority: 40 }),
      added(3, 'Unrelated question'),
      added(7, 'best plumber in austin tx', { priority: 80 }),
      added(9, 'BEST PLUMBER IN AUSTIN TX?', { active: false, priority: 10 }),
      ...events,
    ])
    t.strictSame(
      state.questions.map((q) => [q.id, q.deleted, q.merged_into, q.active, q.priority]),
      [
        [5, false, null, true, 80],
        [3, false, null, true, 50],
        [7, true, 5, true, 80],
        [9, true, 5, false, 10],
      ],
    )
  })

  t.test('no duplicates: nothing; deleted rows are not merged', async (t) => {
    given(added(1, 'one'), added(2, 'two')).when(merge).thenNothingHappens(t)
    given(added(1, 'one'), { type: 'AeoQuestionDeleted', data: { client_id: CLIENT, query_id: 1 } }, added(2, 'ONE'))
      .when(merge)
      .thenNothingHappens(t)
  })

  t.test('a canonical that already matches gets no update', async (t) => {
    given(added(1, 'one question', { priority: 60 }), added(2, 'One question!', { priority: 60 }))
      .when(merge)
      .then(t, [{ type: 'AeoQuestionsMerged', data: { client_id: CLIENT, canonical_id: 1, merged_ids: [2] } }])
  })
})

t.test('property: whatever is added, updated and merged, live prompts stay unique by normalized key', async (t) => {
  const words = ['Best', 'best', 'PLUMBER', 'plumber', 'in', 'Austin', 'austin,', 'TX?', 'tx', 'cost']
  const promptArb = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '))
  const commandArb = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), prompts: fc.array(promptArb, { minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), prompt: promptArb }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), captured: fc.boolean() }),
    fc.constant({ kind: 'merge' as const }),
  )
  fc.assert(
    fc.property(fc.array(commandArb, { maxLength: 25 }), (steps) => {
      let state = questionSet.initialState()
      let nextId = 1
      for (const step of steps) {
        const live = state.questions.filter((q) => !q.deleted)
        let command: QuestionSetCommand
        if (step.kind === 'add') command = add(...step.prompts.map((p) => manual(nextId++, p)))
        else if (step.kind === 'merge') command = { type: 'MergeDuplicates', client_id: CLIENT }
        else if (live.length === 0) continue
        else if (step.kind === 'update')
          command = { type: 'UpdateQuestion', client_id: CLIENT, query_id: live[step.pick % live.length]!.id, prompt: step.prompt }
        else command = { type: 'DeleteQuestion', client_id: CLIENT, query_id: live[step.pick % live.length]!.id, captured: step.captured }
        let events: readonly AeoQuestionEvent[] = []
        try {
          events = questionSet.decide(command, state)
        } catch (error) {
          if (!(error instanceof DomainError) || !['aeo_question_conflict', 'validation_failed'].includes(error.code)) throw error
        }
        for (const event of events) state = questionSet.evolve(state, event)
        const keys = state.questions.filter((q) => !q.deleted).map((q) => promptKey(q.prompt))
        if (new Set(keys).size !== keys.length) return false
      }
      return true
    }),
    { numRuns: 300 },
  )
  t.pass('no two live questions ever share a normalized prompt')
})
