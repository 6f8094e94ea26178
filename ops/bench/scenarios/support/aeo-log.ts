/**
 * The AI Visibility part of the bench's realistic log: per client, a question set added once, then monthly
 * rounds of captured answers, each analyzed by the real analysis and tracked by the real tracker, so the
 * events are the ones `add_aeo_queries` and `ingest_aeo_capture` would append (AeoQuestionAdded on the
 * question set; AeoCaptureIngested on the capture, then AeoCaptureTracked on the client's tracker, one
 * command). The decisions are the aggregates' own `decide` and `evolve`; nothing here is a copy of them.
 */
import { createHash } from 'node:crypto'
import { analyze, ANALYSIS_VERSION, type AnalysisQuestion } from '../../../../domain/aeo/analysis/analyze.js'
import { captureStream } from '../../../../domain/aeo/captures/capture.js'
import type { Engine } from '../../../../domain/aeo/engines.js'
import { questionSet, questionSetStream, type NewQuestion, type QuestionSetState } from '../../../../domain/aeo/questions/question-set.js'
import { tracker, trackerStream, type TrackerState } from '../../../../domain/aeo/tracker/tracker.js'

export type Draft = { type: string; data: Record<string, unknown> }

/** One command's appends: each stream's events in one append, in order, under one command's metadata. */
export type CommandAppends = { stream: string; drafts: Draft[] }[]

export interface AeoIds {
  query(): number
  capture(): number
  item(): number
}

/** What the analysis reads of a client, as it is when the round is captured. */
export interface AeoClientFacts {
  readonly id: number
  readonly name: string
  readonly websiteUrl: string
  readonly services: readonly string[]
  readonly locations: readonly string[]
}

const ENGINES: readonly Engine[] = ['claude', 'openai', 'gemini']
const MODELS: Readonly<Record<string, string>> = { claude: 'claude-sonnet-4-5', openai: 'gpt-5', gemini: 'gemini-2.5-pro' }
const COMPETITORS = [
  'Ace Plumbing & Rooter',
  'Reliable Drain Pros',
  'Capital City Plumbers',
  'Lone Star Water Heaters',
  'Blue Ribbon Home Services',
  'Mr. Rooter',
  'Roto-Rooter',
  'Benjamin Franklin Plumbing',
  'ARS Rescue Rooter',
  'Radiant Plumbing & Air',
]
const PRAISE = [
  'well reviewed, licensed and insured',
  'same-day service and upfront pricing',
  'family owned since 1998',
  'known for fast emergency response',
  'strong Google reviews',
  'free estimates',
  'BBB accredited',
]
const SOURCES = [
  'https://www.yelp.com/search?find_desc=',
  'https://www.bbb.org/search?find_text=',
  'https://www.angi.com/companylist/',
  'https://www.reddit.com/r/',
]
/** Questions a client's set starts with, and the most captured per monthly round. */
const QUESTIONS = { min: 2, max: 6 }
const CAPTURES_PER_ROUND = 12
/** The first month captured; each round is the client's next month. */
const FIRST_MONTH = { year: 2024, month: 1 }

/** One client's AI Visibility: its question set and tracker as the command handler would load them. */
export class AeoClientLog {
  #questions: QuestionSetState = questionSet.initialState()
  #tracker: TrackerState = tracker.initialState()
  #rounds = 0
  readonly #engines: readonly Engine[]
  readonly #random: () => number
  readonly #ids: AeoIds

