/**
 * The deterministic writer prompted_edit uses when no language model is configured (and in tests). It
 * understands a small, documented set of plain-English instructions, one per line or separated by `;`:
 *
 *   replace|change|swap|rename <old> with|to|by <new>   every occurrence of <old> (case-insensitive) becomes <new>
 *   remove|delete|drop <text>                           every occurrence of <text> is removed
 *   add|append|insert|mention <text> [at the top]       <text> becomes a new paragraph at the end (or the top)
 *
 * Quotes around <old>, <new> and <text> are optional and dropped. Anything else changes nothing, and the
 * summary says so: free-form rewrites need a language model (ANTHROPIC_API_KEY or OPENAI_API_KEY).
 */
export interface RewriteResult {
  readonly content: string
  readonly changed: boolean
  /** One line per instruction: what was done, or why nothing was. */
  readonly summary: string
  /** The page's text around the first change, before it (the start of the page when nothing changed). */
  readonly beforeExcerpt: string
}

export const BUILT_IN_WRITER = 'built-in'
const EXCERPT_CHARS = 240

const REPLACE = /^(?:replace|change|swap|rename|update)\s+(.+?)\s+(?:with|to|by|into)\s+(.+)$/is
const REMOVE = /^(?:remove|delete|drop)\s+(.+)$/is
const ADD =
  /^(?:add|append|insert|mention|include)\s+(.+?)(\s+(?:at|to)\s+the\s+(?:top|beginning|start)(?:\s+of\s+the\s+page)?)?(?:\s+(?:at|to)\s+the\s+(?:end|bottom)(?:\s+of\s+the\s+page)?|\s+to\s+the\s+page)?$/is

function unquote(text: string): string {
  const t = text
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
  const m = /^(["'“‘`])(.*)(["'”’`])$/s.exec(t)
  // Inside quotes the text is taken as written (a quoted leading space is meant).
  return m ? m[2]! : t
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const looksLikeHtml = (content: string) => /<[a-z][\s\S]*>/i.test(content)

function excerptAround(content: string, index: number): string {
  if (content.length <= EXCERPT_CHARS) return content
  const start = Math.max(0, Math.min(index - EXCERPT_CHARS / 4, content.length - EXCERPT_CHARS))
  return `${start > 0 ? '…' : ''}${content.slice(start, start + EXCERPT_CHARS)}${start + EXCERPT_CHARS < content.length ? '…' : ''}`
}

/** Splits an instruction into its steps (lines or `;`-separated parts). */
export function instructionSteps(instruction: string): string[] {
  return instruction
    .split(/[\n;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

interface Step {
  readonly content: string
  readonly note: string
  /** Where the first change happened in the content the step was given (null: none). */
  readonly at: number | null
}

function applyStep(content: string, step: string): Step {
  const replace = REPLACE.exec(step)
  if (replace) {
    const from = unquote(replace[1]!)
    const to = unquote(replace[2]!)
    if (from === '') return { content, at: null, note: `nothing to replace in "${step}"` }
    const pattern = new RegExp(escapeRegExp(from), 'gi')
    const at = content.search(pattern)
    if (at < 0) return { content, at: null, note: `"${from}" does not occur on the page` }
    const count = content.match(pattern)!.length
    return { content: content.replace(pattern, () => to), at, note: `replaced "${from}" with "${to}" (${count}×)` }
  }
  const remove = REMOVE.exec(step)
  if (remove) {
    const text = unquote(remove[1]!)
    const pattern = new RegExp(escapeRegExp(text), 'gi')
    const at = text === '' ? -1 : content.search(pattern)
    if (at < 0) return { content, at: null, note: `"${text}" does not occur on the page` }
    const count = content.match(pattern)!.length
    const removed = content.replace(pattern, '').replace(/[ \t]{2,}/g, ' ')
    return { content: removed, at, note: `removed "${text}" (${count}×)` }
  }
  const add = ADD.exec(step)
  if (add) {
    const text = unquote(add[1]!)
    if (text === '') return { content, at: null, note: `nothing to add in "${step}"` }
    const atTop = add[2] !== undefined
    const block = looksLikeHtml(content) ? `<p>${text}</p>` : text
    if (content.trim() === '') return { content: block, at: 0, note: `added "${text}"` }
    return atTop
      ? { content: `${block}\n${content}`, at: 0, note: `added "${text}" at the top` }
      : { content: `${content.replace(/\s+$/, '')}\n${block}`, at: content.length, note: `added "${text}" at the end` }
  }
  return {
    content,
    at: null,
    note: `not understood by the built-in writer: "${step}" (it applies replace … with …, remove …, add …; configure a language model for free-form rewrites)`,
  }
}

/** The page's content rewritten by the instruction. Pure: the same content and instruction give the same result. */
export function builtInRewrite(content: string, instruction: string): RewriteResult {
  let current = content
  let firstChange: number | null = null
  const notes: string[] = []
  for (const step of instructionSteps(instruction)) {
    const result = applyStep(current, step)
    // The first change's position is only meaningful in the original content: take it from the first step that changed anything.
    if (firstChange === null && result.at !== null && result.content !== current) firstChange = result.at
    current = result.content
    notes.push(result.note)
  }
  const changed = current !== content
  return {
    content: current,
    changed,
    summary: notes.join('; ') || 'empty instruction',
    beforeExcerpt: excerptAround(content, firstChange ?? 0),
  }
}
