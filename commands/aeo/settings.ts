import { DEFAULT_RETRY_BACKOFF_SECONDS } from '../../domain/aeo/runs/backoff.js'

/** Operator settings of the AI Visibility write side (ops/config.ts reads them from the environment). */
export interface AeoSettings {
  /** How long a claim holds a run before it returns to the queue (AEO_CLAIM_LEASE_SECONDS). */
  readonly claimLeaseSeconds: number
  /** Attempts before a failing run is failed for good (AEO_MAX_ATTEMPTS). */
  readonly maxAttempts: number
  /**
   * Seconds a failed run waits before it can be claimed again, per failed attempt (1st, 2nd, …; the last
   * entry repeats), unless the provider said how long with Retry-After (AEO_RETRY_BACKOFF_SECONDS).
   */
  readonly retryBackoffSeconds: readonly number[]
  /** Raw engine records older than this are pruned to '' (AEO_RECORD_RETENTION_DAYS). */
  readonly recordRetentionDays: number
  /** An agent seen within this many seconds is online (AEO_AGENT_ONLINE_SECONDS). */
  readonly agentOnlineSeconds: number
}

export const DEFAULT_AEO_SETTINGS: AeoSettings = {
  claimLeaseSeconds: 900,
  maxAttempts: 3,
  retryBackoffSeconds: DEFAULT_RETRY_BACKOFF_SECONDS,
  recordRetentionDays: 90,
  agentOnlineSeconds: 300,
}
