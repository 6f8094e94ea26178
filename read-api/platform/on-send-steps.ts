import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * One step of the app's response hook: sets headers (or records the answer). It returns a promise only when it
 * has asynchronous work to do for this response (the idempotency record), undefined otherwise.
 */
export type OnSendStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void | Promise<void>

const stepsOf = new WeakMap<FastifyInstance, OnSendStep[]>()

/**
 * Adds a step to the app's single onSend hook. The request id, rate-limit, idempotency and deprecation modules
 * each need one; a hook of their own each would cost four hook turns and four promises on every response, most
 * of which only set a header. One synchronous hook runs the steps in the order they were added, awaiting a step
 * only when it returns a promise; a step that throws or rejects fails the response as a throwing hook would.
 */
export function addOnSendStep(app: FastifyInstance, step: OnSendStep): void {
  let steps = stepsOf.get(app)
  if (!steps) {
    const list: OnSendStep[] = []
    steps = list
    stepsOf.set(app, list)
    app.addHook('onSend', (request, reply, payload, done) => runSteps(list, 0, request, reply, payload, done))
  }
  steps.push(step)
}

function runSteps(
  steps: readonly OnSendStep[],
  from: number,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  for (let i = from; i < steps.length; i++) {
    let pending: void | Promise<void>
    try {
      pending = steps[i]!(request, reply, payload)
    } catch (error) {
      done(error as Error)
      return
    }
    if (pending !== undefined) {
      pending.then(
        () => runSteps(steps, i + 1, request, reply, payload, done),
        (error: unknown) => done(error as Error),
      )
      return
    }
  }
  done(null, payload)
}
