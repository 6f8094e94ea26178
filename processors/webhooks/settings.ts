import type { WebhookPolicy } from '../../commands/webhooks.js'
import { DEFAULT_BACKOFF_BASE_MS } from '../../domain/webhooks/schedule.js'

/** Settings of the webhook dispatcher (ops/config.ts reads the operator's part from the environment). */
export interface WebhookProcessorSettings {
  /** The service key (to open signing secrets) and the URL policy, checked again at connect time. */
  readonly policy: WebhookPolicy
  /** WEBHOOK_BACKOFF_BASE_MS: the first retry delay; the n-th waits base·2^(n−1). */
  readonly backoffBaseMs: number
  /** A receiver must answer 2xx within this (spec: 10 seconds). */
  readonly timeoutMs: number
  /** Attempts in flight per process. */
  readonly concurrency: number
  /** Attempts in flight per destination host per process, so one slow receiver cannot take every slot. */
  readonly perHostCap: number
  /** How often an idle worker looks for due deliveries (other processes' work, retries coming due). */
  readonly pollMs: number
  /** BASE_URL when configured: status_url in job events is absolute then. */
  readonly baseUrl: string | undefined
}

export const DEFAULT_WEBHOOK_TUNING = {
  backoffBaseMs: DEFAULT_BACKOFF_BASE_MS,
  timeoutMs: 10_000,
  concurrency: 64,
  perHostCap: 16,
  pollMs: 1000,
} as const
