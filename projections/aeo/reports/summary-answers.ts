/** How many built answers a process keeps per read handle: a few KB each, so a few MB at most. */
const MAX_ANSWERS = 2_000

/**
 * get_aeo_summary answers already built, each with the statement's row it was built from, as JSON text
 * (summary-query.ts). Building an answer is a pure function of that row, so when a later statement returns
 * the same text for the same ask the answer is the same, and the one built before is handed out again:
 * dashboards and agents ask for the same summaries over and over while the captures behind them change a
 * few times a month. Every request still runs its statement, so an answer is never older than its request
 * (read-your-writes holds); only the parsing, the rates and the serialising are spared (with
 * read-api/platform/shared-answer.ts, which serialises a shared answer once).
 *
 * The answers are shared, so nobody may change one after it is handed out (the RPC route only serialises
 * them). Bounded: past MAX_ANSWERS the oldest is forgotten.
 */
export class SummaryAnswers<Answer> {
  private readonly answers = new Map<string, { readonly text: string; readonly answer: Answer }>()

  /** The answer built from `text` for `key`: the remembered one when `text` is the same, else `build(text)`. */
  of(key: string, text: string, build: (text: string) => Answer): Answer {
    const known = this.answers.get(key)
    if (known !== undefined && known.text === text) return known.answer
    const answer = build(text)
    this.answers.delete(key)
    if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!)
    this.answers.set(key, { text, answer })
    return answer
  }
}
