/**
 * What the public sandbox key may do beyond reading. Pure: the caller passes the last export time it
 * found and the clock.
 */

/** The spec's Limits table: one export_org job per 10 minutes with the sandbox key. */
export const SANDBOX_EXPORT_INTERVAL_MS = 10 * 60 * 1000

export type SandboxJobVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: 'read_only' | 'rate_limited'; readonly retryAfterSeconds?: number }

/**
 * Whether the sandbox key may create a job of `kind` now. Every kind is refused (the sandbox is read-only)
 * except export_org, allowed when no sandbox export was created in the last 10 minutes. For the jobs
 * endpoint (issue: jobs), which answers 403 sandbox_read_only or 429 with Retry-After accordingly.
 */
export function sandboxMayCreateJob(kind: string, lastExportAt: Date | null, now: Date): SandboxJobVerdict {
  if (kind !== 'export_org') return { allowed: false, reason: 'read_only' }
  if (lastExportAt === null) return { allowed: true }
  const elapsed = now.getTime() - lastExportAt.getTime()
  if (elapsed >= SANDBOX_EXPORT_INTERVAL_MS) return { allowed: true }
  return {
    allowed: false,
    reason: 'rate_limited',
    retryAfterSeconds: Math.ceil((SANDBOX_EXPORT_INTERVAL_MS - Math.max(0, elapsed)) / 1000),
  }
}

/** Whether a scheduled reset is due: `intervalHours` 0 disables the schedule. */
export function sandboxResetDue(lastSeededAt: Date | null, now: Date, intervalHours: number): boolean {
  if (intervalHours <= 0) return false
  if (lastSeededAt === null) return true
  return now.getTime() - lastSeededAt.getTime() >= intervalHours * 3600 * 1000
}