  constructor(random: () => number, ids: AeoIds) {
    this.#random = random
    this.#ids = ids
    // A client is asked on one to three engines, the same ones every month.
    this.#engines = ENGINES.slice(0, 1 + Math.floor(random() * ENGINES.length))
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)]!
  }

  /**
   * The commands of one monthly round: the question set first when the client has none, then one ingest per
   * captured answer (up to CAPTURES_PER_ROUND of its question × engine pairs).
   */
  round(client: AeoClientFacts): CommandAppends[] {
    const commands: CommandAppends[] = []
    if (this.#questions.questions.length === 0) commands.push(this.#addQuestions(client))
    const month = this.#month()
    const pairs = this.#questions.questions.flatMap((q) => this.#engines.map((engine) => ({ q, engine })))
    for (const { q, engine } of pairs.slice(0, CAPTURES_PER_ROUND)) commands.push(this.#ingest(client, q, engine, month))
    return commands
  }

  #month(): string {
    const index = FIRST_MONTH.month - 1 + this.#rounds++
    return `${FIRST_MONTH.year + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
  }

  #addQuestions(client: AeoClientFacts): CommandAppends {
    const count = QUESTIONS.min + Math.floor(this.#random() * (QUESTIONS.max - QUESTIONS.min + 1))
    const city = (client.locations[0] ?? 'Austin, TX').split(',')[0]!
    const questions: NewQuestion[] = Array.from({ length: count }, (_, i) => {
      const service = client.services[i % Math.max(1, client.services.length)] ?? 'Plumbing'
      const prompt = [
        `best ${service.toLowerCase()} company in ${city}`,
        `who should I hire for ${service.toLowerCase()} near ${city}`,
        `how much does ${service.toLowerCase()} cost in ${city}`,
      ][Math.floor(i / Math.max(1, client.services.length)) % 3]!
      return {
        query_id: this.#ids.query(),
        prompt,
        engine: 'chatgpt',
        service,
        location: city,
        kind: 'best-of',
        priority: 50,
        active: true,
        source: 'generated',
      }
    })
    const events = questionSet.decide({ type: 'AddQuestions', client_id: client.id, questions, overflow: 'truncate' }, this.#questions)
    for (const event of events) this.#questions = questionSet.evolve(this.#questions, event)
    return [
      { stream: questionSetStream(client.id), drafts: events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> })) },
    ]
  }

  /** An answer as an engine writes one: a numbered list of businesses, the client in about half, a few sources. */
  #answer(client: AeoClientFacts, question: AnalysisQuestion) {
    const names = Array.from({ length: 2 + Math.floor(this.#random() * 3) }, () => this.#pick(COMPETITORS)).filter(
      (n, i, all) => all.indexOf(n) === i,
    )
    if (this.#random() < 0.5) names.splice(Math.floor(this.#random() * (names.length + 1)), 0, client.name)
    const list = names.map((name, i) => `${i + 1}. **${name}**: ${this.#pick(PRAISE)}.`).join('\n')
    const answerText = `For ${question.prompt}, these are well-regarded options:\n\n${list}\n\nCheck recent reviews and ask for a written quote before you book.`
    const citations = Array.from({ length: 1 + Math.floor(this.#random() * 3) }, () => {
      const source = this.#pick(SOURCES)
      return { url: `${source}${encodeURIComponent(question.service)}`, title: new URL(source).hostname }
    })
    if (names.includes(client.name) && this.#random() < 0.5) citations.push({ url: client.websiteUrl, title: client.name })
    return { answerText, citations }
  }

  #ingest(client: AeoClientFacts, q: QuestionSetState['questions'][number], engine: Engine, month: string): CommandAppends {
    const { answerText, citations } = this.#answer(client, q)
    const report = analyze({ answerText, citations, retrieved: [], client, question: q })
    const captureId = this.#ids.capture()
    const record = JSON.stringify({ engine, answer: answerText })
    const ingested: Draft = {
      type: 'AeoCaptureIngested',
      data: {
        capture_id: captureId,
        client_id: client.id,
        query_id: q.id,
        engine,
        month,
        run_id: null,
        answer_text: answerText,
        citations,
        retrieved: [],
        model: MODELS[engine] ?? '',
        surface: 'api',
        searched: true,
        record_sha256: createHash('sha256').update(record).digest('hex'),
        record_bytes: Buffer.byteLength(record),
        analysis_version: ANALYSIS_VERSION,
        report,
      },
    }
    const tracked = tracker.decide(
      {
        type: 'TrackCapture',
        client_id: client.id,
        capture_id: captureId,
        query_id: q.id,
        engine,
        month,
        scorecard: report.scorecard as unknown as Record<string, unknown>,
        findings: report.findings,
        new_item_ids: report.findings.map(() => this.#ids.item()),
      },
      this.#tracker,
    )
    for (const event of tracked) this.#tracker = tracker.evolve(this.#tracker, event)
    return [
      { stream: captureStream(captureId), drafts: [ingested] },
      { stream: trackerStream(client.id), drafts: tracked.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> })) },
    ]
  }
}
