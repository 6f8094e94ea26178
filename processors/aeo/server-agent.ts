import { randomUUID } from 'node:crypto'
import { ingestCapture, MAX_RECORD_BYTES, type CaptureDeps } from '../../commands/aeo/captures.js'
import { claimRuns, type ClaimedRun } from '../../commands/aeo/claims.js'
import { completeRun, failRun, startRun, type RunDeps } from '../../commands/aeo/runs.js'
import type { CommandContext } from '../../commands/command-handler.js'
import type { Engine } from '../../domain/aeo/engines.js'
import type { AgentRef } from '../../domain/aeo/runs/run.js'
import { runQueueReads } from '../../projections/aeo/runs/run-queue-reads.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { EngineError, type EngineAdapter, type EngineAnswer, type Source } from './engines/adapter.js'
import { createEngineAdapters } from './engines/index.js'

/** The built-in agent's id; it is a platform agent (no organization), so it serves every organization's runs. */
export const SERVER_AGENT_ID = 'server-api'
const AGENT: AgentRef = { agent_id: SERVER_AGENT_ID, agent_org_id: null }
const ACTOR_ID = 'aeo-server-agent'

/** How long an engine rests after a rate limit without a retry-after, and the longest rest a provider may ask for. */
const RATE_LIMIT_REST_MS = 30_000
const MAX_REST_MS = 10 * 60_000
/** An engine whose key is refused (401/403) rests this long, so its runs are not failed through in seconds. */
const AUTH_REST_MS = 5 * 60_000

/** Limits of AeoCaptureIngested (domain/aeo/captures/events.ts) the agent keeps to, so a long answer is still captured. */
const MAX_ANSWER_CHARS = 200_000
const MAX_SOURCES = 500
const MAX_URL_CHARS = 2000
const MAX_TITLE_CHARS = 500
const MAX_ERROR_CHARS = 2000

export interface ServerAgentOptions {
  /** The engines it answers; default: one adapter per engine enabled in settings. */
  readonly adapters?: readonly EngineAdapter[]
}

/** The server-API agent when at least one engine is enabled (an API key in the environment); none otherwise. */
export function serverAgentProcessors(deps: ProcessorDeps, options: ServerAgentOptions = {}): Processor[] {
  const adapters = options.adapters ?? createEngineAdapters(deps.aeoProcessors.engines)
  return adapters.length === 0 ? [] : [new ServerAgent(deps, adapters)]
}

/**
 * The built-in server-API agent: claims runs for the engines it has adapters for (geo any), up to
 * agentConcurrency at a time, polling every agentPollMs while the queue is empty. Each run: start → ask the
 * engine → ingest the capture → complete. A provider error fails the run with the provider's reason (the
 * runs queue retries it up to its limit, after the backoff schedule or the 429's Retry-After); nothing is
 * captured. A rate-limited engine rests for the time the
 * provider asked before the agent claims for it again.
 */
export class ServerAgent implements Processor {
  readonly name = 'aeo-server-agent'
  private readonly adapters: ReadonlyMap<Engine, EngineAdapter>
  private readonly runDeps: RunDeps
  private readonly captureDeps: CaptureDeps
  private readonly inHand = new Set<Promise<void>>()
  /** Engine → epoch ms before which the agent does not claim for it. */
  private readonly restingUntil = new Map<Engine, number>()
  private running = false
  private loop: Promise<void> | undefined
  private wake: (() => void) | undefined

  constructor(
    private readonly deps: ProcessorDeps,
    adapters: readonly EngineAdapter[],
  ) {
    this.adapters = new Map(adapters.map((a) => [a.engine, a]))
    this.runDeps = { ...deps.write, db: deps.db, reads: runQueueReads(deps.read), settings: deps.aeo }
    this.captureDeps = { ...deps.write, db: deps.db }
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.claimLoop()
  }

  async stop(): Promise<void> {
    this.running = false
    this.wake?.()
    await this.loop?.catch(() => undefined)
    this.loop = undefined
    // The runs in hand finish (each bounded by its adapter's timeout): a run cut off halfway would only wait
    // for its lease to run out.
    await Promise.allSettled([...this.inHand])
  }

  /** Engines it may claim for now: every engine it has an adapter for, less those resting. */
  engines(now: number = this.deps.write.clock().getTime()): Engine[] {
    return [...this.adapters.keys()].filter((engine) => (this.restingUntil.get(engine) ?? 0) <= now)
  }

  private async claimLoop(): Promise<void> {
    const { agentConcurrency, agentPollMs } = this.deps.aeoProcessors
    while (this.running) {
      const free = agentConcurrency - this.inHand.size
      if (free <= 0) {
        await Promise.race(this.inHand)
        continue
      }
      const engines = this.engines()
      let claimed: ClaimedRun[] = []
      if (engines.length > 0) {
        try {
          claimed = await claimRuns(this.runDeps, this.context(), {
            agentId: SERVER_AGENT_ID,
            agentOrgId: null,
            capabilities: { engines, geo: 'any', max_per_day: null },
            limit: free,
          })
        } catch (error) {
          this.deps.log.error({ err: error }, 'aeo server agent: claiming runs failed')
        }
      }
      for (const run of claimed) this.hold(this.work(run))
      // A short claim means the queue is (for now) empty: wait for the next poll, or for a run to finish.
      if (claimed.length < free && this.running) await this.pause(agentPollMs)
    }
  }

  private hold(work: Promise<void>): void {
    const tracked = work.finally(() => {
      this.inHand.delete(tracked)
    })
    this.inHand.add(tracked)
  }

