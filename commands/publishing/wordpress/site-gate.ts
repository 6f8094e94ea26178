/**
 * A limit on requests in flight to one site, shared by every WordPress client in this process: a publishing
 * job, a connection check and a second job for the same client all queue at the same gate, so the service
 * never hammers one site (a small shared host answers 503 or bans the address long before we would notice).
 * Keyed by the site's origin; a gate with nobody in or waiting is dropped, so the map stays small.
 */
interface Gate {
  inFlight: number
  readonly waiting: (() => void)[]
}

const gates = new Map<string, Gate>()

/** Runs `work` once fewer than `limit` requests to `origin` are in flight; waits (in order) otherwise. */
export async function throughSiteGate<T>(origin: string, limit: number, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let gate = gates.get(origin)
  if (!gate) {
    gate = { inFlight: 0, waiting: [] }
    gates.set(origin, gate)
  }
  const g = gate
  if (g.inFlight >= Math.max(1, limit)) {
    await new Promise<void>((resolve, reject) => {
      const enter = () => {
        signal?.removeEventListener('abort', abandon)
        resolve()
      }
      const abandon = () => {
        const at = g.waiting.indexOf(enter)
        if (at >= 0) g.waiting.splice(at, 1)
        reject(signal?.reason ?? new Error('aborted'))
      }
      signal?.addEventListener('abort', abandon, { once: true })
      g.waiting.push(enter)
    })
  } else {
    g.inFlight++
  }
  try {
    return await work()
  } finally {
    const next = g.waiting.shift()
    // The place passes straight to the next in line (inFlight unchanged), so nobody can overtake it.
    if (next) next()
    else if (--g.inFlight === 0) gates.delete(origin)
  }
}

/** Requests in flight to an origin now (tests and metrics). */
export const inFlightAt = (origin: string): number => gates.get(origin)?.inFlight ?? 0
