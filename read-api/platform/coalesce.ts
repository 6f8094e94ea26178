/**
 * Group commit for per-request statements on one hot key: per key, at most one call of `run` is in flight;
 * the requests that arrive while it runs wait and then share the next call, which gets all their inputs at
 * once and answers each of them (in the order they arrived).
 *
 * Every request's answer therefore comes from a statement that started after the request arrived: nothing is
 * served from a cache, so a revoked key or a full window is seen exactly as without coalescing. A request on an
 * idle key runs at once; under load a key costs one statement per round trip instead of one per request, which
 * is what lets 64 concurrent reads of one API key not queue up behind 64 writes of the same counter row.
 *
 * Only one process's requests are coalesced: what must be shared (rate-limit windows) stays in PostgreSQL and
 * is still updated atomically by each statement.
 */
export class Coalescer<K, I, O> {
  private readonly keys = new Map<K, { running: boolean; waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] }>()

  /** `run` must answer one output per input, in the inputs' order; if it throws, every request of that call gets the error. */
  constructor(private readonly run: (key: K, inputs: readonly I[]) => Promise<readonly O[]>) {}

  submit(key: K, input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let entry = this.keys.get(key)
      if (!entry) {
        entry = { running: false, waiting: [] }
        this.keys.set(key, entry)
      }
      entry.waiting.push({ input, resolve, reject })
      if (!entry.running) void this.flush(key, entry)
    })
  }

  private async flush(
    key: K,
    entry: { running: boolean; waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] },
  ): Promise<void> {
    entry.running = true
    while (entry.waiting.length > 0) {
      const batch = entry.waiting
      entry.waiting = []
      try {
        const outputs = await this.run(
          key,
          batch.map((w) => w.input),
        )
        batch.forEach((w, i) => {
          w.resolve(outputs[i]!)
        })
      } catch (error) {
        for (const w of batch) w.reject(error)
      }
    }
    entry.running = false
    this.keys.delete(key)
  }
}
