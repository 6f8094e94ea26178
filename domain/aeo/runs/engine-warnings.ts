import { SERVER_ENGINES, type Engine } from '../engines.js'

/**
 * Engines a cadence names that nothing will answer. Enrolling an engine queues its runs
 * whether or not anything can claim them, so a first-time user without engine keys would see runs stay
 * queued forever, without a word. A warning names each such engine and why, where the user enrols
 * (set_aeo_cadence), watches the queue (get_aeo_queue_overview) and in the processors' log. Pure.
 */

/** Why an engine is not answered: a server engine lacks its key; an agent engine (chatgpt-web) an agent. */
export type EngineWarningReason = 'no API key configured' | 'no agent seen claiming it'

export interface EngineWarning {
  readonly engine: Engine
  readonly reason: EngineWarningReason
  readonly hint: string
}

/** The environment variable that gives the built-in server agent each server engine (ops/config.ts reads them). */
const KEY_VARIABLES: Readonly<Record<(typeof SERVER_ENGINES)[number], string>> = {
  claude: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  gemini: 'GEMINI_API_KEY',
}

const isServerEngine = (engine: Engine): engine is (typeof SERVER_ENGINES)[number] => (SERVER_ENGINES as readonly Engine[]).includes(engine)

/**
 * A warning for each of `engines` (in their order, once each) that is not in `answered`: the engines an agent
 * has claimed with (the built-in server agent claims exactly the engines it has keys for) or, for a process
 * that knows its own configuration, the server engines it has keys for. A server engine is warned as having no
 * API key (an agent could answer it too, which the hint says); any other as having no agent.
 */
export function engineWarnings(engines: readonly Engine[], answered: ReadonlySet<string>): EngineWarning[] {
  return [...new Set(engines)]
    .filter((engine) => !answered.has(engine))
    .map((engine) =>
      isServerEngine(engine)
        ? {
            engine,
            reason: 'no API key configured',
            hint: `Set ${KEY_VARIABLES[engine]} where the processors run (the built-in server agent then answers ${engine}), or run an agent that claims ${engine} with claim_aeo_runs; until then its runs stay queued, or drop ${engine} from the cadence`,
          }
        : {
            engine,
            reason: 'no agent seen claiming it',
            hint: `Run an agent (an operator device) that claims ${engine} runs with claim_aeo_runs; until then its runs stay queued, or drop ${engine} from the cadence`,
          },
    )
}
