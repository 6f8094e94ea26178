/**
 * processors/sleep.ts: the processors' loops sleep on one long-lived signal, so a sleep must leave no abort
 * listener behind however it ends (the timer, a wake, the abort) — before, the loops grew one per pass and Node
 * warned MaxListenersExceededWarning.
 */
import { getEventListeners } from 'node:events'
import t from 'tap'
import { sleep } from '../../commands/sleep.js'

t.test('ended by the timer, by a wake or by the abort: no listener stays on the signal', async (t) => {
  const controller = new AbortController()
  const warnings: string[] = []
  const onWarning = (warning: Error) => void warnings.push(warning.name)
  process.on('warning', onWarning)
  t.teardown(() => void process.off('warning', onWarning))
  for (let i = 0; i < 30; i++) await sleep(1, controller.signal)
  t.equal(getEventListeners(controller.signal, 'abort').length, 0, '30 timed-out sleeps')
  for (let i = 0; i < 30; i++) {
    let wake: (() => void) | undefined
    const slept = sleep(60_000, controller.signal, (w) => (wake = w))
    wake!()
    await slept
  }
  t.equal(getEventListeners(controller.signal, 'abort').length, 0, '30 sleeps woken early (the job runner on new work)')
  const pending = sleep(60_000, controller.signal)
  t.equal(getEventListeners(controller.signal, 'abort').length, 1, 'a sleep in progress listens')
  controller.abort()
  await pending
  t.equal(getEventListeners(controller.signal, 'abort').length, 0, 'the abort ends it and its listener')
  const started = Date.now()
  await sleep(60_000, controller.signal)
  t.ok(Date.now() - started < 1000, 'an already aborted signal does not sleep')
  await new Promise((resolve) => setImmediate(resolve))
  t.same(
    warnings.filter((w) => w === 'MaxListenersExceededWarning'),
    [],
    'no warning',
  )
})
