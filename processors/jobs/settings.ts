/** Settings of the job runner and watchdog (ops/config.ts reads them from the environment). */
export interface JobSettings {
  /** Jobs one process runs at once (JOB_WORKER_CONCURRENCY). */
  readonly workerConcurrency: number
  /** How often a running job's worker renews its lease and checks for a cancel (JOB_HEARTBEAT_SECONDS). */
  readonly heartbeatSeconds: number
  /**
   * A running job whose lease was not renewed for this long is failed by the watchdog (JOB_STALE_SECONDS):
   * its worker crashed, was killed or lost the database. Also how long a handler may ignore a cancel.
   */
  readonly staleSeconds: number
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { workerConcurrency: 2, heartbeatSeconds: 10, staleSeconds: 60 }