  /** Waits `ms`, or less when stop() wakes it. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wake = done
    })
  }

  /** One run, start to finish; never throws (every failure is recorded on the run or logged). */
  private async work(run: ClaimedRun): Promise<void> {
    const context = this.context()
    const log = this.deps.log.child({ run_id: run.id, engine: run.engine, client_id: run.client_id })
    try {
      const adapter = this.adapters.get(run.engine)
      if (!adapter) return await this.fail(run, context, `the server agent has no adapter for engine ${run.engine}`)
      if (run.prompt.trim() === '') return await this.fail(run, context, 'the question has no prompt')
      await startRun(this.runDeps, context, { runId: run.id, agent: AGENT })

      let answer: EngineAnswer
      try {
        answer = await adapter.ask(run.prompt, { geoState: run.geo_state })
      } catch (error) {
        const engineError = error instanceof EngineError ? error : new EngineError(String(error), { retryable: true })
        this.rest(run.engine, engineError)
        log.warn({ status: engineError.status, retryable: engineError.retryable }, `aeo server agent: engine failed: ${engineError.reason}`)
        return await this.fail(run, context, engineError.reason, retryAfterSeconds(engineError))
      }

      let captureId: number
      try {
        ;({ captureId } = await ingestCapture(this.captureDeps, context, {
          callerOrgId: null,
          clientId: run.client_id,
          queryId: run.query_id,
          engine: run.engine,
          month: run.month,
          runId: run.id,
          answerText: answer.answer_text.slice(0, MAX_ANSWER_CHARS),
          citations: sources(answer.citations),
          retrieved: sources(answer.retrieved),
          recordJson: fitRecord(answer.record, MAX_RECORD_BYTES),
          model: answer.model.slice(0, 200),
          surface: 'api',
          searched: answer.searched,
        }))
      } catch (error) {
        // The client or question went away while the engine answered, or the answer broke a capture rule.
        log.warn({ err: error }, 'aeo server agent: the capture was refused')
        return await this.fail(run, context, `capture refused: ${messageOf(error)}`)
      }
      await completeRun(this.runDeps, context, { runId: run.id, agent: AGENT, captureId })
    } catch (error) {
      // Cancelled, expired or re-claimed meanwhile: the run is no longer ours to finish.
      log.warn({ err: error }, 'aeo server agent: the run could not be carried through')
    }
  }

  /** Fails the run; it is retried after the backoff schedule, or after `retryAfter` seconds when the provider said so. */
  private async fail(run: ClaimedRun, context: CommandContext, reason: string, retryAfter?: number): Promise<void> {
    await failRun(this.runDeps, context, {
      runId: run.id,
      agent: AGENT,
      error: reason.slice(0, MAX_ERROR_CHARS),
      retryAfterSeconds: retryAfter,
    })
  }

  /** A rate-limited engine rests as long as its provider asked; one whose key is refused rests longer. */
  private rest(engine: Engine, error: EngineError): void {
    let ms: number | undefined
    if (error.status === 429) ms = Math.min(error.retryAfterMs ?? RATE_LIMIT_REST_MS, MAX_REST_MS)
    else if (error.status === 401 || error.status === 403) ms = AUTH_REST_MS
    else if (error.retryAfterMs !== undefined) ms = Math.min(error.retryAfterMs, MAX_REST_MS)
    if (ms === undefined || ms <= 0) return
    const until = this.deps.write.clock().getTime() + ms
    this.restingUntil.set(engine, Math.max(until, this.restingUntil.get(engine) ?? 0))
  }

  /** One correlation id per claim and per run, so `ops replay` groups a run's steps. */
  private context(): CommandContext {
    return { actor: { kind: 'system', id: ACTOR_ID }, requestId: null, correlationId: randomUUID(), causationId: null }
  }
}

/**
 * A rate limit's Retry-After, in seconds, as the run's retry delay (the provider knows when it will answer
 * again better than the backoff schedule does); undefined for other errors or without the header.
 */
export function retryAfterSeconds(error: EngineError): number | undefined {
  if (error.status !== 429 || error.retryAfterMs === undefined || !(error.retryAfterMs >= 0)) return undefined
  return error.retryAfterMs / 1000
}

/** Sources within the capture's limits: URLs that fit, titles cut to length, at most MAX_SOURCES. */
function sources(list: readonly Source[]): Source[] {
  return list
    .filter((s) => s.url.length <= MAX_URL_CHARS)
    .slice(0, MAX_SOURCES)
    .map((s) => (s.title === undefined ? { url: s.url } : { url: s.url, title: s.title.slice(0, MAX_TITLE_CHARS) }))
}

/**
 * The raw record within the capture's size limit: whole when it fits; else without the providers' opaque
 * blobs (Anthropic's encrypted_* fields, Gemini's rendered search widget); else a marked head of it.
 */
export function fitRecord(record: unknown, maxBytes: number): unknown {
  const whole = JSON.stringify(record ?? null)
  if (Buffer.byteLength(whole, 'utf8') <= maxBytes) return record
  const stripped = JSON.stringify(record, (key, value) => (key.startsWith('encrypted_') || key === 'renderedContent' ? undefined : value))
  if (Buffer.byteLength(stripped, 'utf8') + 64 <= maxBytes) {
    const parsed = JSON.parse(stripped) as unknown
    const note = { record_trimmed: 'opaque provider fields omitted' }
    return Array.isArray(parsed) ? { ...note, responses: parsed } : { ...note, ...(parsed as object) }
  }
  // A character may take 3 bytes, and re-escaping the head may double it: an eighth of the limit always fits.
  return { record_trimmed: 'truncated', original_bytes: Buffer.byteLength(whole, 'utf8'), head: whole.slice(0, Math.floor(maxBytes / 8)) }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const detail = (error as { detail?: unknown }).detail
    return typeof detail === 'string' && detail !== '' ? `${error.message} (${detail})` : error.message
  }
  return String(error)
}
