import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { WorkTables } from '../../migrations/work-tables.js'

/** One measured number of one repetition, e.g. `events/s`. */
export interface Figure {
  readonly metric: string
  readonly value: number
  readonly unit: string
  /** The target: at least (`>=`) or at most (`<=`) this value. */
  readonly target?: { readonly op: '>=' | '<='; readonly value: number }
  /** Higher is better (throughput) or lower is better (latency, memory, misses); for the spread's sign only. */
  readonly better?: 'higher' | 'lower'
}

export interface BenchDatabase {
  readonly url: string
  readonly pool: pg.Pool
  readonly db: Kysely<WorkTables>
  close(): Promise<void>
}

export interface BenchContext {
  /** The PostgreSQL server (`postgres` database) the bench runs on. */
  readonly serverUrl: string
  /** A fresh database with every migration applied (read models not created). Dropped at the end of the run. */
  createDatabase(): Promise<BenchDatabase>
  /** Progress for the person watching (stderr). */
  log(message: string): void
  /** Smaller data sets, for a quick check that the scenarios work (`--quick`). */
  readonly quick: boolean
}

/**
 * A scenario measures one workload. It is run `repeat` times (default: the bench's --repeat) and every
 * figure is reported as median and spread over the repetitions. Data sets are generated deterministically.
 */
export interface Scenario {
  readonly name: string
  readonly description: string
  readonly repeat?: number
  run(context: BenchContext): Promise<Figure[]>
  /**
   * Instead of `run` once per repetition: every repetition in one call, measured on one data set, for a
   * scenario whose data costs far more to prepare than to measure. One Figure[] per repetition.
   */
  runRepeated?(context: BenchContext, repeat: number): Promise<Figure[][]>
}
