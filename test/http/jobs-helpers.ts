/**
 * Shared by the jobs tests: test-only job handlers (injected through startTestSystem's jobHandlers, never in
 * production code), the job endpoints over inject(), and polling a job until it reaches a status.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { JobContext, JobHandler } from '../../processors/jobs/handler.js'
import type { JobHandlers } from '../../processors/jobs/handler.js'
import type { TestSystem } from '../support/system.js'
import { clientPayload } from './helpers.js'

/** A handler the test steers: it waits until released (or aborted), and records what it saw. */
export class ControlledHandler {
  readonly started: JobContext[] = []
  readonly seen: { jobId: number; aborted: boolean; cancelRequested: boolean }[] = []
  #release: (() => void) | null = null
  #released: Promise<void>
  #onStart: ((ctx: JobContext) => void)[] = []
  /** What the handler does once released: return a result, or throw. */
  outcome: (ctx: JobContext) => Record<string, unknown> = (ctx) => ({ echoed: ctx.job.payload, attempt: ctx.job.attempt })

  constructor() {
    this.#released = new Promise((resolve) => (this.#release = resolve))
  }

  /** Lets every waiting (and future) run finish. */
  release(): void {
    this.#release?.()
  }

  /** Resolves with the context of the next run that starts. */
  nextStart(): Promise<JobContext> {
    return new Promise((resolve) => this.#onStart.push(resolve))
  }

  readonly handler: JobHandler = async (ctx) => {
    this.started.push(ctx)
    for (const wake of this.#onStart.splice(0)) wake(ctx)
    await ctx.progress(1, 4, 'warming up')
    await new Promise<void>((resolve, reject) => {
      void this.#released.then(resolve)
      ctx.signal.addEventListener('abort', () => reject(new Error('stopped by the runner')), { once: true })
    }).catch(async (error: unknown) => {
      this.seen.push({ jobId: ctx.job.jobId, aborted: ctx.signal.aborted, cancelRequested: await ctx.cancelRequested() })
      throw error
    })
    return this.outcome(ctx)
  }
}

/** Handlers for the two shapes of kind: about a client (ad_copy) and about the organization (export_org). */
export function testHandlers(client: ControlledHandler, org: ControlledHandler = client): JobHandlers {
  return { ad_copy: client.handler as JobHandler<'ad_copy'>, export_org: org.handler as JobHandler<'export_org'> }
}

export function postJob(
  app: FastifyInstance,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })
}

export function getJob(app: FastifyInstance, key: string, jobId: number | string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: { authorization: `Bearer ${key}` } })
}

export function cancelJob(app: FastifyInstance, key: string, jobId: number | string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `/api/v1/jobs/${jobId}/cancel`, headers: { authorization: `Bearer ${key}` } })
}

/** Polls GET /api/v1/jobs/<id> until `accept` says yes (or `status` matches); throws after timeoutMs. */
export async function waitForJob(
  app: FastifyInstance,
  key: string,
  jobId: number,
  status: string | ((job: any) => boolean),
  timeoutMs = 30_000,
): Promise<any> {
  const accept = typeof status === 'string' ? (job: any) => job.status === status : status
  const deadline = Date.now() + timeoutMs
  let last: any
  for (;;) {
    const response = await getJob(app, key, jobId)
    last = response.json()
    if (response.statusCode === 200 && accept(last)) return last
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not get there in ${timeoutMs} ms; last: ${JSON.stringify(last)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A client of the key's organization. */
export async function aClient(ts: TestSystem, key: string, name = 'Acme Plumbing'): Promise<number> {
  return ts.call<number>('add_client', clientPayload(name), key)
}

/** Small heartbeat and stale values so that heartbeats and the watchdog act within a test. */
export const QUICK_JOBS = { workerConcurrency: 2, heartbeatSeconds: 1, staleSeconds: 3 }
