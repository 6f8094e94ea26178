/**
 * Groups an async stream into batches: everything that is already available (up to `maxSize`) goes in
 * one batch, and a batch is yielded as soon as the source would have to wait. Keeps transactions large
 * during catch-up and latency low when live.
 */
export async function* batches<T>(source: AsyncIterable<T>, maxSize: number): AsyncIterable<T[]> {
  const iterator = source[Symbol.asyncIterator]()
  const notYet = Symbol('not yet')
  try {
    let pending = iterator.next()
    for (;;) {
      const first = await pending
      if (first.done) return
      const batch = [first.value]
      pending = iterator.next()
      let ended = false
      while (batch.length < maxSize) {
        const next = await Promise.race([pending, new Promise<typeof notYet>((r) => setImmediate(() => r(notYet)))])
        if (next === notYet) break
        if (next.done) {
          ended = true
          break
        }
        batch.push(next.value)
        pending = iterator.next()
      }
      yield batch
      if (ended) return
    }
  } finally {
    void iterator.return?.()
  }
}
