/**
 * The metrics processor's bounds on its provider calls: the limiter spaces calls and keeps at most N in a
 * window (DataForSEO's 12 a minute on Google Ads live), in the order asked; retries try again only what may
 * pass, with growing waits, and say how it went.
 */
import t from 'tap'
import { CallLimiter } from '../../processors/search/metrics/limiter.js'
import { ProviderCallError } from '../../processors/search/metrics/provider.js'
import { withRetries } from '../../processors/search/metrics/retries.js'

const outage = { code: 'metrics_provider_unavailable' as const, message: 'Internal Error.', http_status: 500, provider_status: 50000 }
const billing = {
  code: 'metrics_provider_payment_required' as const,
  message: 'Payment Required.',
  http_status: 402,
  provider_status: 40200,
}

t.test('the window: the calls past its size wait until the window has moved on, in order', async (t) => {
  let now = 1_000_000
  const limiter = new CallLimiter({ minIntervalMs: 0, window: { calls: 2, ms: 50 } }, () => now)
  const signal = new AbortController().signal
  const started: number[] = []
  await limiter.take(signal).then(() => started.push(1))
  await limiter.take(signal).then(() => started.push(2))
  const third = limiter.take(signal).then(() => started.push(3))
  const fourth = limiter.take(signal).then(() => started.push(4))
  await new Promise((resolve) => setTimeout(resolve, 120))
  t.same(started, [1, 2], 'two calls in the window; the others wait while the window has not moved')
  now += 50
  await third
  await fourth
  t.same(started, [1, 2, 3, 4], 'then in the order asked')
})

t.test('spacing: a call waits for the interval since the last one; an abort lets waiting callers go', async (t) => {
  let now = 0
  const limiter = new CallLimiter({ minIntervalMs: 1000 }, () => now)
  const controller = new AbortController()
  await limiter.take(controller.signal)
  let second = false
  const waiting = limiter.take(controller.signal).then(() => {
    second = true
  })
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.notOk(second, 'still waiting for the interval')
  controller.abort()
  await waiting
  t.ok(second, 'released by the abort (the caller checks its signal)')
  now = 5000
  await limiter.take(new AbortController().signal)
  t.pass('after the interval, at once')
})

t.test('retries: outages are tried again with growing waits, billing is not, and the outcome says how it went', async (t) => {
  const signal = new AbortController().signal
  let calls = 0
  const recovered = await withRetries({ maxAttempts: 4, backoffBaseMs: 1, random: () => 0 }, signal, async () => {
    calls++
    if (calls < 3) throw new ProviderCallError(outage, true, 0.01)
    return { value: 'answer', costUsd: 0.075 }
  })
  t.same(recovered, { ok: true, value: 'answer', attempts: 3, lastError: outage, costUsd: 0.095 })

  calls = 0
  const exhausted = await withRetries({ maxAttempts: 2, backoffBaseMs: 1 }, signal, async () => {
    calls++
    throw new ProviderCallError(outage, true)
  })
  t.same(exhausted, { ok: false, error: outage, attempts: 2, costUsd: 0 })
  t.equal(calls, 2, 'no more than the attempts')

  calls = 0
  const refused = await withRetries({ maxAttempts: 4, backoffBaseMs: 1 }, signal, async () => {
    calls++
    throw new ProviderCallError(billing, false)
  })
  t.same(refused, { ok: false, error: billing, attempts: 1, costUsd: 0 })
  t.equal(calls, 1, 'a 402 is not tried again')

  await t.rejects(
    withRetries({ maxAttempts: 3, backoffBaseMs: 1 }, signal, async () => {
      throw new TypeError('a bug, not the provider')
    }),
    TypeError,
    'anything else is not a provider failure: it propagates',
  )
})
