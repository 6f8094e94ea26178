/**
 * The failed assertions of a TAP stream, each named by its path of subtests ("file > test > assertion"),
 * for the closing lines of `npm test`. The stream arrives in chunks; lines are assembled before reading.
 */
export class FailureList {
  readonly lines: string[] = []
  private partial = ''
  // The subtest names open at each indentation depth (tap indents 4 spaces a level).
  private readonly open: string[] = []

  constructor(private readonly limit = 60) {}

  read(chunk: string): void {
    const text = this.partial + chunk
    const lines = text.split('\n')
    this.partial = lines.pop() ?? ''
    for (const line of lines) this.line(line)
  }

  private line(line: string): void {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line)
    if (subtest) {
      const depth = subtest[1]!.length / 4
      this.open.length = depth
      this.open[depth] = subtest[2]!.trim()
      return
    }
    const failed = /^( *)not ok \d+ - (.*?)(?: # time=[\d.]+ms)?$/.exec(line)
    if (!failed) return
    const depth = failed[1]!.length / 4
    // A failed subtest repeats its own name after its failed assertions: keep only the leaves.
    if (this.open[depth] === failed[2] && this.lines.some((l) => l.startsWith(this.path(depth)))) return
    if (this.lines.length < this.limit) this.lines.push(`${this.path(depth)}${failed[2]}`)
    else if (this.lines.length === this.limit) this.lines.push('… and more (search the log for "not ok")')
  }

  private path(depth: number): string {
    return this.open
      .slice(0, depth)
      .map((name) => `${name} > `)
      .join('')
  }
}
