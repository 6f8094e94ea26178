/**
 * Keeps the embedded PostgreSQL running for the process that owns it. The service owns that server (nothing
 * else will restart it), so when it exits on its own (kill -9, the OOM killer, a crash) the supervisor starts
 * it again on the same directory and port, with backoff, until it is up or the owner stops it. The pools
 * reconnect by themselves to the same URL: pg.Pool drops the broken clients and opens new ones.
 */
import { sleep } from '../commands/sleep.js'

/** One run of the server: resolves `exited` with how it ended ("signal SIGKILL", "code 1"). */
export interface RunningServer {
  readonly exited: Promise<string>
  /** Stops the server; resolves at once when it has exited already. */
  stop(): Promise<void>
}

export type SupervisorLog = (line: string, level: 'info' | 'warn' | 'error') => void

/** Waits before each restart attempt (the last repeats): quick first, then gentle on a server that keeps failing. */
export const RESTART_BACKOFF_MS = [200, 500, 1000, 2000, 5000] as const

export interface Supervised {
  /** Stops supervising and the server (one being restarted is stopped once it is up). Never throws. */
  stop(): Promise<void>
}

export function supervise(first: RunningServer, launch: () => Promise<RunningServer>, log: SupervisorLog): Supervised {
  const stopping = new AbortController()
  let current: RunningServer | undefined = first
  let restarting: Promise<void> | undefined

  const watch = (server: RunningServer) => {
    void server.exited.then((how) => {
      if (stopping.signal.aborted || current !== server) return
      current = undefined
      restarting = restart(how)
    })
  }

  async function restart(how: string): Promise<void> {
    const since = Date.now()
    log(`the embedded PostgreSQL exited on its own (${how}); restarting it`, 'warn')
    for (let attempt = 0; !stopping.signal.aborted; attempt++) {
      await sleep(RESTART_BACKOFF_MS[Math.min(attempt, RESTART_BACKOFF_MS.length - 1)]!, stopping.signal)
      if (stopping.signal.aborted) return
      let server: RunningServer
      try {
        server = await launch()
      } catch (error) {
        // Its old backends may still hold the shared memory for a moment, or the disk may be full: try again.
        log(`restarting the embedded PostgreSQL failed (attempt ${attempt + 1}): ${(error as Error).message}`, 'error')
        continue
      }
      if (stopping.signal.aborted) {
        await server.stop().catch(() => {})
        return
      }
      current = server
      watch(server)
      log(`the embedded PostgreSQL is running again (down ${Date.now() - since} ms)`, 'info')
      return
    }
  }

  watch(first)
  return {
    async stop() {
      stopping.abort()
      await restarting?.catch(() => {})
      await current?.stop().catch(() => {})
      current = undefined
    },
  }
}
