/**
 * What the run commands read from the read models, and nothing more: the queue is counted and selected from
 * the aeo_runs read model (the log has no index by client and month), the cadence and active questions come
 * from theirs, and an agent's check-in is skipped when its row shows nothing new. The write side declares
 * the reads it makes here and projections implements them (projections/aeo/runs/run-queue-reads.ts), so
 * commands never import the read-model schema. Each read sees the read models as they are when it runs:
 * a caller that must count everything appended so far waits for them first (see withClientLocks).
 */
export interface RunQueueReads {
  /** The client's organization and status; undefined for a client the read models do not show. */
  client(clientId: number): Promise<{ readonly org_id: number; readonly status: string } | undefined>
  /** The client's AI Visibility cadence; undefined when it was never enrolled. */
  cadence(clientId: number): Promise<QueueCadence | undefined>
  /** The client's active questions, by id. */
  activeQuestions(clientId: number): Promise<{ readonly id: number; readonly priority: number }[]>
  /** The client's runs of the month, counted per question and engine. */
  monthRunCounts(clientId: number, month: string): Promise<RunCount[]>
  /** The ids of the client's queued runs that the filter selects, ascending. */
  queuedRunIds(filter: QueuedRunFilter): Promise<number[]>
  /** Up to `limit` claimed or running runs whose lease ran out by `now`, ascending by id. */
  staleClaimIds(now: Date, limit: number): Promise<number[]>
  /** The agent's row, by its agentKey; undefined for an agent never seen. */
  agent(agentKey: string): Promise<AgentRow | undefined>
}

export interface QueueCadence {
  readonly enabled: boolean
  readonly samples_per_month: number
  readonly engines: readonly string[]
  readonly geo_state: string | null
}

/** One question × engine of a month: every run, and those still live (neither cancelled nor failed). */
export interface RunCount {
  readonly query_id: number
  readonly engine: string
  readonly live: number
  readonly total: number
}

export interface QueuedRunFilter {
  readonly clientId: number
  readonly month?: string | undefined
  readonly queryId?: number | undefined
  /** Only runs on these engines (empty: none). */
  readonly engines?: readonly string[] | undefined
  /** Only runs on engines other than these. */
  readonly exceptEngines?: readonly string[] | undefined
}

/** The agent's read-model row, as far as a check-in needs it. */
export interface AgentRow {
  readonly engines: readonly string[]
  readonly geo: string
  readonly max_per_day: number | null
  readonly last_seen_at: Date
}
