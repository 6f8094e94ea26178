import type { Engine } from '../../domain/aeo/engines.js'

/** One server-API engine: enabled by its API key; the base URL points tests at a local provider server. */
export interface EngineSettings {
  readonly apiKey: string
  readonly baseUrl: string | undefined
  readonly model: string
}

/** Settings of the AI Visibility processors (ops/config.ts reads them from the environment). */
export interface AeoProcessorSettings {
  /** Engines the server-API agent answers, each enabled by its API key (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY). */
  readonly engines: Partial<Record<Extract<Engine, 'claude' | 'openai' | 'gemini'>, EngineSettings>>
  /** How often the scheduler sweeps for due runs and stale claims (AEO_SWEEP_INTERVAL_MS). */
  readonly sweepIntervalMs: number
  /** How often the server agent polls for runs when the queue was empty (AEO_AGENT_POLL_MS). */
  readonly agentPollMs: number
  /** Runs the server agent works on at once (AEO_AGENT_CONCURRENCY). */
  readonly agentConcurrency: number
}

/** Defaults per engine (ANTHROPIC_MODEL, OPENAI_MODEL, GEMINI_MODEL override them); claude-sonnet-4-5 reaches end of life on 2026-11-30. */
export const DEFAULT_MODELS = { claude: 'claude-sonnet-5-5', openai: 'gpt-5', gemini: 'gemini-2.5-flash' } as const

export const DEFAULT_AEO_PROCESSOR_SETTINGS: AeoProcessorSettings = {
  engines: {},
  sweepIntervalMs: 60 * 60 * 1000,
  agentPollMs: 5000,
  agentConcurrency: 4,
}
